// The provider's channel validation is asked once per currency and amount for a while, not once
// per `/session` (issue 20, item 2: 2,000 sessions cost 2,000 validations). The companion runs
// against the real sandbox handler in memory; every call it makes to the provider is counted.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelValidation, Money } from '../../../src/protocol';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import { createCheckoutHandler } from '../../../src/server';
import { createValidationCache } from '../../../src/server/checkout/validation-cache';

const ORDERS: Record<string, { amountMinor: number; currency: string; description: string }> = {
  order_1042: { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
  order_1043: { amountMinor: 2_500_050, currency: 'NGN', description: 'Same price, other order' },
  order_1044: { amountMinor: 4_999, currency: 'GBP', description: 'Merino scarf' },
};

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function rig(options: { validationCacheMs?: number; failValidations?: () => boolean } = {}) {
  const sandbox = createSandboxHandler({ secretKey: SANDBOX_TEST_KEY, basePath: '/sandbox' });
  // Starts at the real time: tokens are checked on the wall clock, issued on this one.
  let clock = Date.now();
  const calls: string[] = [];
  const checkout = createCheckoutHandler({
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://sandbox.test/sandbox',
    resolveOrder: (id) => ORDERS[id] ?? null,
    logger: { warn: () => {}, error: () => {} },
    now: () => clock,
    timeouts: { providerMs: 2000 },
    ...(options.validationCacheMs === undefined
      ? {}
      : { validationCacheMs: options.validationCacheMs }),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      calls.push(path);
      if (path.endsWith('/validate') && options.failValidations?.()) {
        return new Response('upstream down', { status: 503 });
      }
      return sandbox(request);
    },
  });
  closers.push(() => {
    checkout.close();
    sandbox.close();
  });
  const session = (order: string) =>
    checkout(
      new Request('http://shop.test/api/checkout/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ order }),
      }),
    );
  return {
    checkout,
    session,
    validations: () => calls.filter((path) => path.endsWith('/validate')).length,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('channel validation cache', () => {
  it('300 /session calls for one order cost at most 30 validations, and the customer still pays', async () => {
    const on = rig();
    // The attack: in bursts of 30 at once (single flight) and one after another, two minutes long.
    for (let burst = 0; burst < 10; burst++) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => on.session('order_1042')));
      for (const answer of answers) expect(answer.status).toBe(200);
      on.advance(12_000);
    }
    expect(on.validations()).toBeGreaterThanOrEqual(1);
    expect(on.validations()).toBeLessThanOrEqual(30);
    // Bursts at 0, 12 … 108 s with the 60 s default: the first ask and one refresh (at 60 s).
    expect(on.validations()).toBe(2);

    // The real customer: still offered the channels, and pays by transfer.
    const answer = await on.session('order_1042');
    const body = await answer.json();
    expect(body.checkout.channels.map((channel: { name: string }) => channel.name)).toContain(
      'PayByTransfer',
    );
    const initiated = await on.checkout(
      new Request('http://shop.test/api/checkout/initiate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${body.token}` },
        body: JSON.stringify({ channel: 'PayByTransfer' }),
      }),
    );
    expect(initiated.status, await initiated.clone().text()).toBe(200);
    expect((await initiated.json()).payment.virtualAccount.accountNumber).toMatch(/^\d{10}$/);
  });

  it('shares one answer between orders of the same amount, asks again for another amount or currency', async () => {
    const on = rig();
    expect((await on.session('order_1042')).status).toBe(200);
    expect((await on.session('order_1043')).status).toBe(200);
    expect(on.validations()).toBe(1);
    expect((await on.session('order_1044')).status).toBe(200);
    expect(on.validations()).toBe(2);
  });

  it('asks again once the cache time has passed (on the injected clock)', async () => {
    const on = rig({ validationCacheMs: 1000 });
    await on.session('order_1042');
    on.advance(999);
    await on.session('order_1042');
    expect(on.validations()).toBe(1);
    on.advance(1);
    await on.session('order_1042');
    expect(on.validations()).toBe(2);
  });

  it('validationCacheMs: 0 asks on every /session', async () => {
    const on = rig({ validationCacheMs: 0 });
    for (let index = 0; index < 3; index++) await on.session('order_1042');
    expect(on.validations()).toBe(3);
  });

  it('does not keep a failed validation: the next /session asks again and works', async () => {
    let failing = true;
    const on = rig({ failValidations: () => failing });
    const failed = await on.session('order_1042');
    expect(failed.status).toBe(502);
    expect((await failed.json()).error.code).toBe('unavailable');
    const before = on.validations();
    failing = false;
    expect((await on.session('order_1042')).status).toBe(200);
    expect((await on.session('order_1042')).status).toBe(200);
    // One more ask after the failure, then cached.
    expect(on.validations()).toBe(before + 1);
  });

  it('refuses a bad validationCacheMs at start-up', () => {
    for (const bad of [-1, 1.5, Number.NaN, 3_600_001, '60' as unknown as number]) {
      expect(() =>
        createCheckoutHandler({
          secretKey: SANDBOX_TEST_KEY,
          baseUrl: 'http://sandbox.test',
          resolveOrder: () => null,
          validationCacheMs: bad,
        }),
      ).toThrow(/validationCacheMs must be a whole number of ms from 0/);
    }
  });
});

describe('createValidationCache', () => {
  const offer: ChannelValidation = { isValid: true, channels: [] } as unknown as ChannelValidation;

  it('keeps at most maxEntries amounts, dropping the least recently used', async () => {
    const asked: string[] = [];
    const cache = createValidationCache(
      {
        validateChannels: async (amount: Money) => {
          asked.push(`${amount.currency}:${amount.amountMinor}`);
          return offer;
        },
      },
      () => 0,
      60_000,
      3,
    );
    const ngn = (amountMinor: number): Money => ({ amountMinor, currency: 'NGN' });
    for (const amount of [100, 200, 300]) await cache(ngn(amount));
    await cache(ngn(100)); // used again: now the most recent
    await cache(ngn(400)); // pushes out 200, the least recently used
    await cache(ngn(100));
    await cache(ngn(300));
    expect(asked).toEqual(['NGN:100', 'NGN:200', 'NGN:300', 'NGN:400']);
    await cache(ngn(200));
    expect(asked.at(-1)).toBe('NGN:200');
    expect(asked).toHaveLength(5);
  });
});
