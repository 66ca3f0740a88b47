// The packed package in a merchant's project, on each server a merchant already runs: Express 4
// and 5 with and without a global express.json(), Fastify, Hono on @hono/node-server, a Next.js
// style route handler, Bun and Deno (from their npm packages). Each app is a separate process that
// imports 'paydrop/server' as a merchant would and goes through one whole payment and one signed
// webhook; on Bun the event stream also outlives Bun's default 10 s idle timeout.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/provider/webhook-signature';
import { type Sandbox, startSandbox } from '../helpers/sandbox';
import { denoBinary } from './deno-binary';
import { payOnceWithSignedWebhook } from './journey';
import { intoConsumer, type PackedPackage, packedPackage, ROOT } from './packed-package';

const KEY = `sk_test_consumers_${crypto.randomUUID().replaceAll('-', '')}`;
const BUN = join(ROOT, 'node_modules/.bin/bun');

let packed: PackedPackage;
const running: Array<{ child: ChildProcess; sandbox: Sandbox }> = [];

beforeAll(() => {
  packed = packedPackage();
  intoConsumer(packed, ['apps']);
}, 180_000);

afterEach(async () => {
  for (const { child, sandbox } of running.splice(0)) {
    child.kill();
    await sandbox.close();
  }
});

interface App {
  readonly base: string;
  readonly sandbox: Sandbox;
  readonly output: () => string;
}

/** Starts a sandbox signing its webhooks, then `command` in the consumer project against it. */
async function startApp(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<App> {
  const secret = generateWebhookSecret();
  const sandbox = await startSandbox({ secretKey: KEY, webhookSecret: secret });
  const child = spawn(command, args, {
    cwd: join(packed.consumer, 'apps'),
    env: {
      ...process.env,
      DENO_NO_UPDATE_CHECK: '1',
      PROVIDER_SECRET_KEY: KEY,
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_WEBHOOK_SECRET: secret,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push({ child, sandbox });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start:\n${output}`)),
      30_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening (http:\/\/\S+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  await sandbox.request('POST', '/__sandbox/config', {
    webhookUrl: `${base}/api/checkout/webhooks`,
  });
  return { base, sandbox, output: () => output };
}

async function pay(app: App): Promise<void> {
  await payOnceWithSignedWebhook({
    base: app.base,
    sandbox: app.sandbox,
    outcomes: async () => (await fetch(`${app.base}/outcomes`)).json(),
  });
  expect(app.output()).not.toContain(KEY);
}

describe.each([
  ['Express 5', 'express'],
  ['Express 4', 'express4'],
])('%s', (_name, express) => {
  it.each([
    ['mounted before any body parser', 'none'],
    ['behind a global express.json()', 'global'],
  ])('runs a payment and a signed webhook %s', async (_how, parser) => {
    await pay(
      await startApp(process.execPath, ['express.mjs'], { EXPRESS: express, JSON_PARSER: parser }),
    );
  });
});

it('Fastify: runs a payment and a signed webhook through the plugin', async () => {
  await pay(await startApp(process.execPath, ['fastify.mjs']));
});

it('Hono on @hono/node-server: runs a payment and a signed webhook', async () => {
  await pay(await startApp(process.execPath, ['hono.mjs']));
});

it('a Next.js-style route handler: runs a payment and a signed webhook', async () => {
  await pay(await startApp(process.execPath, ['next-route.mjs']));
});

it('Deno.serve: runs a payment and a signed webhook', async () => {
  await pay(
    await startApp(denoBinary(), ['run', '--allow-net', '--allow-env', '--allow-read', 'deno.mjs']),
  );
}, 60_000);

describe('Bun.serve', () => {
  it('runs a payment and a signed webhook', async () => {
    await pay(await startApp(BUN, ['bun.mjs']));
  });

  it('keeps the event stream open past its 10 s idle timeout', async () => {
    const app = await startApp(BUN, ['bun.mjs']);
    const call = (path: string, body: unknown, token?: string) =>
      fetch(`${app.base}/api/checkout${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      }).then((response) => response.json());
    const session = await call('/session', { order: 'order-ngn:bun-idle' });
    const initiated = await call('/initiate', { channel: 'PayByTransfer' }, session.token);
    const stream = await fetch(`${app.base}/api/checkout/events`, {
      headers: { authorization: `Bearer ${initiated.token}` },
    });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const started = Date.now();
    while (Date.now() - started < 12_000) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`The stream ended after ${Date.now() - started} ms:\n${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(text.match(/: keep-alive/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    await app.sandbox.request(
      'POST',
      `/__sandbox/payments/${initiated.payment.reference}/transfer`,
    );
    while (!/SUCCESSFUL/.test(text)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`The stream ended before the outcome:\n${text}`);
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
  });
});
