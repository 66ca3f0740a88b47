// Issue 20's done-criteria against the packed package, mounted as docs/server.md shows (Node's http
// server with toNodeListener, in a process of its own), in front of a real sandbox whose calls
// are counted: card testing on one order and across orders, /session floods, a stranger opening
// a customer's order, event streams per token, and a 50 MB Content-Length.
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/node/serve';
import { type Sandbox, startSandbox, testCard } from '../helpers/sandbox';
import { intoConsumer, packedPackage } from './packed-package';

const KEY = `sk_test_limits_${crypto.randomUUID().replaceAll('-', '')}`;

let sandbox: Sandbox;
let counter: { url: string; close(): Promise<void> };
let app: ChildProcess;
let checkout: string;
/** Every provider call the companion made, by path. */
const calls: string[] = [];

beforeAll(async () => {
  const packed = packedPackage();
  intoConsumer(packed, ['apps']);
  sandbox = await startSandbox({ secretKey: KEY });
  // The provider as the companion sees it, counting what it is asked.
  counter = await serve(async (request) => {
    const url = new URL(request.url);
    calls.push(url.pathname);
    const forwarded = new Request(`${sandbox.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      ...(request.method === 'GET' ? {} : { body: await request.arrayBuffer() }),
    });
    return fetch(forwarded);
  });
  app = spawn(process.execPath, ['limits.mjs'], {
    cwd: join(packed.consumer, 'apps'),
    env: { ...process.env, PROVIDER_SECRET_KEY: KEY, PROVIDER_BASE_URL: counter.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the app did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening (http:\/\/\S+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    };
    app.stdout?.on('data', read);
    app.stderr?.on('data', read);
  });
  checkout = `${base}/api/checkout`;
}, 240_000);

afterAll(async () => {
  app?.kill();
  await counter?.close();
  await sandbox?.close();
});

async function call(
  path: string,
  body?: unknown,
  options: { token?: string; origin?: string; method?: string } = {},
) {
  const response = await fetch(`${checkout}${path}`, {
    method: options.method ?? 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

/** One card attempt as the widget and its card frame make it. */
async function declinedCard(order: string) {
  const session = await call('/session', { order });
  const started = await call(
    '/card',
    { card: testCard('4000000000000002') },
    { token: session.body.token, origin: 'null' },
  );
  if (started.status !== 200) return started;
  await call('/authenticate', undefined, { token: started.body.token });
  return call('/finalize', undefined, { token: started.body.token });
}

const initiations = () => calls.filter((path) => path === '/api/payment/pay/initiate').length;

describe('the packed companion’s limits (issue 20)', () => {
  it('lets 60 declined cards on one order reach the provider at most 10 times; the rest 429 with Retry-After', async () => {
    const before = initiations();
    const answers = [];
    for (let attempt = 0; attempt < 60; attempt++)
      answers.push(await declinedCard('order-ngn:one'));
    expect(initiations() - before).toBeLessThanOrEqual(10);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }, 120_000);

  it('lets 60 orders with one declined card each, from one client, reach the provider at most 30 times', async () => {
    const before = initiations();
    for (let order = 0; order < 60; order++) await declinedCard(`order-ngn:many-${order}`);
    expect(initiations() - before).toBeLessThanOrEqual(30);
  }, 120_000);

  it('costs at most 30 provider validations for 300 /session calls of one order', async () => {
    const validations = () => calls.filter((path) => path === '/api/payment/pay/validate').length;
    const before = validations();
    for (let index = 0; index < 300; index++) {
      const session = await call('/session', { order: 'order-ngn:sessions' });
      expect(session.status).toBe(200);
    }
    expect(validations() - before).toBeLessThanOrEqual(30);
  }, 120_000);

  it('does not show a stranger the account the customer is paying into', async () => {
    const session = await call('/session', { order: 'order-ngn:mine' });
    const customer = await call(
      '/initiate',
      { channel: 'PayByTransfer' },
      { token: session.body.token },
    );
    const account = customer.body.payment.virtualAccount.accountNumber as string;
    const stranger = await call('/session', { order: 'order-ngn:mine' });
    expect(stranger.status).toBe(200);
    expect(JSON.stringify(stranger.body)).not.toContain(account);
  });

  it('holds at most 20 event streams on one token', async () => {
    const session = await call('/session', { order: 'order-ngn:streams' });
    const started = await call(
      '/initiate',
      { channel: 'PayByTransfer' },
      { token: session.body.token },
    );
    const controllers: AbortController[] = [];
    const statuses: number[] = [];
    try {
      for (let index = 0; index < 21; index++) {
        const controller = new AbortController();
        controllers.push(controller);
        const response = await fetch(
          `${checkout}/events?token=${encodeURIComponent(started.body.token)}`,
          { signal: controller.signal },
        );
        statuses.push(response.status);
      }
    } finally {
      for (const controller of controllers) controller.abort();
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('refuses a 50 MB Content-Length with 413 before a byte of the body', async () => {
    const { hostname, port } = new URL(checkout);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/checkout/session HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
        );
      });
      let text = '';
      socket.setTimeout(5_000, () => {
        socket.destroy();
        reject(new Error(`no answer before the body: ${text}`));
      });
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });
});
