// Bad input from the browser: each gets a clear 4xx with a stable code, never a 5xx, and the
// companion calls the provider for none of them. Unknown extra fields are dropped, not refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutClaims, createTokenSigner } from '../../../src/server/checkout/token';
import { type CompanionRig, companionCall, startCompanion } from '../../helpers/companion';

const KEY = `sk_test_bad_${crypto.randomUUID().replaceAll('-', '')}`;
const TOKEN_SECRET = `token-secret-${crypto.randomUUID()}`;
const YEAR = new Date().getUTCFullYear() + 2;

let rig: CompanionRig;
/** A token from /session alone: it may initiate, nothing else. */
let sessionToken: string;
let expiredToken: string;
let foreignToken: string;
const seen: string[] = [];

beforeAll(async () => {
  rig = await startCompanion({ tokenSecret: TOKEN_SECRET }, { secretKey: KEY });
  const session = await companionCall(rig, 'POST', '/session', { body: { order: 'order-ngn:b1' } });
  expect(session.status).toBe(200);
  sessionToken = session.body.token;
  const claims = JSON.parse(
    Buffer.from(sessionToken.split('.')[0] ?? '', 'base64url').toString('utf8'),
  ) as CheckoutClaims;
  const now = Math.floor(Date.now() / 1000);
  expiredToken = await createTokenSigner(TOKEN_SECRET).sign({ ...claims, exp: now - 1 });
  foreignToken = await createTokenSigner('another merchant’s secret').sign({
    ...claims,
    exp: now + 3600,
  });
});

afterAll(async () => {
  await rig.close();
  expect(seen.filter((text) => text.includes(KEY))).toEqual([]);
  expect(rig.logLines.filter((line) => line.includes(KEY))).toEqual([]);
});

type Token = 'session' | 'expired' | 'foreign' | 'tampered' | (string & {});

interface BadInput {
  readonly name: string;
  readonly method?: string;
  readonly path: string;
  /** JSON-encoded unless `raw` is given. */
  readonly body?: unknown;
  readonly raw?: BodyInit;
  readonly headers?: Record<string, string>;
  readonly token?: Token;
  readonly status: number;
  readonly code: string;
  /** A text the `issues` must name, so the error says what is wrong. */
  readonly issue?: string;
}

function card(overrides: Record<string, unknown> = {}) {
  return {
    number: '4242424242424242',
    expiryMonth: 12,
    expiryYear: YEAR,
    cvv: '123',
    holderName: 'Ada Obi',
    ...overrides,
  };
}

const session = (body: unknown, extra: Partial<BadInput> = {}) => ({
  path: '/session',
  body,
  ...extra,
});
const initiate = (body: unknown, extra: Partial<BadInput> = {}) => ({
  path: '/initiate',
  body,
  token: 'session' as Token,
  ...extra,
});
/** A card as the card frame sends it (issue 19): POST /card from its opaque origin. */
const cardPost = (body: unknown, extra: Partial<BadInput> = {}) => ({
  path: '/card',
  body,
  token: 'session' as Token,
  headers: { origin: 'null' },
  ...extra,
});
const invalid = { status: 400, code: 'invalid_request' } as const;
const unauthorized = { status: 401, code: 'unauthorized' } as const;
const notInitiated = { status: 409, code: 'not_initiated', token: 'session' as Token } as const;
const big = 'x'.repeat(9 * 1024);

