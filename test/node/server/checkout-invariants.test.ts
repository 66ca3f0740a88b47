// The invariants of DESIGN.md that the companion carries, each with a test that fails if it
// breaks: the key stays on the server, the amount is the merchant's, a checkout reaches only its
// own payment, the provider's back office is unreachable, and provider internals stay inside.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CompanionRig,
  control,
  recorder,
  startCompanion,
  webhooksSettled,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

let rig: CompanionRig | undefined;
const seen: string[] = [];
const { call, begin } = recorder(seen);

afterEach(async () => {
  await rig?.close();
  rig = undefined;
  seen.length = 0;
});

function newKey(): string {
  return `sk_test_inv_${crypto.randomUUID().replaceAll('-', '')}`;
}

async function start(
  overrides: Parameters<typeof startCompanion>[0] = {},
  key = newKey(),
): Promise<CompanionRig> {
  rig = await startCompanion(overrides, { secretKey: key });
  return rig;
}

async function fetchText(url: string | URL, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  seen.push(text, JSON.stringify([...response.headers]));
  return { status: response.status, headers: response.headers, text };
}

function decodePayload(token: string): Record<string, unknown> {
  const [payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** The same token with its claims changed and the original signature kept. */
function tamper(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [, signature] = token.split('.');
  const claims = decodePayload(token);
  change(claims);
  return `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

async function readSse(url: string, ms: number): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Aborted: the read window is over.
  } finally {
    clearTimeout(timer);
  }
  seen.push(text);
  return text;
}

function expectKeyNowhere(on: CompanionRig, key: string): void {
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((text) => text.includes(key))).toEqual([]);
  expect(on.logLines.filter((line) => line.includes(key))).toEqual([]);
}

describe('the secret key exists only on the server', () => {
  it('is in no answer, header, page, stream or log line across every operation and fault', async () => {
    const key = newKey();
    // A provider call times out after 1.5 s: the status faults below outlast it, and the ordinary
    // calls before them stay well inside it on a loaded machine (300 ms failed there).
    const on = await start({ timeouts: { providerMs: 1500 } }, key);
    // Every operation, each channel.
    const transfer = await begin(on, 'order-ngn:k1', 'PayByTransfer');
    expect(JSON.stringify(decodePayload(transfer.token))).not.toContain(key);
    await call(on, 'GET', '/status', { token: transfer.token });
    await call(on, 'POST', '/finalize', { token: transfer.token });
    const bank = await begin(on, 'order-gbp:k1', 'PayByAccount');
    const challenged = await begin(on, 'order-usd:k1', 'Card', {
      card: testCard('4000000000003220'),
    });
    const auth = await call(on, 'POST', '/authenticate', { token: challenged.token });
    const page = await fetchText(auth.body.challengeUrl);
    const frameSrc = page.text.match(/src="([^"]+\/challenge\/frame[^"]+)"/)?.[1] ?? '';
    await fetchText(frameSrc.replaceAll('&amp;', '&'));
    await fetchText(`${on.url}/return?reference=${bank.reference}`);
    await fetchText(`${on.url}/assets/return.js`);
    await fetchText(`${on.url}/assets/challenge.js`);
    // Faults on every provider operation the browser can reach.
    await control(on, 'POST', '/__sandbox/config', {
      faults: [
        { endpoint: 'validate', steps: [{ type: 'error', status: 500 }] },
        { endpoint: 'initiate', steps: [{ type: 'error', status: 503 }, { type: 'drop' }] },
        { endpoint: 'authenticate', steps: [{ type: 'malformed' }] },
        { endpoint: 'finalize', steps: [{ type: 'lostResponse' }] },
        {
          endpoint: 'status',
          steps: [
            { type: 'latency', ms: 1800 },
            { type: 'latency', ms: 1800 },
            { type: 'latency', ms: 1800 },
            { type: 'rateLimit', retryAfterSeconds: 0 },
            { type: 'malformed' },
          ],
        },
      ],
    });
    await call(on, 'POST', '/session', { body: { order: 'order-ngn:k2' } });
    const failing = await call(on, 'POST', '/session', { body: { order: 'order-ngn:k3' } });
    for (let index = 0; index < 2; index++) {
      await call(on, 'POST', '/initiate', {
        token: failing.body.token,
        body: { channel: 'PayByTransfer' },
      });
    }
    const cardPayment = await begin(on, 'order-usd:k2', 'Card', {
      card: testCard('4242424242424242'),
    });
    await call(on, 'POST', '/authenticate', { token: cardPayment.token });
    await call(on, 'POST', '/authenticate', { token: cardPayment.token });
    await call(on, 'POST', '/finalize', { token: cardPayment.token });
    await call(on, 'GET', '/status', { token: transfer.token });
    await call(on, 'GET', '/status', { token: bank.token });
    // Bad tokens, bad input, webhooks.
    await call(on, 'GET', '/status', { token: 'garbage' });
    await call(on, 'GET', '/status', { token: tamper(transfer.token, (c) => (c.amountMinor = 1)) });
    await call(on, 'POST', '/session', { rawBody: '{"order":' });
    await call(on, 'POST', '/webhooks', { rawBody: 'not json' });
    await control(on, 'POST', `/__sandbox/payments/${transfer.reference}/transfer`);
    await webhooksSettled(on);
    await readSse(`${on.url}/events?token=${encodeURIComponent(transfer.token)}`, 150);
    expect(on.logLines.length).toBeGreaterThan(0);
    expectKeyNowhere(on, key);
  });

  it('is redacted from the log even when the merchant’s own lookup quotes it in an error', async () => {
    const key = newKey();
    const on = await start(
      {
        resolveOrder: () => {
          throw new Error(`database refused: ${key}`);
        },
      },
      key,
    );
    const answer = await call(on, 'POST', '/session', { body: { order: 'order-ngn:k4' } });
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal');
    expect(on.logLines.some((line) => line.includes('database refused: [redacted]'))).toBe(true);
    expectKeyNowhere(on, key);
  });

  it('is in no answer or log when the provider quotes it back in an error', async () => {
    const key = newKey();
    const echoing: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.startsWith('/api/payment/pay/status/')) {
        const message = `Key ${key} is suspended`;
        return new Response(JSON.stringify({ isSuccess: false, status: 403, message }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fetch(input, init);
    };
    const on = await start({ fetch: echoing }, key);
    const { token } = await begin(on, 'order-ngn:k5', 'PayByTransfer');
    const answer = await call(on, 'GET', '/status', { token });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expectKeyNowhere(on, key);
  });

  it('a companion with a wrong key answers 502 without revealing either key', async () => {
    const wrong = newKey();
    rig = await startCompanion({ secretKey: wrong }, { secretKey: newKey() });
    const answer = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:k6' } });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('unavailable');
    expectKeyNowhere(rig, wrong);
    expectKeyNowhere(rig, rig.sandbox.secretKey);
  });
});

describe('the amount is the one the merchant decided', () => {
  it('ignores an amount, currency or reference the browser sends', async () => {
    const on = await start();
    const session = await call(on, 'POST', '/session', {
      body: { order: 'order-ngn:m1', amount: 1, amountMinor: 100, currency: 'USD' },
    });
    expect(session.status).toBe(200);
    expect(session.body.checkout.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
    const initiated = await call(on, 'POST', '/initiate', {
      token: session.body.token,
      body: {
        channel: 'PayByTransfer',
        amount: 1,
        amountMinor: 100,
        currency: 'USD',
        reference: 'mine',
        fees: 0,
      },
    });
    expect(initiated.status).toBe(200);
    expect(initiated.body.payment.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
    const { payments } = await control(on, 'GET', '/__sandbox/payments');
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      reference: initiated.body.payment.reference,
      amount: 25_000.5,
      amountMinor: 2_500_050,
      currency: 'NGN',
    });
  });

  it('refuses a token whose amount was changed, with 401 and no provider call', async () => {
    const on = await start();
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m2' } });
    expect(decodePayload(session.body.token)).toMatchObject({
      amountMinor: 2_500_050,
      currency: 'NGN',
    });
    const calls = on.providerCalls.length;
    for (const change of [
      (c: Record<string, unknown>) => (c.amountMinor = 100),
      (c: Record<string, unknown>) => (c.currency = 'USD'),
      (c: Record<string, unknown>) => (c.orderId = 'order-usd:m2'),
    ]) {
      const answer = await call(on, 'POST', '/initiate', {
        token: tamper(session.body.token, change),
        body: { channel: 'PayByTransfer' },
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    }
    expect(on.providerCalls.length).toBe(calls);
    expect((await control(on, 'GET', '/__sandbox/payments')).payments).toEqual([]);
  });

  it('tells the merchant when the provider reports another amount than the one decided', async () => {
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!new URL(String(input)).pathname.startsWith('/api/payment/pay/status/')) return response;
      const json = await response.json();
      json.value.amount.amount = 1;
      return new Response(JSON.stringify(json), {
        status: response.status,
        headers: { 'content-type': 'application/json' },
      });
    };
    const on = await start({ fetch: lying });
    const { reference } = await begin(on, 'order-ngn:m3', 'PayByTransfer');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([
      {
        reference,
        status: 'SUCCESSFUL',
        amount: { amountMinor: 100, currency: 'NGN' },
        amountMatches: false,
      },
    ]);
    expect(on.logLines.some((line) => line.includes('different amount'))).toBe(true);
  });
});

describe('a checkout reaches only its own payment', () => {
  it('token A reports A, a token forged for B is refused everywhere, B’s outcome is not A’s', async () => {
    const on = await start();
    const a = await begin(on, 'order-ngn:r1', 'PayByTransfer');
    const b = await begin(on, 'order-ngn:r2', 'Card', { card: testCard('4000000000003220') });
    expect(a.reference).not.toBe(b.reference);
    const status = await call(on, 'GET', '/status', { token: a.token });
    expect(status.body).toMatchObject({ reference: a.reference, status: 'PENDING' });

    // Re-encoding without a change keeps a working token: the refusals below are for the change.
    const untouched = await call(on, 'GET', '/status', { token: tamper(a.token, () => {}) });
    expect(untouched.body).toMatchObject({ reference: a.reference, status: 'PENDING' });

    const forged = tamper(a.token, (claims) => {
      claims.reference = b.reference;
      claims.orderId = 'order-ngn:r2';
      claims.channel = 'Card';
    });
    const calls = on.providerCalls.length;
    for (const [method, path] of [
      ['GET', '/status'],
      ['POST', '/finalize'],
      ['POST', '/authenticate'],
      ['GET', '/events'],
      ['GET', '/challenge'],
      ['GET', '/challenge/frame'],
    ] as const) {
      const answer = await call(on, method, path, { token: forged });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
      const inQuery = await fetchText(`${on.url}${path}?token=${encodeURIComponent(forged)}`, {
        method,
      });
      expect(inQuery.status, `${method} ${path}?token=`).toBe(401);
    }
    expect(on.providerCalls.length).toBe(calls);

    // B's challenge is not reachable with A's token: A has none.
    await call(on, 'POST', '/authenticate', { token: b.token });
    const challengeOfA = await fetchText(
      `${on.url}/challenge?token=${encodeURIComponent(a.token)}`,
    );
    expect(challengeOfA.status).toBe(404);
    expect(challengeOfA.text).not.toContain(b.reference);

    // B fails; A's stream and status know nothing of it.
    await fetch(`${on.sandbox.url}/pages/challenge/${b.reference}`, {
      method: 'POST',
      body: new URLSearchParams({ code: '000000' }),
    });
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([{ reference: b.reference, status: 'FAILED' }]);
    const streamA = await readSse(`${on.url}/events?token=${encodeURIComponent(a.token)}`, 150);
    expect(streamA).not.toContain('event: status');
    expect(streamA).not.toContain(b.reference);
    expect((await call(on, 'GET', '/status', { token: a.token })).body).toMatchObject({
      reference: a.reference,
      status: 'PENDING',
    });
  });
});

describe('the browser cannot reach payouts, links, the list or any provider path', () => {
  const PROVIDER_PATHS = [
    '/payout/Disbursement/Payout/FundTransfer',
    '/payout/Disbursement/Payout/PaymentMethods',
    '/api/payment/payment-link',
    '/v1/api/transactions',
    '/v1/api/transactions?page=1&perPage=100',
    '/api/payment/pay/initiate',
    '/api/payment/pay/validate',
    '/api/payment/pay/finalize',
    '/api/payment/pay/status/PAY_1',
    '/__sandbox/reset',
    '/__sandbox/config',
    '/__sandbox/payments',
  ];

  /** A raw request, so that the path reaches the server exactly as written. */
  function raw(
    on: CompanionRig,
    method: string,
    path: string,
  ): Promise<{ status: number; text: string }> {
    const base = new URL(on.url);
    const body = method === 'GET' ? '' : '{"amount":"100"}';
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-api': 'guess',
          },
        },
        (incoming) => {
          let text = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => (text += chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  it('answers 404 or 405 under the base path and makes no provider call, path tricks included', async () => {
    const on = await start();
    const { reference } = await begin(on, 'order-ngn:p1', 'PayByTransfer');
    const calls = on.providerCalls.length;
    const sandboxPort = new URL(on.sandbox.url).port;
    const tricks = [
      ...PROVIDER_PATHS.map((path) => `/api/checkout${path}`),
      '/api/checkout/..%2f..%2fpayout/Disbursement/Payout/FundTransfer',
      '/api/checkout/..%2F..%2Fv1/api/transactions',
      '/api/checkout/%2e%2e/%2e%2e/__sandbox/reset',
      '/api/checkout/../../__sandbox/reset',
      '/api/checkout/session/../../../api/payment/pay/initiate',
      '/api/checkout//payout/Disbursement/Payout/FundTransfer',
      '/api/checkout/%2fpayout%2fDisbursement%2fPayout%2fFundTransfer',
      '/api/checkout/webhooks/..%2f..%2f__sandbox/reset',
      '/api/checkout/status/..%2f..%2f..%2fapi/payment/payment-link',
      '/api/checkout-admin/payout/Disbursement/Payout/FundTransfer',
      '/api/checkout/;/__sandbox/reset',
      '/api/checkout/session%00/../../__sandbox/reset',
      `http://127.0.0.1:${sandboxPort}/__sandbox/reset`,
      `http://127.0.0.1:${sandboxPort}/payout/Disbursement/Payout/FundTransfer`,
    ];
    for (const path of tricks) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const answer = await raw(on, method, path);
        seen.push(answer.text);
        expect([404, 405], `${method} ${path}: ${answer.text}`).toContain(answer.status);
      }
    }
    // The same through fetch, as a browser would send them.
    for (const path of PROVIDER_PATHS) {
      const get = await fetchText(`${on.url}${path}`);
      expect(get.status, path).toBe(404);
      const post = await fetchText(`${on.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(post.status, path).toBe(404);
      expect(JSON.parse(post.text).error.code).toBe('not_found');
    }
    expect(on.providerCalls.slice(calls)).toEqual([]);
    // Nothing was reset or paid out behind the scenes.
    expect((await control(on, 'GET', '/__sandbox/payments')).payments).toMatchObject([
      { reference },
    ]);
    expect((await control(on, 'GET', '/__sandbox/payouts')).payouts).toEqual([]);
  });
});

describe('provider internals never reach the browser', () => {
  it('answers carry only the checkout’s own fields', async () => {
    const on = await start();
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:i1' } });
    expect(Object.keys(session.body).sort()).toEqual(['checkout', 'payment', 'token']);
    expect(Object.keys(session.body.checkout).sort()).toEqual([
      'amount',
      'cardEntry',
      'channels',
      'description',
    ]);
    for (const channel of session.body.checkout.channels) {
      expect(Object.keys(channel).sort()).toEqual(['description', 'name']);
    }
    const initiated = await call(on, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(Object.keys(initiated.body).sort()).toEqual(['payment', 'paymentKey', 'token']);
    expect(Object.keys(initiated.body.payment).sort()).toEqual([
      'amount',
      'bankAuthUrl',
      'channel',
      'fees',
      'reference',
      'serverTime',
      'status',
      'virtualAccount',
    ]);
    expect(Object.keys(initiated.body.payment.virtualAccount).sort()).toEqual([
      'accountName',
      'accountNumber',
      'bank',
      'expiresAt',
      'note',
    ]);
    // Nothing of the provider's envelope or messages.
    for (const word of ['isSuccess', 'responseCode', 'paymentItem', 'Transfer the amount']) {
      expect(initiated.text).not.toContain(word);
    }
    const status = await call(on, 'GET', '/status', { token: initiated.body.token });
    expect(Object.keys(status.body).sort()).toEqual(['reference', 'serverTime', 'status']);
  });

  it('a provider failure reaches the browser as a code, never the provider’s text or address', async () => {
    const on = await start();
    const { token } = await begin(on, 'order-ngn:i2', 'PayByTransfer');
    await control(on, 'POST', '/__sandbox/config', {
      faults: [
        { endpoint: 'status', steps: [{ type: 'malformed' }] },
        { endpoint: 'finalize', steps: [{ type: 'error', status: 500 }] },
      ],
    });
    for (const [method, path] of [
      ['GET', '/status'],
      ['POST', '/finalize'],
    ] as const) {
      const answer = await call(on, method, path, { token });
      expect(answer.status).toBe(502);
      expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'message', 'requestId']);
      expect(answer.body.error.code).toBe('unavailable');
      expect(answer.body.error.requestId).toBe(answer.headers.get('x-request-id'));
      for (const leak of ['Injected', 'REQUI', on.sandbox.url, '/api/payment', 'X-Api']) {
        expect(answer.text).not.toContain(leak);
      }
    }
  });

  it('refuses a bank link from the provider that is not https (or http on this machine)', async () => {
    for (const evil of ['javascript:alert(document.cookie)', 'http://bank.evil.example/auth']) {
      const rewriting: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (new URL(String(input)).pathname !== '/api/payment/pay/initiate') return response;
        const json = await response.json();
        json.value.bankAuthURL = evil;
        json.value.paymentItem.metaData.AuthUrl = evil;
        return new Response(JSON.stringify(json), {
          status: response.status,
          headers: { 'content-type': 'application/json' },
        });
      };
      const on = await start({ fetch: rewriting });
      const session = await call(on, 'POST', '/session', { body: { order: 'order-gbp:i3' } });
      const answer = await call(on, 'POST', '/initiate', {
        token: session.body.token,
        body: { channel: 'PayByAccount' },
      });
      expect(answer.status, evil).toBe(502);
      expect(answer.body.error.code).toBe('unavailable');
      expect(answer.text).not.toContain(evil);
      await on.close();
      rig = undefined;
    }
  });
});
