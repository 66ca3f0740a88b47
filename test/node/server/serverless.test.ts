/**
 * Serverless without lost work (issue 22, item 3): with `pollDueWork: false` the handler arms no
 * timer and touches nothing at start-up; a cron's `runDueWork()` delivers what no request
 * started, `waitUntil` is handed what a request did start, and production refuses the memory
 * store there. On fake timers and a fake clock: nothing here waits for the wall clock. (The
 * sandbox keeps timers of its own, for a transfer's expiry: so the flows show that no timer of
 * the companion delivers anything, rather than count timers.)
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import {
  type CheckoutHandlerOptions,
  type CheckoutStore,
  createCheckoutHandler,
  createMemoryStore,
  createPayoutsHandler,
  type PaymentOutcome,
} from '../../../src/server';
import { ORDERS } from '../../helpers/companion';

const KEY = 'sk_test_serverless_0123456789abcdef';
const environment = process.env.NODE_ENV;

beforeEach(() => {
  // Every timer is fake: one armed by the handler would show in getTimerCount, and never fires.
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  process.env.NODE_ENV = environment;
});

/** A serverless companion in front of the sandbox, both in memory, on one clock moved by hand. */
function rig(overrides: Partial<CheckoutHandlerOptions> = {}) {
  let time = Date.now();
  const now = () => time;
  const sandbox = createSandboxHandler({ secretKey: KEY });
  const outcomes: PaymentOutcome[] = [];
  const kept: Promise<unknown>[] = [];
  const store: CheckoutStore = createMemoryStore({ now });
  const storeCalls: string[] = [];
  // The store, its calls counted: nothing may touch it before the first request or cron call.
  const counted = Object.fromEntries(
    Object.entries(store).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        storeCalls.push(name);
        return (method as (...args: unknown[]) => unknown).apply(store, args);
      },
    ]),
  ) as unknown as CheckoutStore;
  const handler = createCheckoutHandler({
    secretKey: KEY,
    baseUrl: 'http://provider.test',
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    cardEntry: 'direct',
    onPaymentOutcome: (outcome) => {
      outcomes.push(outcome);
    },
    onPayoutOutcome: () => {},
    logger: { warn: () => {}, error: () => {} },
    store: counted,
    now,
    fetch: (input, init) => sandbox(new Request(input, init)),
    pollDueWork: false,
    waitUntil: (work) => void kept.push(work),
    ...overrides,
  });

  async function call(method: string, path: string, body?: unknown, token?: string) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (path === '/card') headers.origin = 'null';
    const response = await handler(
      new Request(`http://shop.test/api/checkout${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
    return { status: response.status, body: (await response.json()) as any };
  }

  async function session(order: string): Promise<string> {
    const answer = await call('POST', '/session', { order });
    expect(answer.status).toBe(200);
    return answer.body.token;
  }

  /** A bank transfer initiated for `order`, and the customer's transfer into it; its reference. */
  async function transfer(order: string): Promise<string> {
    const token = await session(order);
    const initiated = await call('POST', '/initiate', { channel: 'PayByTransfer' }, token);
    expect(initiated.status).toBe(200);
    const reference = initiated.body.payment.reference as string;
    const paid = await sandbox(
      new Request(`http://provider.test/__sandbox/payments/${reference}/transfer`, {
        method: 'POST',
        headers: { 'x-api': KEY },
      }),
    );
    expect(paid.status).toBe(200);
    return reference;
  }

  return {
    handler,
    outcomes,
    kept,
    storeCalls,
    call,
    transfer,
    advance(seconds: number) {
      time += seconds * 1000;
    },
  };
}

it('arms no timer and calls no store at start-up', () => {
  const { handler, storeCalls } = rig();
  expect(vi.getTimerCount()).toBe(0);
  expect(storeCalls).toEqual([]);
  handler.close();
});

