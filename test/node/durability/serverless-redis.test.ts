/**
 * Serverless without lost work (issue 22, item 3), on a real redis-server: each invocation is a
 * handler and a store made fresh and closed after, as a function's cold start and freeze. The
 * payment initiated by one invocation is paid while nothing runs; a later cron invocation's
 * runDueWork() reports it, once, and the next finds nothing left to do. One clock, moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxHandler } from '../../../src/sandbox';
import { createCheckoutHandler, type PaymentOutcome } from '../../../src/server';
import { createRedisStore } from '../../../src/server/store/redis';
import { ORDERS } from '../../helpers/companion';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const KEY = 'sk_test_serverless_redis_0123456789abcdef';

describe.skipIf(!hasRedisServer())('invocations on one Redis', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('reports an outcome through a later cold start runDueWork, exactly once', async () => {
    let time = Date.now();
    const sandbox = createSandboxHandler({ secretKey: KEY });
    const outcomes: PaymentOutcome[] = [];
    const prefix = `serverless-${crypto.randomUUID()}:`;

    /** One invocation: a fresh store and handler, closed (the function frozen) after `work`. */
    async function invocation<T>(
      work: (checkout: ReturnType<typeof createCheckoutHandler>) => Promise<T>,
    ): Promise<T> {
      const store = createRedisStore({ url: redis.url, prefix });
      const kept: Promise<unknown>[] = [];
      const checkout = createCheckoutHandler({
        secretKey: KEY,
        baseUrl: 'http://provider.test',
        resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
        onPaymentOutcome: (outcome) => {
          outcomes.push(outcome);
        },
        logger: { warn: () => {}, error: () => {} },
        store,
        now: () => time,
        fetch: (input, init) => sandbox(new Request(input, init)),
        pollDueWork: false,
        waitUntil: (promise) => void kept.push(promise),
      });
      try {
        return await work(checkout);
      } finally {
        await Promise.all(kept);
        checkout.close();
        await store.close();
      }
    }

    const post = (path: string, body: unknown, token?: string) =>
      new Request(`http://shop.test/api/checkout${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    const reference = await invocation(async (checkout) => {
      const session = await checkout(post('/session', { order: 'order-ngn:serverless' }));
      const { token } = (await session.json()) as { token: string };
      const initiated = await checkout(post('/initiate', { channel: 'PayByTransfer' }, token));
      expect(initiated.status).toBe(200);
      return ((await initiated.json()) as { payment: { reference: string } }).payment.reference;
    });
    // Paid while no invocation runs, and no webhook comes.
    const paid = await sandbox(
      new Request(`http://provider.test/__sandbox/payments/${reference}/transfer`, {
        method: 'POST',
        headers: { 'x-api': KEY },
      }),
    );
    expect(paid.status).toBe(200);
    expect(outcomes).toEqual([]);

    time += 61_000;
    const summary = await invocation((checkout) => checkout.runDueWork());
    expect(summary).toMatchObject({ ran: { payments: 1 }, finished: 1, failed: 0, more: false });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      reference,
      status: 'SUCCESSFUL',
      orderId: 'order-ngn:serverless',
    });

    time += 3_600_000;
    const later = await invocation((checkout) => checkout.runDueWork());
    expect(later.ran.payments).toBe(0);
    expect(outcomes).toHaveLength(1);
  });
});
