// CORS only for the merchant's allowedOrigins, and a cross-site check on every state-changing
// call: a page on another site can neither read the checkout's answers nor start a payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CompanionRig,
  companionCall,
  recorder,
  startCompanion,
} from '../../helpers/companion';

const KEY = `sk_test_cors_${crypto.randomUUID().replaceAll('-', '')}`;
const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';

let rig: CompanionRig;
let paymentToken: string;
const seen: string[] = [];
const { call } = recorder(seen);

beforeAll(async () => {
  rig = await startCompanion({ allowedOrigins: [SHOP] }, { secretKey: KEY });
  const session = await companionCall(rig, 'POST', '/session', { body: { order: 'order-ngn:o0' } });
  const initiated = await companionCall(rig, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  paymentToken = initiated.body.token;
});

afterAll(async () => {
  await rig.close();
  expect(seen.filter((text) => text.includes(KEY))).toEqual([]);
  expect(rig.logLines.filter((line) => line.includes(KEY))).toEqual([]);
});

function preflight(path: string, origin: string, method = 'POST') {
  return call(rig, 'OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

function sandboxPaymentCount(): Promise<number> {
  return rig.sandbox
    .request('GET', '/__sandbox/payments')
    .then((response) => response.json())
    .then((body: { payments: unknown[] }) => body.payments.length);
}

describe('CORS', () => {
  it('answers a preflight from an allowed origin with 204 and the CORS headers', async () => {
    for (const path of ['/session', '/initiate', '/status', '/events']) {
      const answer = await preflight(path, SHOP);
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
      const allowed = answer.headers.get('access-control-allow-headers') ?? '';
      expect(allowed).toContain('authorization');
      expect(allowed).toContain('content-type');
      expect(answer.headers.get('vary')).toMatch(/origin/i);
      // No cookies ride along: the token is the credential.
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('refuses a preflight from another origin with 403 origin_not_allowed and no CORS headers', async () => {
    for (const origin of [EVIL, 'http://shop.example', 'https://shop.example:8443', 'null']) {
      const answer = await preflight('/session', origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.body.error.code).toBe('origin_not_allowed');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('lets an allowed origin read answers, errors included', async () => {
    const opened = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:o1' },
      headers: { origin: SHOP, 'sec-fetch-site': 'cross-site' },
    });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(opened.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const refused = await call(rig, 'POST', '/session', {
      body: { order: 'order-xyz:1' },
      headers: { origin: SHOP },
    });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('access-control-allow-origin')).toBe(SHOP);
    const status = await call(rig, 'GET', '/status', {
      token: paymentToken,
      headers: { origin: SHOP },
    });
    expect(status.status).toBe(200);
    expect(status.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('never gives CORS headers to a same-origin or origin-less caller it does not need them for', async () => {
    const same = await call(rig, 'GET', '/status', {
      token: paymentToken,
      headers: { origin: rig.origin },
    });
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('cross-site calls', () => {
  it('refuses POST /session from another site with 403 cross_site_request, before any provider call', async () => {
    const calls = rig.providerCalls.length;
    const answer = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:o2' },
      headers: { origin: EVIL },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('cross_site_request');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(rig.providerCalls.length).toBe(calls);
  });

  it('refuses every state-changing call from another site, even with a valid token', async () => {
    const before = await sandboxPaymentCount();
    const opened = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:o3' } });
    const calls = rig.providerCalls.length;
    for (const [path, body, token] of [
      ['/initiate', { channel: 'PayByTransfer' }, opened.body.token],
      ['/finalize', undefined, paymentToken],
      ['/authenticate', undefined, paymentToken],
    ] as const) {
      const answer = await call(rig, 'POST', path, {
        token,
        ...(body ? { body } : {}),
        headers: { origin: EVIL },
      });
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code).toBe('cross_site_request');
    }
    expect(rig.providerCalls.length).toBe(calls);
    expect(await sandboxPaymentCount()).toBe(before);
  });

  it('refuses reads from another site too: status and the event stream', async () => {
    for (const path of ['/status', '/events']) {
      const answer = await call(rig, 'GET', path, {
        token: paymentToken,
        headers: { origin: EVIL },
      });
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code).toBe('origin_not_allowed');
    }
  });

  it('refuses an opaque origin (a sandboxed frame or a file) on POST', async () => {
    const answer = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:o4' },
      headers: { origin: 'null' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('cross_site_request');
  });

  it('refuses a POST that says sec-fetch-site: cross-site without an Origin', async () => {
    const answer = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:o5' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('cross_site_request');
  });

  it('accepts the page on the companion’s own origin', async () => {
    const answer = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:o6' },
      headers: { origin: rig.origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status, answer.text).toBe(200);
  });

  it('accepts a server-to-server call with no Origin', async () => {
    const answer = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:o7' } });
    expect(answer.status).toBe(200);
  });

  it('does not apply the browser check to the provider’s webhooks', async () => {
    const answer = await call(rig, 'POST', '/webhooks', {
      body: { event: 'something.else', data: {} },
      headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status).toBe(200);
  });

  it('without allowedOrigins, even the shop’s origin is a foreign one', async () => {
    const bare = await startCompanion({}, { secretKey: KEY });
    try {
      const preflightAnswer = await companionCall(bare, 'OPTIONS', '/session', {
        headers: { origin: SHOP, 'access-control-request-method': 'POST' },
      });
      expect(preflightAnswer.status).toBe(403);
      expect(preflightAnswer.headers.get('access-control-allow-origin')).toBeNull();
      const answer = await companionCall(bare, 'POST', '/session', {
        body: { order: 'order-ngn:o8' },
        headers: { origin: SHOP },
      });
      seen.push(answer.text, preflightAnswer.text);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('cross_site_request');
    } finally {
      await bare.close();
    }
  });
});
