// A store outage says so (issue 20, item 6): with Redis gone, the companion answers 503
// `unavailable` with Retry-After within its provider timeout, not `internal` after 10 s or a
// hang; once Redis is back, the customer pays. A real redis-server, started and killed here.
// SQLite keeps its write-ahead log bounded and says at start-up when the disk is short.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import {
  type CheckoutStore,
  createCheckoutHandler,
  StoreUnavailableError,
} from '../../../src/server';
import { createRedisStore } from '../../../src/server/store/redis';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The companion's provider timeout, the bound on answering 503 while Redis is down, well past one
 * Redis command's time so that a loaded machine does not cross it.
 */
const PROVIDER_MS = 5000;
const REDIS_COMMAND_MS = 1000;

function companion(store: CheckoutStore) {
  const sandbox = createSandboxHandler({ secretKey: SANDBOX_TEST_KEY, basePath: '/sandbox' });
  const errors: string[] = [];
  const checkout = createCheckoutHandler({
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://sandbox.test/sandbox',
    resolveOrder: (id) =>
      id.startsWith('order_')
        ? { amountMinor: 2_500_050, currency: 'NGN', description: `Order ${id}` }
        : null,
    store,
    timeouts: { providerMs: PROVIDER_MS },
    logger: { warn: () => {}, error: (message) => errors.push(message) },
    fetch: (input, init) => sandbox(new Request(input, init)),
  });
  cleanups.push(() => {
    checkout.close();
    sandbox.close();
  });
  const post = (path: string, body: unknown, token?: string) =>
    checkout(
      new Request(`http://shop.test/api/checkout${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
  return { checkout, post, errors };
}

describe.runIf(hasRedisServer())('Redis unreachable', () => {
  it('answers 503 unavailable with Retry-After within the provider timeout, then the customer pays once Redis is back', async () => {
    let redis: RunningRedis = await startRedis();
    cleanups.push(() => redis.stop());
    const store = createRedisStore({ url: redis.url, commandTimeoutMs: REDIS_COMMAND_MS });
    cleanups.push(() => store.close());
    const on = companion(store);
    // Up: the companion answers once its connection is open. On a loaded machine, opening it and
    // checking Redis's settings took longer than one command's time (steady check, session 11).
    await expect
      .poll(async () => (await on.post('/session', { order: 'order_1042' })).status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(200);

    await redis.stop();
    for (let attempt = 0; attempt < 3; attempt++) {
      const startedAt = Date.now();
      const answer = await on.post('/session', { order: 'order_1042' });
      const took = Date.now() - startedAt;
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = await answer.json();
      expect(body.error.code).toBe('unavailable');
      expect(body.error.message).not.toMatch(/redis|127\.0\.0\.1/i);
      expect(took).toBeLessThan(PROVIDER_MS);
    }
    expect(on.errors.some((line) => line.includes('unavailable'))).toBe(true);

    // Redis back on the same port: ioredis reconnects, and the customer pays.
    redis = await startRedis({ port: redis.port });
    await expect
      .poll(async () => (await on.post('/session', { order: 'order_1042' })).status, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(200);
    const session = await (await on.post('/session', { order: 'order_1042' })).json();
    const initiated = await on.post('/initiate', { channel: 'PayByTransfer' }, session.token);
    expect(initiated.status).toBe(200);
    expect((await initiated.json()).payment.virtualAccount.accountNumber).toMatch(/^\d{10}$/);
  });

  it('throws StoreUnavailableError from the store itself, and refuses a bad commandTimeoutMs', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const store = createRedisStore({ url: redis.url, commandTimeoutMs: 300 });
    cleanups.push(() => store.close());
    await store.set('k', 1, 10_000);
    await redis.stop();
    const failure = await store.get('k').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('StoreUnavailableError');
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    // Bad arguments are not an outage.
    await expect(store.set('k', 1, -1)).rejects.toThrow(TypeError);
    expect(() => createRedisStore({ url: redis.url, commandTimeoutMs: 0 })).toThrow(
      /commandTimeoutMs must be a positive integer/,
    );
  });
});

describe('SQLite headroom', () => {
  function folder(): string {
    const path = mkdtempSync(join(tmpdir(), 'paydrop-headroom-'));
    cleanups.push(() => rmSync(path, { recursive: true, force: true }));
    return path;
  }

  it('warns at start-up, naming how much free disk it wants, when there is less', async () => {
    const warnings: string[] = [];
    const store = createSqliteStore({
      path: join(folder(), 'checkout.db'),
      // More than any disk has: the warning a nearly full disk would give.
      minFreeDiskBytes: Number.MAX_SAFE_INTEGER,
      logger: { warn: (message) => warnings.push(message) },
    });
    cleanups.push(() => store.close());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/free/);
    expect(warnings[0]).toMatch(/wants at least \d[\d,.]* [KMGTP]?B/);
    expect(warnings[0]).toContain('minFreeDiskBytes');
    // It still works: a warning, not a refusal.
    await store.set('k', 'v', 10_000);
    expect(await store.get('k')).toBe('v');
  });

  it('says nothing when the disk has room, and cuts the write-ahead log back after a burst', async () => {
    const warnings: string[] = [];
    const path = join(folder(), 'checkout.db');
    const store = createSqliteStore({
      path,
      minFreeDiskBytes: 1,
      maxWalBytes: 256 * 1024,
      durability: 'normal',
      logger: { warn: (message) => warnings.push(message) },
    });
    cleanups.push(() => store.close());
    expect(warnings).toEqual([]);
    // Another process reading in a long transaction holds checkpoints back: the log grows.
    const reader = new Database(path);
    cleanups.push(() => {
      reader.close();
    });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM store_values').get();
    for (let index = 0; index < 1500; index++)
      await store.set(`key-${index}`, 'x'.repeat(2000), 60_000);
    const grown = statSync(`${path}-wal`).size;
    expect(grown).toBeGreaterThan(2 * 1024 * 1024);
    reader.exec('COMMIT');
    // The next checkpoint completes and the log is cut back to maxWalBytes, not left at its peak.
    for (let index = 0; index < 3; index++)
      await store.set(`more-${index}`, 'y'.repeat(2000), 60_000);
    expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(256 * 1024);
    expect(await store.get('key-1499')).toBe('x'.repeat(2000));
  });

  it('refuses a minFreeDiskBytes that is not a size', () => {
    expect(() => createSqliteStore({ path: join(folder(), 'c.db'), minFreeDiskBytes: -1 })).toThrow(
      /minFreeDiskBytes must be/,
    );
  });
});
