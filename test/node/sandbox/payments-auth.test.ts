/**
 * The sandbox's door, as a merchant's integration meets it: every payment operation and every
 * control wants the merchant's key in X-Api (and only this sandbox's key), a refusal never
 * echoes what was sent, the customer's pages need no key, and unknown paths and wrong methods
 * get 404 and 405 in the provider's envelope.
 */
import { describe, expect, it } from 'vitest';
import {
  BANK_INITIATION,
  call,
  cardInitiation,
  type Sandbox,
  sandboxPerTest,
  TRANSFER_INITIATION,
} from '../../helpers/sandbox';

const KEY = 'sk_test_merchant_one_5b1f0c';
const OTHER_KEY = 'sk_test_merchant_two_77ad2e';

const sandbox = sandboxPerTest({ secretKey: KEY });
const other = sandboxPerTest({ secretKey: OTHER_KEY });

async function paymentsIn(target: Sandbox) {
  const answer = await call(target, 'GET', '/__sandbox/payments');
  expect(answer.status).toBe(200);
  return answer.body.payments as Array<Record<string, unknown>>;
}

async function initiate(body: unknown): Promise<string> {
  const answer = await call(sandbox, 'POST', '/api/payment/pay/initiate', body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value.paymentItem.paymentReference as string;
}

/** The payment operations, each with a body that would succeed with the right key. */
const OPERATIONS: ReadonlyArray<readonly [string, string, unknown]> = [
  ['POST', '/api/payment/pay/validate', { amount: { currencyCode: 'NGN', amount: 2500.5 } }],
  ['POST', '/api/payment/pay/initiate', TRANSFER_INITIATION],
  [
    'POST',
    '/api/payment/payment-link',
    { name: 'Invoice 7', linkType: 0, amountType: 1, currencyCode: 'NGN' },
  ],
  ['POST', '/api/payment/pay/finalize', { paymentReference: 'PAY_UNKNOWN' }],
  ['GET', '/api/payment/pay/status/PAY_UNKNOWN', undefined],
  ['GET', '/api/payment/pay/authenticate/PAY_UNKNOWN', undefined],
];

/** Keys that must all be refused: none, wrong, another sandbox's, near misses. */
const BAD_KEYS: ReadonlyArray<readonly [string, string | null]> = [
  ['no X-Api header', null],
  ['an empty key', ''],
  ['a wrong key', 'sk_test_wrong_key_123456'],
  ["another sandbox's key", OTHER_KEY],
  ['the key without its last character', KEY.slice(0, -1)],
  ['the key with one character more', `${KEY}0`],
  ['the key in upper case', KEY.toUpperCase()],
];

describe('X-Api on the payment operations', () => {
  for (const [label, key] of BAD_KEYS) {
    it(`refuses ${label} with 401, an envelope that does not echo the key, and no change`, async () => {
      for (const [method, path, body] of OPERATIONS) {
        const answer = await call(sandbox, method, path, body, { key });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(answer.body.isSuccess).toBe(false);
        expect(typeof answer.body.message).toBe('string');
        expect(answer.body.message.length).toBeGreaterThan(0);
        if (key) {
          expect(answer.text).not.toContain(key);
          expect(JSON.stringify([...answer.headers])).not.toContain(key);
        }
        // Nor does it leak the right key.
        expect(answer.text).not.toContain(KEY);
      }
      expect(await paymentsIn(sandbox)).toEqual([]);
    });
  }

  it('accepts the right key on the same calls', async () => {
    const validate = await call(sandbox, 'POST', '/api/payment/pay/validate', {
      amount: { currencyCode: 'NGN', amount: 2500.5 },
    });
    expect(validate.status).toBe(200);
    expect(validate.body.isSuccess).toBe(true);
    await initiate(TRANSFER_INITIATION);
    expect(await paymentsIn(sandbox)).toHaveLength(1);
  });

  it("does not let one sandbox's key into the other, in either direction", async () => {
    const intoOther = await call(other, 'POST', '/api/payment/pay/initiate', TRANSFER_INITIATION, {
      key: KEY,
    });
    expect(intoOther.status).toBe(401);
    expect(intoOther.text).not.toContain(KEY);
    const own = await call(other, 'POST', '/api/payment/pay/initiate', TRANSFER_INITIATION);
    expect(own.status).toBe(200);
    // Two sandboxes share nothing: the payment made in `other` is unknown here.
    const reference = own.body.value.paymentItem.paymentReference as string;
    const here = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
    expect(here.status).toBe(404);
    expect(await paymentsIn(sandbox)).toEqual([]);
  });
});

describe('X-Api on the controls', () => {
  const CONTROLS: ReadonlyArray<readonly [string, string, unknown]> = [
    ['GET', '/__sandbox/config', undefined],
    ['POST', '/__sandbox/config', { webhookUrl: 'http://127.0.0.1:9/hook' }],
    ['GET', '/__sandbox/payments', undefined],
    ['GET', '/__sandbox/webhooks', undefined],
    ['POST', '/__sandbox/clock', { advanceSeconds: 1801 }],
    ['POST', '/__sandbox/reset', undefined],
  ];

  for (const [label, key] of [
    ['no key', null],
    ['a wrong key', 'sk_test_wrong_key_123456'],
    ["another sandbox's key", OTHER_KEY],
  ] as const) {
    it(`refuses ${label} on every control with 401, and nothing moves`, async () => {
      const reference = await initiate(TRANSFER_INITIATION);
      for (const [method, path, body] of [
        ...CONTROLS,
        ['POST', `/__sandbox/payments/${reference}/transfer`, {}] as const,
      ]) {
        const answer = await call(sandbox, method, path, body, { key });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.isSuccess).toBe(false);
        if (key) expect(answer.text).not.toContain(key);
        expect(answer.text).not.toContain(KEY);
      }
      // No transfer went through, the clock did not expire the account, reset did not wipe it,
      // and the webhook URL was not changed.
      const [payment] = await paymentsIn(sandbox);
      expect(payment?.reference).toBe(reference);
      expect(payment?.status).toBe('PENDING');
      const config = await call(sandbox, 'GET', '/__sandbox/config');
      expect(config.body.webhookUrl).toBeNull();
    });
  }

  it('does what it says with the key', async () => {
    const reference = await initiate(TRANSFER_INITIATION);
    const transfer = await call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`, {});
    expect(transfer.status).toBe(200);
    expect((await paymentsIn(sandbox))[0]?.status).toBe('SUCCESSFUL');
  });
});

describe('the pages a customer opens need no key', () => {
  it('serves the bank page and takes the decision without X-Api', async () => {
    const answer = await call(sandbox, 'POST', '/api/payment/pay/initiate', BANK_INITIATION);
    const authUrl = answer.body.value.paymentItem.metaData.AuthUrl as string;
    const page = await fetch(authUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const decision = await fetch(authUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    expect(decision.status).toBe(303);
  });

  it('serves the link page and the challenge result without X-Api', async () => {
    const link = await call(sandbox, 'POST', '/api/payment/payment-link', {
      name: 'Invoice 7',
      linkType: 0,
      amountType: 1,
      currencyCode: 'NGN',
    });
    const page = await fetch(link.body.value.link as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Invoice 7');

    const reference = await initiate(cardInitiation('4000000000003220'));
    await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
    const result = await fetch(`${sandbox.url}/pages/challenge/${reference}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'code=123456',
    });
    expect(result.status).toBe(200);
    expect(await result.text()).toContain('challenge.completed');
  });
});

