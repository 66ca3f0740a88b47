// The companion as merchants mount it: Node's http server and an Express/Connect app, with the
// webhook signature checked on the raw body either way; and the start-up errors a merchant gets
// for a missing or wrong option, none of which quotes the key.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../../src/provider/webhook-signature';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandler,
  toExpressMiddleware,
  toNodeListener,
} from '../../../src/server';
import { type CompanionRig, ORDERS, startCompanion } from '../../helpers/companion';

const KEY = `sk_test_adapters_${crypto.randomUUID().replaceAll('-', '')}`;

let rig: CompanionRig | undefined;
const servers: Server[] = [];
const handlers: CheckoutHandler[] = [];

afterEach(async () => {
  for (const handler of handlers.splice(0)) handler.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rig?.close();
  rig = undefined;
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Middleware = (
  request: IncomingMessage & { originalUrl?: string },
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * A minimal Connect: `app.use(mount, middleware)` strips the mount prefix from req.url and keeps
 * the full URL in req.originalUrl, as Express does; what no middleware answers is a 404.
 */
function connectApp(routes: Array<[string, Middleware]>) {
  const fellThrough: string[] = [];
  const server = createServer((request: IncomingMessage & { originalUrl?: string }, response) => {
    const original = request.url ?? '/';
    const path = original.split('?')[0] ?? '/';
    const route = routes.find(([mount]) => path === mount || path.startsWith(`${mount}/`));
    const fallback = (error?: unknown) => {
      fellThrough.push(original);
      response.statusCode = error ? 500 : 404;
      response.end(error ? 'error' : 'Cannot find it');
    };
    if (!route) return fallback();
    const [mount, middleware] = route;
    request.originalUrl = original;
    request.url = original.slice(mount.length) || '/';
    if (!request.url.startsWith('/')) request.url = `/${request.url}`;
    middleware(request, response, fallback);
  });
  return { server, fellThrough };
}

async function post(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(text).not.toContain(KEY);
  return { status: response.status, text, body: JSON.parse(text) };
}

function handlerFor(
  on: CompanionRig,
  overrides: Partial<CheckoutHandlerOptions> = {},
): CheckoutHandler {
  const handler = createCheckoutHandler({
    secretKey: on.sandbox.secretKey,
    baseUrl: on.sandbox.url,
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    onPaymentOutcome: (outcome) => void on.paymentOutcomes.push(outcome),
    logger: { warn: () => {}, error: () => {} },
    ...overrides,
  });
  handlers.push(handler);
  return handler;
}

describe('toNodeListener', () => {
  it('runs a checkout under http.createServer', async () => {
    rig = await startCompanion({}, { secretKey: KEY });
    const base = await listen(createServer(toNodeListener(rig.handler)));
    const session = await post(`${base}/api/checkout/session`, { order: 'order-ngn:n1' });
    expect(session.status).toBe(200);
    expect(session.body.checkout.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
    const initiated = await post(
      `${base}/api/checkout/initiate`,
      { channel: 'PayByTransfer' },
      session.body.token,
    );
    expect(initiated.status).toBe(200);
    const status = await fetch(`${base}/api/checkout/status`, {
      headers: { authorization: `Bearer ${initiated.body.token}` },
    });
    expect(await status.json()).toMatchObject({
      reference: initiated.body.payment.reference,
      status: 'PENDING',
    });
    const outside = await fetch(`${base}/elsewhere`);
    expect(outside.status).toBe(404);
  });
});

describe('toExpressMiddleware', () => {
  it('runs a checkout mounted with app.use("/api/checkout", …), signed webhooks included', async () => {
    const secret = generateWebhookSecret();
    rig = await startCompanion({}, { secretKey: KEY, webhookSecret: secret });
    const middleware = toExpressMiddleware(handlerFor(rig, { webhookSecrets: [secret] }));
    const app = connectApp([['/api/checkout', middleware]]);
    const base = await listen(app.server);
    await rig.sandbox.request('POST', '/__sandbox/config', {
      webhookUrl: `${base}/api/checkout/webhooks`,
    });

    const session = await post(`${base}/api/checkout/session`, { order: 'order-ngn:x1' });
    expect(session.status, session.text).toBe(200);
    const initiated = await post(
      `${base}/api/checkout/initiate`,
      { channel: 'PayByTransfer' },
      session.body.token,
    );
    expect(initiated.status).toBe(200);
    const reference = initiated.body.payment.reference;
    // Links the companion builds point at the mounted path, not the stripped one.
    const bank = await post(`${base}/api/checkout/session`, { order: 'order-gbp:x1' });
    const byBank = await post(
      `${base}/api/checkout/initiate`,
      { channel: 'PayByAccount' },
      bank.body.token,
    );
    const decision = await fetch(byBank.body.payment.bankAuthUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    expect(decision.headers.get('location')).toMatch(
      new RegExp(`^${base}/api/checkout/return\\?reference=`),
    );

    // The sandbox's signed webhook passes the signature check on the raw body.
    await rig.sandbox.request('POST', `/__sandbox/payments/${reference}/transfer`);
    await expect
      .poll(() => rig?.paymentOutcomes.map((outcome) => outcome.reference), { timeout: 3000 })
      .toContain(reference);
    const deliveries = await (await rig.sandbox.request('GET', '/__sandbox/webhooks')).json();
    expect(deliveries.webhooks[0]).toMatchObject({ state: 'delivered', lastStatus: 200 });
    expect(app.fellThrough).toEqual([]);
  });

  it('works at a mount path of the merchant’s choosing with basePath', async () => {
    rig = await startCompanion({}, { secretKey: KEY });
    const app = connectApp([
      ['/shop/pay', toExpressMiddleware(handlerFor(rig, { basePath: '/shop/pay' }))],
    ]);
    const base = await listen(app.server);
    const session = await post(`${base}/shop/pay/session`, { order: 'order-usd:x2' });
    expect(session.status).toBe(200);
    expect(session.body.checkout.amount).toEqual({ amountMinor: 1_800, currency: 'USD' });
    const missing = await post(`${base}/shop/pay/payout/Disbursement/Payout/FundTransfer`, {});
    expect(missing.status).toBe(404);
  });
});

describe('start-up errors', () => {
  const good: CheckoutHandlerOptions = {
    secretKey: KEY,
    baseUrl: 'https://api.provider.example',
    resolveOrder: () => null,
  };

  function startUpError(options: unknown): Error {
    try {
      createCheckoutHandler(options as CheckoutHandlerOptions).close();
    } catch (error) {
      return error as Error;
    }
    throw new Error('createCheckoutHandler did not throw');
  }

  it.each([
    ['without secretKey', { ...good, secretKey: undefined }, /secretKey/],
    ['with an empty secretKey', { ...good, secretKey: '  ' }, /secretKey/],
    ['without baseUrl', { ...good, baseUrl: undefined }, /baseUrl/],
    ['with a relative baseUrl', { ...good, baseUrl: '/provider' }, /baseUrl.*absolute/],
    ['with a non-http baseUrl', { ...good, baseUrl: 'ftp://provider.example' }, /baseUrl/],
    ['without resolveOrder', { ...good, resolveOrder: undefined }, /resolveOrder/],
    ['with a host as an origin', { ...good, allowedOrigins: ['shop.example'] }, /allowedOrigins/],
    [
      'with a trailing slash on an origin',
      { ...good, allowedOrigins: ['https://shop.example/'] },
      /allowedOrigins/,
    ],
    ['with a wildcard origin', { ...good, allowedOrigins: ['*'] }, /allowedOrigins/],
    ['with a relative basePath', { ...good, basePath: 'api/checkout' }, /basePath/],
    ['with a token lifetime of 10 s', { ...good, tokenTtlSeconds: 10 }, /tokenTtlSeconds/],
    ['with no options at all', undefined, /options/],
  ])('throws a TypeError %s, naming the option and not the key', (_name, options, message) => {
    const error = startUpError(options);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
  });

  it('does not quote the key when it is given as baseUrl by mistake (swapped settings)', () => {
    const error = startUpError({
      ...good,
      secretKey: 'https://api.provider.example',
      baseUrl: KEY,
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/baseUrl/);
    expect(error.message).not.toContain(KEY);
  });

  it('accepts a complete configuration', () => {
    expect(() => createCheckoutHandler(good).close()).not.toThrow();
  });
});
