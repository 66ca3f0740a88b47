// GET {basePath}/health for load balancers (issue 21, item 6): 200 while the store answers, 503
// with the reason when it does not (a real redis-server, stopped here, as store-outage.test.ts
// does), never cached, asked without an Origin or from any, and telling nothing of orders or keys.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import {
  type CheckoutStore,
  createCheckoutHandler,
  createMemoryStore,
  StoreUnavailableError,
} from '../../../src/server';
import { createRedisStore } from '../../../src/server/store/redis';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const TOKEN_SECRET = `health-token-secret-${'h'.repeat(20)}`;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function companion(store: CheckoutStore) {
  const sandbox = createSandboxHandler({ secretKey: SANDBOX_TEST_KEY, basePath: '/sandbox' });
  const logged: string[] = [];
  const checkout = createCheckoutHandler({
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://sandbox.test/sandbox',
    tokenSecret: TOKEN_SECRET,
    resolveOrder: () => ({ amountMinor: 2_500_050, currency: 'NGN', description: 'Order' }),
    store,
    logger: {
      warn: (message, details) => logged.push(`${message} ${JSON.stringify(details ?? {})}`),
      error: (message, details) => logged.push(`${message} ${JSON.stringify(details ?? {})}`),
    },
    fetch: (input, init) => sandbox(new Request(input, init)),
  });
  cleanups.push(() => {
    checkout.close();
    sandbox.close();
  });
  const health = async (init: RequestInit = {}) => {
    const answer = await checkout(new Request('http://shop.test/api/checkout/health', init));
    return { answer, text: await answer.text() };
  };
  return { checkout, health, logged };
}

/** A memory store whose reads fail while `down` says so, as a driver's outage does. */
function flakyStore(down: () => boolean): CheckoutStore {
  const store = createMemoryStore();
  return {
    ...store,
    clear: () => store.clear(),
    close: () => store.close(),
    get: async (key) => {
      if (down()) throw new StoreUnavailableError('the store at 10.0.0.9 did not answer');
      return store.get(key);
    },
  } as CheckoutStore;
}

describe('GET /health', () => {
  it('answers 200 {"ok":true}, not cached, whatever the Origin, with nothing else in it', async () => {
    const { health } = companion(createMemoryStore());
    for (const headers of [{}, { origin: 'https://evil.example' }, { origin: 'null' }]) {
      const { answer, text } = await health({ headers });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(text).toBe('{"ok":true}');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    const head = await health({ method: 'HEAD' });
    expect(head.answer.status).toBe(200);
    expect(head.text).toBe('');
    const post = await health({ method: 'POST' });
    expect(post.answer.status).toBe(405);
    expect(post.answer.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 503 store_unavailable while the store does not answer, logs it once, and 200 once it does again', async () => {
    let down = false;
    const { health, logged } = companion(flakyStore(() => down));
    expect((await health()).answer.status).toBe(200);
    down = true;
    for (let probe = 0; probe < 3; probe++) {
      const { answer, text } = await health();
      expect(answer.status).toBe(503);
      expect(text).toBe('{"ok":false,"reason":"store_unavailable"}');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    // The operator learns why, once, not once a probe; the load balancer learns only the reason.
    expect(logged.filter((line) => line.includes('does not answer'))).toHaveLength(1);
    expect(logged.join('\n')).toContain('10.0.0.9');
    down = false;
    expect((await health()).text).toBe('{"ok":true}');
    expect(logged.filter((line) => line.includes('answers again'))).toHaveLength(1);
  });

  it('answers 503 shutting_down once the handler is closed, so a balancer drains it', async () => {
    const { checkout, health } = companion(createMemoryStore());
    checkout.close();
    const { answer, text } = await health();
    expect(answer.status).toBe(503);
    expect(text).toBe('{"ok":false,"reason":"shutting_down"}');
  });

  it.runIf(hasRedisServer())(
    'with Redis: 200 while redis-server runs, 503 store_unavailable once it is stopped',
    async () => {
      const redis: RunningRedis = await startRedis();
      cleanups.push(() => redis.stop());
      const store = createRedisStore({ url: redis.url, commandTimeoutMs: 500 });
      cleanups.push(() => store.close());
      const { health } = companion(store);
      expect((await health()).text).toBe('{"ok":true}');
      await redis.stop();
      const { answer, text } = await health();
      expect(answer.status).toBe(503);
      expect(text).toBe('{"ok":false,"reason":"store_unavailable"}');
      expect(text).not.toMatch(/redis|127\.0\.0\.1/i);
    },
  );
});