const CASES: BadInput[] = [
  // The envelope: media type, JSON, size, shape.
  {
    name: 'text/plain body',
    ...session({ order: 'order-ngn:1' }),
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'form post (a cross-site form)',
    path: '/session',
    raw: new URLSearchParams({ order: 'order-ngn:1' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'no content type',
    path: '/session',
    raw: new Blob(['{"order":"order-ngn:1"}']),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'application/jsonp',
    ...session({ order: 'order-ngn:1' }),
    headers: { 'content-type': 'application/jsonp' },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'truncated JSON',
    path: '/session',
    raw: '{"order":',
    headers: { 'content-type': 'application/json' },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'empty body',
    path: '/session',
    raw: '',
    headers: { 'content-type': 'application/json' },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'JSON with a trailing comma',
    path: '/session',
    raw: '{"order":"order-ngn:1",}',
    headers: { 'content-type': 'application/json' },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'body over 8 KB',
    ...session({ order: 'order-ngn:1', padding: big }),
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'body over 8 KB, streamed without a length',
    path: '/session',
    raw: new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"order":"order-ngn:1","p":"${big}"}`));
        controller.close();
      },
    }),
    headers: { 'content-type': 'application/json' },
    status: 413,
    code: 'body_too_large',
  },
  { name: 'array body', ...session([]), ...invalid },
  { name: 'string body', ...session('order-ngn:1'), ...invalid },
  { name: 'null body', ...session(null), ...invalid },
  { name: 'number body', ...session(42), ...invalid },
  // Session.
  { name: 'neither order nor link', ...session({}), ...invalid, issue: 'either' },
  {
    name: 'both order and link',
    ...session({ order: 'order-ngn:1', link: 'sale' }),
    ...invalid,
    issue: 'not both',
  },
  { name: 'empty order', ...session({ order: '' }), ...invalid, issue: 'order' },
  { name: 'blank order', ...session({ order: '   ' }), ...invalid, issue: 'order' },
  {
    name: 'order id too long',
    ...session({ order: `order-ngn:${'9'.repeat(120)}` }),
    ...invalid,
    issue: 'order',
  },
  { name: 'order id with a slash', ...session({ order: 'order-ngn/1' }), ...invalid },
  { name: 'order id with markup', ...session({ order: '<script>' }), ...invalid },
  { name: 'order id with non-ASCII', ...session({ order: 'order-ngn:ß' }), ...invalid },
  { name: 'order id as a number', ...session({ order: 42 }), ...invalid, issue: 'order' },
  { name: 'order id as an object', ...session({ order: { id: 'order-ngn:1' } }), ...invalid },
  {
    name: 'order smuggled through __proto__',
    path: '/session',
    raw: '{"__proto__":{"order":"order-ngn:1"}}',
    headers: { 'content-type': 'application/json' },
    ...invalid,
  },
  {
    name: 'unknown order',
    ...session({ order: 'order-xyz:1' }),
    status: 404,
    code: 'order_not_found',
  },
  {
    name: 'link without resolveLink',
    ...session({ link: 'spring-sale' }),
    status: 400,
    code: 'link_not_supported',
  },
  { name: 'link alias too long', ...session({ link: 'l'.repeat(65) }), ...invalid },
  // The token.
  {
    name: 'initiate without a token',
    ...initiate({ channel: 'PayByTransfer' }),
    token: '',
    ...unauthorized,
  },
  {
    name: 'garbage token',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'abc',
    ...unauthorized,
  },
  {
    name: 'token of three parts',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'a.b.c',
    ...unauthorized,
  },
  {
    name: 'token with bad base64',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'e30.!!!',
    ...unauthorized,
  },
  {
    name: 'token 5000 characters long',
    ...initiate({ channel: 'PayByTransfer' }),
    token: `${'a'.repeat(4990)}.abc`,
    ...unauthorized,
  },
  {
    name: 'expired token',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'expired',
    ...unauthorized,
  },
  {
    name: 'token of another secret',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'foreign',
    ...unauthorized,
  },
  {
    name: 'token with a changed amount',
    ...initiate({ channel: 'PayByTransfer' }),
    token: 'tampered',
    ...unauthorized,
  },
  {
    name: 'Basic instead of Bearer',
    ...initiate({ channel: 'PayByTransfer' }),
    token: '',
    headers: { authorization: 'Basic dXNlcjpwYXNz' },
    ...unauthorized,
  },
  // Initiation.
  { name: 'unknown channel', ...initiate({ channel: 'Bitcoin' }), ...invalid, issue: 'channel' },
  { name: 'channel missing', ...initiate({}), ...invalid, issue: 'channel' },
  { name: 'channel in the wrong case', ...initiate({ channel: 'card' }), ...invalid },
  { name: 'Card without card', ...initiate({ channel: 'Card' }), ...invalid, issue: 'card' },
  {
    name: 'card for a transfer',
    ...initiate({ channel: 'PayByTransfer', card: card() }),
    ...invalid,
    issue: 'card',
  },
  {
    name: 'card number failing Luhn',
    ...cardPost({ card: card({ number: '4242424242424241' }) }),
    ...invalid,
    issue: 'card.number',
  },
  {
    name: 'card number with letters',
    ...cardPost({ card: card({ number: '4242abcd42424242' }) }),
    ...invalid,
    issue: 'card.number',
  },
  {
    name: 'card number too short',
    ...cardPost({ card: card({ number: '42424242424' }) }),
    ...invalid,
    issue: 'card.number',
  },
  {
    name: 'card number as a number',
    ...cardPost({ card: card({ number: 4242424242424242 }) }),
    ...invalid,
    issue: 'card.number',
  },
  {
    name: 'expiry month 13',
    ...cardPost({ card: card({ expiryMonth: 13 }) }),
    ...invalid,
    issue: 'card.expiryMonth',
  },
  {
    name: 'expiry month 0',
    ...cardPost({ card: card({ expiryMonth: 0 }) }),
    ...invalid,
    issue: 'card.expiryMonth',
  },
  {
    name: 'expiry month 1.5',
    ...cardPost({ card: card({ expiryMonth: 1.5 }) }),
    ...invalid,
    issue: 'card.expiryMonth',
  },
  {
    name: 'expiry month as a string',
    ...cardPost({ card: card({ expiryMonth: '12' }) }),
    ...invalid,
    issue: 'card.expiryMonth',
  },
  {
    name: 'two-digit expiry year',
    ...cardPost({ card: card({ expiryYear: 29 }) }),
    ...invalid,
    issue: 'card.expiryYear',
  },
  {
    name: 'cvv abc',
    ...cardPost({ card: card({ cvv: 'abc' }) }),
    ...invalid,
    issue: 'card.cvv',
  },
  {
    name: 'cvv of five digits',
    ...cardPost({ card: card({ cvv: '12345' }) }),
    ...invalid,
    issue: 'card.cvv',
  },
  {
    name: 'empty holder name',
    ...cardPost({ card: card({ holderName: '  ' }) }),
    ...invalid,
    issue: 'card.holderName',
  },
  {
    name: 'holder name over 100 characters',
    ...cardPost({ card: card({ holderName: 'A'.repeat(101) }) }),
    ...invalid,
    issue: 'card.holderName',
  },
  {
    name: 'card without cvv',
    ...cardPost({ card: { ...card(), cvv: undefined } }),
    ...invalid,
    issue: 'card.cvv',
  },
  {
    name: 'bad email',
    ...initiate({ channel: 'PayByTransfer', customer: { email: 'not-an-email' } }),
    ...invalid,
    issue: 'customer.email',
  },
  {
    name: 'phone with letters',
    ...initiate({ channel: 'PayByTransfer', customer: { phone: 'call me maybe' } }),
    ...invalid,
    issue: 'customer.phone',
  },
  {
    name: 'first name over 100 characters',
    ...initiate({ channel: 'PayByTransfer', customer: { firstName: 'A'.repeat(101) } }),
    ...invalid,
    issue: 'customer.firstName',
  },
  {
    name: 'customer as a string',
    ...initiate({ channel: 'PayByTransfer', customer: 'Ada Obi' }),
    ...invalid,
    issue: 'customer',
  },
  {
    name: 'returnTo on a foreign origin',
    ...initiate({ channel: 'PayByTransfer', returnTo: 'https://evil.example/return' }),
    ...invalid,
    issue: 'returnTo',
  },
  {
    name: 'returnTo not a URL',
    ...initiate({ channel: 'PayByTransfer', returnTo: 'back to the shop' }),
    ...invalid,
    issue: 'returnTo',
  },
  {
    name: 'returnTo javascript:',
    ...initiate({ channel: 'PayByTransfer', returnTo: 'javascript:alert(1)' }),
    ...invalid,
    issue: 'returnTo',
  },
  {
    name: 'redirect as a string',
    ...initiate({ channel: 'PayByTransfer', redirect: 'yes' }),
    ...invalid,
    issue: 'redirect',
  },
  {
    name: 'initiate with a text body',
    ...initiate({ channel: 'PayByTransfer' }),
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'unsupported_media_type',
  },
  // A token of a checkout that has not initiated opens no payment.
  { name: 'status before initiation', method: 'GET', path: '/status', ...notInitiated },
  { name: 'finalize before initiation', path: '/finalize', ...notInitiated },
  { name: 'authenticate before initiation', path: '/authenticate', ...notInitiated },
  { name: 'events before initiation', method: 'GET', path: '/events', ...notInitiated },
  { name: 'challenge before initiation', method: 'GET', path: '/challenge', ...notInitiated },
  // Routing.
  {
    name: 'GET /session',
    method: 'GET',
    path: '/session',
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'PUT /initiate',
    method: 'PUT',
    path: '/initiate',
    status: 405,
    code: 'method_not_allowed',
  },
  { name: 'POST /status', path: '/status', status: 405, code: 'method_not_allowed' },
  {
    name: 'DELETE /webhooks',
    method: 'DELETE',
    path: '/webhooks',
    status: 405,
    code: 'method_not_allowed',
  },
  { name: 'unknown path', method: 'GET', path: '/nope', status: 404, code: 'not_found' },
  {
    name: 'trailing slash',
    path: '/session/',
    body: { order: 'order-ngn:1' },
    status: 404,
    code: 'not_found',
  },
];

function tokenFor(token: Token | undefined): string | undefined {
  switch (token) {
    case undefined:
    case '':
      return undefined;
    case 'session':
      return sessionToken;
    case 'expired':
      return expiredToken;
    case 'foreign':
      return foreignToken;
    case 'tampered': {
      const [payload = '', signature] = sessionToken.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      claims.amountMinor = 1;
      return `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    }
    default:
      return token;
  }
}