it('delivers an outcome no request started through runDueWork alone, once', async () => {
  const { handler, outcomes, kept, transfer, advance } = rig();
  // No webhook (the sandbox has no URL for one), no browser asking.
  const reference = await transfer('order-ngn:cron');
  await Promise.all(kept);
  expect(outcomes).toEqual([]);

  // Not due yet: a payment is first looked at a minute after it was initiated.
  expect(await handler.runDueWork()).toMatchObject({ ran: { payments: 0 }, more: false });
  advance(61);
  // Due now, but no timer of the companion's picks it up: ten seconds of timers go by in vain.
  await vi.advanceTimersByTimeAsync(10_000);
  await Promise.all(kept);
  expect(outcomes).toEqual([]);
  const summary = await handler.runDueWork();
  expect(summary).toMatchObject({ finished: 1, failed: 0, more: false });
  expect(summary.ran.payments).toBe(1);
  expect(outcomes).toHaveLength(1);
  expect(outcomes[0]).toMatchObject({ reference, status: 'SUCCESSFUL', orderId: 'order-ngn:cron' });

  // Done: a later cron call finds nothing of it to do, and reports nothing again.
  advance(3600);
  const later = await handler.runDueWork();
  expect(later.ran.payments).toBe(0);
  expect(outcomes).toHaveLength(1);
  handler.close();
});

it('starts the payout sweep at the first runDueWork and runs it a minute later', async () => {
  const { handler, advance } = rig();
  expect(await handler.runDueWork()).toMatchObject({ ran: { sweeps: 0 } });
  // Cold starts and calls more often than the sweep's minute do not keep putting it off.
  advance(30);
  expect((await handler.runDueWork()).ran.sweeps).toBe(0);
  advance(31);
  expect((await handler.runDueWork()).ran.sweeps).toBe(1);
  handler.close();
});

it('hands waitUntil the work a request starts, which delivers the outcome', async () => {
  const { handler, outcomes, kept, call, transfer } = rig();
  const reference = await transfer('order-ngn:wait');
  const before = kept.length;
  // The provider's webhook: a hint, confirmed after the answer, inside what waitUntil is given.
  const hint = await call('POST', '/webhooks', {
    event: 'payment.success',
    data: { reference, paymentReference: reference },
  });
  expect(hint.status).toBe(200);
  expect(kept.length).toBeGreaterThan(before);
  expect(outcomes).toEqual([]);
  await Promise.all(kept);
  expect(outcomes).toHaveLength(1);
  expect(outcomes[0]).toMatchObject({ reference, status: 'SUCCESSFUL', orderId: 'order-ngn:wait' });
  // Nothing is left for the cron.
  expect((await handler.runDueWork()).ran.payments).toBe(0);
  handler.close();
});

it('refuses the memory store under NODE_ENV=production without polling, saying why', () => {
  process.env.NODE_ENV = 'production';
  const options = {
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://provider.test',
    resolveOrder: () => null,
    tokenSecret: 'serverless-test-token-secret-0123456789abcdef',
    logger: { warn: () => {}, error: () => {} },
  };
  expect(() =>
    createCheckoutHandler({ ...options, store: createMemoryStore(), pollDueWork: false }),
  ).toThrow(/pollDueWork: false .*memory store.*lost between invocations.*createRedisStore/);
  // A long-lived process may still run on memory it chose; and outside production, anything goes.
  createCheckoutHandler({ ...options, store: createMemoryStore() }).close();
  process.env.NODE_ENV = 'development';
  createCheckoutHandler({ ...options, store: createMemoryStore(), pollDueWork: false }).close();
});

it('checks runDueWork maxJobs and the options', async () => {
  const { handler } = rig();
  await expect(handler.runDueWork({ maxJobs: 0 })).rejects.toThrow(/maxJobs/);
  handler.close();
  expect(() =>
    createCheckoutHandler({
      secretKey: KEY,
      baseUrl: 'http://provider.test',
      resolveOrder: () => null,
      pollDueWork: 'no' as never,
    }),
  ).toThrow(/pollDueWork must be true or false/);
});

it('runs a payouts-only handler the same way: no timer, runDueWork, memory refused in production', async () => {
  const options = {
    secretKey: KEY,
    baseUrl: 'http://provider.test',
    authorize: () => true,
    logger: { warn: () => {}, error: () => {} },
    pollDueWork: false,
  };
  const payouts = createPayoutsHandler({ ...options, store: createMemoryStore() });
  expect(vi.getTimerCount()).toBe(0);
  expect(await payouts.runDueWork()).toEqual({
    ran: { payouts: 0 },
    finished: 0,
    retrying: 0,
    failed: 0,
    more: false,
  });
  payouts.close();
  process.env.NODE_ENV = 'production';
  expect(() =>
    createPayoutsHandler({ ...options, publicUrl: 'https://admin.shop.test/api/back-office' }),
  ).toThrow(/pollDueWork: false .*store that outlives an invocation/);
});