describe('unknown paths and wrong methods', () => {
  for (const [method, path] of [
    ['GET', '/'],
    ['GET', '/api/payment/pay'],
    ['POST', '/api/payment/pay/initiate/extra'],
    ['POST', '/api/payment/pay/refund'],
    ['GET', '/api/payment/pay/status/'],
    ['GET', '/api/payment/pay/status/PAY_A/extra'],
    ['GET', '/__sandbox/nothing'],
    ['POST', '/__sandbox/payments/PAY_UNKNOWN/refund'],
  ] as const) {
    it(`answers 404 to ${method} ${path}`, async () => {
      const answer = await call(sandbox, method, path, method === 'POST' ? {} : undefined);
      expect(answer.status).toBe(404);
      expect(answer.body?.isSuccess).toBe(false);
    });
  }

  for (const [method, path] of [
    ['GET', '/api/payment/pay/initiate'],
    ['GET', '/api/payment/pay/validate'],
    ['GET', '/api/payment/pay/finalize'],
    ['GET', '/api/payment/payment-link'],
    ['PUT', '/api/payment/pay/initiate'],
    ['DELETE', '/api/payment/payment-link'],
    ['POST', '/api/payment/pay/status/PAY_A'],
    ['POST', '/api/payment/pay/authenticate/PAY_A'],
    ['GET', '/__sandbox/clock'],
  ] as const) {
    it(`answers 405 to ${method} ${path}`, async () => {
      const body = method === 'GET' ? undefined : TRANSFER_INITIATION;
      const answer = await call(sandbox, method, path, body);
      expect(answer.status).toBe(405);
      expect(answer.body?.isSuccess).toBe(false);
      expect(await paymentsIn(sandbox)).toEqual([]);
    });
  }
});
