/**
 * The Redis store reads `maxmemory-policy` and `appendonly` at start-up (issue 22, item 2), from
 * real redis-servers: one evicting without an append-only log, one with CONFIG disabled (as
 * managed Redis often has it), and one configured as the README asks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_KEY } from '../../../src/sandbox';
import { createCheckoutHandler } from '../../../src/server';
import { createRedisStore } from '../../../src/server/store/redis';
import { judgeRedisSettings } from '../../../src/server/store/redis/redis-settings';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const environment = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = environment;
});

function recorder() {
  const lines: string[] = [];
  return { lines, logger: { warn: (message: string) => void lines.push(message) } };
}

it('judges every policy but noeviction as evicting, and appendonly no as losing writes', () => {
  for (const policy of ['allkeys-lru', 'volatile-lru', 'volatile-ttl', 'allkeys-random']) {
    const verdict = judgeRedisSettings({ appendonly: 'yes', maxmemoryPolicy: policy }, true);
    expect(verdict.refusal).toMatch(/maxmemory-policy noeviction/);
  }
  expect(judgeRedisSettings({ appendonly: 'yes', maxmemoryPolicy: 'noeviction' }, true)).toEqual({
    warnings: [],
  });
  const outside = judgeRedisSettings({ appendonly: 'no', maxmemoryPolicy: 'allkeys-lru' }, false);
  expect(outside.refusal).toBeUndefined();
  expect(outside.warnings).toHaveLength(2);
});

describe.skipIf(!hasRedisServer())('with a real redis-server', () => {
  let evicting: RunningRedis;
  let noConfig: RunningRedis;
  let proper: RunningRedis;
  beforeAll(async () => {
    [evicting, noConfig, proper] = await Promise.all([
      startRedis({ args: ['--maxmemory-policy', 'allkeys-lru', '--appendonly', 'no'] }),
      startRedis({ args: ['--rename-command', 'CONFIG', '""'] }),
      startRedis(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([evicting?.stop(), noConfig?.stop(), proper?.stop()]);
  });

  it('refuses an evicting policy under NODE_ENV=production, naming the setting to change', async () => {
    process.env.NODE_ENV = 'production';
    const { lines, logger } = recorder();
    const store = createRedisStore({ url: evicting.url, logger, prefix: 'refused:' });
    try {
      await expect(store.ready()).rejects.toThrow(
        /NODE_ENV=production.*maxmemory-policy is allkeys-lru.*Set maxmemory-policy noeviction/,
      );
      // Every command is refused too, with the same words: nothing is written to that Redis.
      await expect(store.set('order', 1, 60_000)).rejects.toThrow(/maxmemory-policy noeviction/);
      await expect(store.claim('payments', 'me', Date.now(), 1, 1000)).rejects.toMatchObject({
        name: 'RedisSettingsError',
      });
      // And warns of the missing append-only log, naming it.
      expect(lines).toEqual([expect.stringMatching(/appendonly no.*Set appendonly yes/)]);
    } finally {
      await store.close();
    }
  });

  it('a checkout on that store answers 503 at its health check and logs why', async () => {
    process.env.NODE_ENV = 'production';
    const errors: string[] = [];
    const store = createRedisStore({ url: evicting.url, logger: { warn: () => {} } });
    const checkout = createCheckoutHandler({
      secretKey: SANDBOX_TEST_KEY,
      baseUrl: 'http://provider.invalid',
      resolveOrder: () => null,
      tokenSecret: 'redis-settings-test-token-secret-0123456789',
      store,
      logger: {
        warn: () => {},
        error: (message, details) => errors.push(`${message} ${JSON.stringify(details)}`),
      },
    });
    try {
      const answer = await checkout(new Request('http://shop.test/api/checkout/health'));
      expect(answer.status).toBe(503);
      expect(errors.join('\n')).toMatch(/maxmemory-policy noeviction/);
    } finally {
      checkout.close();
      await checkout.idle();
      await store.close();
    }
  });

  it('only warns of the same settings outside production, and works', async () => {
    process.env.NODE_ENV = 'development';
    const { lines, logger } = recorder();
    const store = createRedisStore({ url: evicting.url, logger, prefix: 'warned:' });
    try {
      await store.ready();
      await store.set('order', 1, 60_000);
      expect(await store.get('order')).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(
          /maxmemory-policy is allkeys-lru.*Under NODE_ENV=production the store refuses it/,
        ),
        expect.stringMatching(/appendonly no/),
      ]);
    } finally {
      await store.close();
    }
  });

  it('says once that it could not check when CONFIG is refused, naming both settings', async () => {
    process.env.NODE_ENV = 'production';
    const { lines, logger } = recorder();
    const store = createRedisStore({ url: noConfig.url, logger });
    try {
      await store.ready();
      await store.set('order', 1, 60_000);
      expect(await store.get('order')).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /could not check Redis's appendonly and maxmemory-policy \(CONFIG GET was refused: .*unknown command/i,
      );
      expect(lines[0]).toMatch(/maxmemory-policy noeviction.*appendonly yes/);
    } finally {
      await store.close();
    }
  });

  it('says nothing of a Redis configured as the README asks', async () => {
    process.env.NODE_ENV = 'production';
    const { lines, logger } = recorder();
    const store = createRedisStore({ url: proper.url, logger });
    try {
      await store.ready();
      expect(await store.add('once', true, 60_000)).toBe(true);
      expect(lines).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