describe('bad input', () => {
  it('has at least 40 distinct cases', () => {
    expect(new Set(CASES.map((entry) => entry.name)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)('$name → $status $code, no provider call', async (entry) => {
    const headers: Record<string, string> = {};
    const token = tokenFor(entry.token);
    if (token) headers.authorization = `Bearer ${token}`;
    if (entry.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, entry.headers);
    const body = entry.raw ?? (entry.body !== undefined ? JSON.stringify(entry.body) : undefined);
    const calls = rig.providerCalls.length;
    const response = await fetch(rig.url + entry.path, {
      method: entry.method ?? 'POST',
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(entry.raw instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await response.text();
    seen.push(text, JSON.stringify([...response.headers]));
    expect(response.status, text).toBe(entry.status);
    const answer = JSON.parse(text);
    expect(answer.error.code).toBe(entry.code);
    expect(answer.error.message).toEqual(expect.any(String));
    expect(answer.error.requestId).toBe(response.headers.get('x-request-id'));
    if (entry.issue !== undefined) {
      expect(answer.error.issues.join('\n')).toContain(entry.issue);
    }
    expect(rig.providerCalls.slice(calls)).toEqual([]);
  });

  it('says an expired token has expired, so the widget can start again', async () => {
    const answer = await companionCall(rig, 'POST', '/initiate', {
      token: expiredToken,
      body: { channel: 'PayByTransfer' },
    });
    seen.push(answer.text);
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toMatch(/expired/i);
  });

  it('nothing was initiated by any of them', async () => {
    const response = await rig.sandbox.request('GET', '/__sandbox/payments');
    expect((await response.json()).payments).toEqual([]);
  });
});

describe('unknown extra fields are dropped, not refused', () => {
  it('a session and an initiation with extra fields go through, the extras ignored', async () => {
    const opened = await companionCall(rig, 'POST', '/session', {
      body: { order: 'order-ngn:x1', utm: 'mail', amount: 1, nested: { a: [1, 2] } },
    });
    seen.push(opened.text);
    expect(opened.status).toBe(200);
    const initiated = await companionCall(rig, 'POST', '/initiate', {
      token: opened.body.token,
      body: {
        channel: 'PayByTransfer',
        customer: { firstName: 'Ada', email: 'ada@example.com', loyalty: 'gold' },
        theme: 'dark',
        amountMinor: 1,
      },
    });
    seen.push(initiated.text);
    expect(initiated.status, initiated.text).toBe(200);
    expect(initiated.body.payment.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
  });
});

describe('input the provider would refuse is refused before it', () => {
  it('a channel the order’s currency cannot use: 409 channel_unavailable, no initiation', async () => {
    const opened = await companionCall(rig, 'POST', '/session', {
      body: { order: 'order-gbp:x2' },
    });
    seen.push(opened.text);
    const calls = rig.providerCalls.length;
    const answer = await companionCall(rig, 'POST', '/initiate', {
      token: opened.body.token,
      body: { channel: 'PayByTransfer' },
    });
    seen.push(answer.text);
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body.error.code).toBe('channel_unavailable');
    expect(rig.providerCalls.slice(calls).map((entry) => entry.path)).not.toContain(
      '/api/payment/pay/initiate',
    );
  });

  it('a card that has expired: 400 naming the expiry, no initiation', async () => {
    const opened = await companionCall(rig, 'POST', '/session', {
      body: { order: 'order-usd:x3' },
    });
    seen.push(opened.text);
    const calls = rig.providerCalls.length;
    const answer = await companionCall(rig, 'POST', '/initiate', {
      token: opened.body.token,
      body: { channel: 'Card', card: card({ expiryMonth: 1, expiryYear: 2001 }) },
    });
    seen.push(answer.text);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.issues.join('\n')).toMatch(/card\.expiry/);
    expect(rig.providerCalls.slice(calls)).toEqual([]);
  });
});
