// The companion as merchants mount it, on the real frameworks: Node's http server, Express 4 and
// 5 with and without a global express.json(), Fastify and Hono on @hono/node-server; each through
// a whole payment and a signed webhook checked on the raw body. When a framework read the body
// and left nothing, the answer names the cause and the fix, and the log says it once. Then the
// start-up errors a merchant gets for a missing or wrong option, none of which quotes the key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/provider/webhook-signature';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandler,
} from '../../../src/server';
import { toExpressMiddleware, toFastifyPlugin, toNodeListener } from '../../../src/server/node';
import { payOnceWithSignedWebhook } from '../../consumers/journey';
import { type CompanionRig, ORDERS, startCompanion } from '../../helpers/companion';
import { askWithMalformedHosts } from '../../helpers/malformed-host';

const KEY = `sk_test_adapters_${crypto.randomUUID().replaceAll('-', '')}`;

let rig: CompanionRig | undefined;
const closers: Array<() => Promise<unknown>> = [];
const handlers: CheckoutHandler[] = [];

afterEach(async () => {
  for (const handler of handlers.splice(0)) handler.close();
  for (const close of closers.splice(0)) await close();
  await rig?.close();
  rig = undefined;
});

async function listen(server: Server): Promise<string> {
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A companion on a sandbox that signs its webhooks, the handler not yet mounted anywhere. */
async function signedRig(
  overrides: Partial<CheckoutHandlerOptions> = {},
): Promise<{ rig: CompanionRig; handler: CheckoutHandler; secret: string; warnings: string[] }> {
  const secret = generateWebhookSecret();
  rig = await startCompanion({}, { secretKey: KEY, webhookSecret: secret });
  const on = rig;
  const warnings: string[] = [];
  const handler = createCheckoutHandler({
    secretKey: on.sandbox.secretKey,
    baseUrl: on.sandbox.url,
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    onPaymentOutcome: (outcome) => void on.paymentOutcomes.push(outcome),
    webhookSecrets: [secret],
    logger: { warn: (message) => void warnings.push(message), error: () => {} },
    ...overrides,
  });
  handlers.push(handler);
  return { rig: on, handler, secret, warnings };
}

async function pointWebhooksAt(on: CompanionRig, base: string): Promise<void> {
  await on.sandbox.request('POST', '/__sandbox/config', {
    webhookUrl: `${base}/api/checkout/webhooks`,
  });
}

async function journey(on: CompanionRig, base: string): Promise<void> {
  await pointWebhooksAt(on, base);
  await payOnceWithSignedWebhook({
    base,
    sandbox: on.sandbox,
    outcomes: () => on.paymentOutcomes.map((outcome) => outcome.reference),
  });
}

/** A webhook signed with `secret` whose bytes are not what JSON.stringify writes. */
async function prettySignedWebhook(base: string, secret: string): Promise<Response> {
  const body = JSON.stringify({ event: 'something.else', data: { reference: 'ref-1' } }, null, 2);
  const id = `msg_${crypto.randomUUID()}`;
  const headers = await signWebhook({ id, timestamp: Math.floor(Date.now() / 1000), body, secret });
  return fetch(`${base}/api/checkout/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('toNodeListener', () => {
  it('runs a payment and a signed webhook under http.createServer', async () => {
    const { rig: on, handler } = await signedRig();
    await journey(on, await listen(createServer(toNodeListener(handler))));
  });

  it('answers 404 outside its base path', async () => {
    const { handler } = await signedRig();
    const base = await listen(createServer(toNodeListener(handler)));
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});

describe.each([
  ['Express 5', express],
  ['Express 4', express4],
])('toExpressMiddleware on %s', (_name, framework) => {
  it('runs a payment and a signed webhook mounted before any body parser', async () => {
    const { rig: on, handler } = await signedRig();
    const app = framework();
    app.use('/api/checkout', toExpressMiddleware(handler));
    app.use(framework.json());
    await journey(on, await listen(createServer(app)));
  });

  it('runs a payment and a signed webhook behind a global express.json()', async () => {
    const { rig: on, handler, secret, warnings } = await signedRig();
    const app = framework();
    app.use(framework.json());
    app.use('/api/checkout', toExpressMiddleware(handler));
    const base = await listen(createServer(app));
    await journey(on, base);
    expect(warnings).toEqual([]);

    // Bytes the parsed JSON does not reproduce: the signature cannot be checked, and the answer
    // (a 500, so the provider retries after the fix) says why and what to do, logged once.
    for (const _attempt of [1, 2]) {
      const refused = await prettySignedWebhook(base, secret);
      expect(refused.status).toBe(500);
      const { error } = await refused.json();
      expect(error.code).toBe('body_already_read');
      expect(error.message).toMatch(
        /express\.json\(\).*exact bytes|exact bytes.*express\.json\(\)/,
      );
      expect(error.message).toMatch(/rawBody = buf/);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/before any body parser/);
  });

  it('checks signatures on the raw bytes express.json({ verify }) kept', async () => {
    const { rig: on, handler, secret } = await signedRig();
    const app = framework();
    app.use(
      framework.json({
        verify: (request, _response, buffer) => {
          (request as { rawBody?: Buffer }).rawBody = buffer;
        },
      }),
    );
    app.use('/api/checkout', toExpressMiddleware(handler));
    const base = await listen(createServer(app));
    await journey(on, base);
    const accepted = await prettySignedWebhook(base, secret);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ received: true, ignored: true });
  });

  it('takes the bytes express.raw() left', async () => {
    const { rig: on, handler } = await signedRig();
    const app = framework();
    app.use(framework.raw({ type: 'application/json' }));
    app.use('/api/checkout', toExpressMiddleware(handler));
    await journey(on, await listen(createServer(app)));
  });

  it('says what happened when a middleware read the body and left nothing', async () => {
    const { handler, warnings } = await signedRig();
    const app = framework();
    app.use((request, _response, next) => {
      request.resume();
      request.on('end', () => next());
    });
    app.use('/api/checkout', toExpressMiddleware(handler));
    const base = await listen(createServer(app));
    for (const _attempt of [1, 2]) {
      const answer = await fetch(`${base}/api/checkout/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ order: 'order-ngn:gone' }),
      });
      expect(answer.status).toBe(500);
      const { error } = await answer.json();
      expect(error.code).toBe('body_already_read');
      expect(error.message).toMatch(/read before the checkout handler/);
      expect(error.message).toMatch(/Mount the checkout before any body parser/);
    }
    expect(warnings).toHaveLength(1);
  });

  it('works at a mount path of the merchant’s choosing with basePath', async () => {
    const { handler } = await signedRig({ basePath: '/shop/pay' });
    const app = framework();
    app.use('/shop/pay', toExpressMiddleware(handler));
    const base = await listen(createServer(app));
    const session = await fetch(`${base}/shop/pay/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order-usd:x2' }),
    });
    expect(session.status).toBe(200);
    expect((await session.json()).checkout.amount).toEqual({ amountMinor: 1_800, currency: 'USD' });
    const missing = await fetch(`${base}/shop/pay/payout/Disbursement/Payout/FundTransfer`, {
      method: 'POST',
    });
    expect(missing.status).toBe(404);
  });
});

describe('toFastifyPlugin', () => {
  it('runs a payment and a signed webhook, the merchant’s own routes keeping their JSON', async () => {
    const { rig: on, handler, secret } = await signedRig();
    const app = Fastify();
    closers.push(() => app.close());
    app.post('/orders', async (request) => ({ echoed: request.body }));
    await app.register(toFastifyPlugin(handler), { prefix: '/api/checkout' });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    await journey(on, base);
    const accepted = await prettySignedWebhook(base, secret);
    expect(accepted.status).toBe(200);
    const echoed = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 7 }),
    });
    expect(await echoed.json()).toEqual({ echoed: { id: 7 } });
  });

  it('answers a malformed Host with 400, not a 500 with a stack in the log', async () => {
    const { handler } = await signedRig();
    const app = Fastify();
    closers.push(() => app.close());
    await app.register(toFastifyPlugin(handler), { prefix: '/api/checkout' });
    const base = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const { heads, errors } = await askWithMalformedHosts(
      Number(base.port),
      '/api/checkout/session',
    );
    for (const [host, head] of Object.entries(heads))
      expect(head, host).toMatch(/^HTTP\/1\.1 400 /);
    expect(errors).toEqual([]);
  });
});

describe('Hono on @hono/node-server', () => {
  async function honoServer(app: Hono): Promise<string> {
    const server = await new Promise<Server>((resolve) => {
      const running = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(running as Server),
      );
    });
    closers.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('runs a payment and a signed webhook with c.req.raw', async () => {
    const { rig: on, handler } = await signedRig();
    const app = new Hono();
    app.all('/api/checkout/*', (c) => handler(c.req.raw));
    await journey(on, await honoServer(app));
  });

  it('says what happened when a middleware read the body first', async () => {
    const { handler, warnings } = await signedRig();
    const app = new Hono();
    app.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.json();
      await next();
    });
    app.all('/api/checkout/*', (c) => handler(c.req.raw));
    const base = await honoServer(app);
    const answer = await fetch(`${base}/api/checkout/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order-ngn:hono' }),
    });
    expect(answer.status).toBe(500);
    const { error } = await answer.json();
    expect(error.code).toBe('body_already_read');
    expect(error.message).toMatch(/already read before the checkout handler/);
    expect(error.message).toMatch(/Hono pass c\.req\.raw before any middleware reads it/);
    expect(warnings).toHaveLength(1);
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
