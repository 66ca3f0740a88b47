// Issue 21's "done when" for the shop's own origin, on the packed package mounted as the README
// shows (apps/going-live.mjs: no publicUrl, no allowedOrigins, the default console logger): the
// shop's page, in Chromium, is accepted through a real TLS-terminating proxy (Host kept with
// X-Forwarded-Proto; Host rewritten with X-Forwarded-Host/-Proto; Host rewritten with Forwarded),
// over https.createServer, and from a route handler whose request.url says localhost. Another
// site is still refused and its origin logged with the origin expected and the option that would
// allow it; a page that forges X-Forwarded-Host or Forwarded does not get its call sent, because
// the browser's preflight is refused, though curl with the same forged headers gets in (which is
// why the forgery is worth nothing: see src/server/http/shop-origin.ts). The certificate is a
// throw-away one made here with openssl.
import { type ChildProcess, spawn } from 'node:child_process';
import type http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import { type RunningServer, serve } from '../../src/node/serve';
import { type Sandbox, startSandbox } from '../helpers/sandbox';
import {
  type Certificate,
  type ProxyStyle,
  startTlsProxy,
  type TlsProxy,
  throwAwayCertificate,
} from '../helpers/tls-proxy';
import { intoConsumer, type PackedPackage, packedPackage } from './packed-package';

const KEY = `sk_test_going_live_${crypto.randomUUID().replaceAll('-', '')}`;
/** The shop's public name and another site's, both mapped to loopback in Chromium. */
const SHOP = 'shop.test';
const EVIL = 'evil.test';

let packed: PackedPackage;
let sandbox: Sandbox;
let browser: Browser;
let tls: Certificate;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  packed = packedPackage();
  intoConsumer(packed, ['apps']);
  tls = throwAwayCertificate([SHOP]);
  sandbox = await startSandbox({ secretKey: KEY });
  const executablePath = await findChromium();
  if (!executablePath)
    throw new Error('No Chromium found: run `node scripts/ensure-chromium.mjs`.');
  browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SHOP} 127.0.0.1, MAP ${EVIL} 127.0.0.1`],
    headless: true,
  });
}, 240_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await sandbox?.close();
  tls?.remove();
});

interface App {
  readonly port: number;
  /** What the app printed so far: the companion's default logger writes there. */
  readonly output: () => string;
}

async function startApp(mode: 'http' | 'https' | 'route'): Promise<App> {
  const child: ChildProcess = spawn(process.execPath, ['going-live.mjs'], {
    cwd: join(packed.consumer, 'apps'),
    env: {
      ...process.env,
      MODE: mode,
      PROVIDER_SECRET_KEY: KEY,
      PROVIDER_BASE_URL: sandbox.url,
      TLS_KEY: tls.keyPath,
      TLS_CERT: tls.certPath,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.kill());
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`the app exited with ${code}:\n${output}`)));
  });
  return { port, output: () => output };
}

/** A TLS-terminating proxy in front of the app, closed after the file. */
async function tlsProxy(appPort: number, style: ProxyStyle): Promise<TlsProxy> {
  const proxy = await startTlsProxy(tls, appPort, style);
  cleanups.push(() => proxy.close());
  return proxy;
}

/** Opens `pageUrl` in a fresh tab and runs `script` (an async expression) in the page. */
async function inPage(pageUrl: string, script: string): Promise<unknown> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    await page.goto(pageUrl);
    return await page.evaluate(script);
  } finally {
    await context.close();
  }
}

/** The shop's page starts a checkout and a transfer, as the widget does: same origin, JSON. */
const PAY_FROM_THE_PAGE = `(async () => {
  const post = async (path, body, token) => {
    const answer = await fetch('/api/checkout' + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: 'Bearer ' + token } : {}) },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };
  const session = await post('/session', { order: 'order_1042' });
  if (session.status !== 200) return { session };
  const initiated = await post('/initiate', { channel: 'PayByTransfer' }, session.body.token);
  return { session, initiated };
})()`;

type Paid = {
  session: { status: number; body: { error?: { code: string } } };
  initiated?: { status: number; body: { payment?: { status: string } } };
};

function expectPaying(result: unknown): void {
  const paid = result as Paid;
  expect(paid.session.status, JSON.stringify(paid.session.body)).toBe(200);
  expect(paid.initiated?.status).toBe(200);
  expect(paid.initiated?.body.payment?.status).toBe('PENDING');
}

/** A request with the shop's certificate trusted, as curl --cacert would make it. */
function curl(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = https.request(
      {
        host: '127.0.0.1',
        port,
        servername: SHOP,
        ca: tls.cert,
        path,
        method: options.method ?? 'GET',
        headers: { host: `${SHOP}:${port}`, ...options.headers },
      },
      (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

describe('the packed package takes the shop’s own pages however production reaches it', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp('http');
  }, 60_000);

  it.each([
    ['keeping Host (with X-Forwarded-Proto)', 'host-kept'],
    ['rewriting Host, with X-Forwarded-Host and -Proto', 'x-forwarded'],
    ['rewriting Host, with Forwarded', 'forwarded'],
  ] as const)('through a TLS-terminating proxy %s', async (_how, how) => {
    const proxy = await tlsProxy(app.port, how);
    expectPaying(await inPage(`https://${SHOP}:${proxy.port}/`, PAY_FROM_THE_PAGE));
    const calls = proxy.passed.filter((request) => request.path.startsWith('/api/'));
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/checkout/session',
      'POST /api/checkout/initiate',
    ]);
    expect(calls[0]?.origin).toBe(`https://${SHOP}:${proxy.port}`);
    // The load balancer's check, through the same proxy.
    const health = await curl(proxy.port, '/api/checkout/health');
    expect(health.status).toBe(200);
    expect(health.text).toBe('{"ok":true}');
    expect(health.headers['cache-control']).toBe('no-store');
  });

  it('over https.createServer directly', async () => {
    const direct = await startApp('https');
    expectPaying(await inPage(`https://${SHOP}:${direct.port}/`, PAY_FROM_THE_PAGE));
  });

  it('from a route handler whose request.url says http://localhost:3000', async () => {
    const route = await startApp('route');
    expectPaying(await inPage(`http://${SHOP}:${route.port}/`, PAY_FROM_THE_PAGE));
  });

  describe('another site', () => {
    let proxy: TlsProxy;
    let evil: RunningServer;
    let evilOrigin: string;
    beforeAll(async () => {
      // The careless proxy: it passes on whatever forwarded headers come in.
      proxy = await tlsProxy(app.port, 'host-kept');
      evil = await serve(
        () =>
          Promise.resolve(
            new Response('<!doctype html><title>Evil</title>', {
              headers: { 'content-type': 'text/html' },
            }),
          ),
        { host: '127.0.0.1' },
      );
      cleanups.push(() => evil.close());
      evilOrigin = `http://${EVIL}:${new URL(evil.url).port}`;
    });

    it('is refused, and the app’s log names its origin, the origin expected and the option that would allow it', async () => {
      const shopUrl = `https://${SHOP}:${proxy.port}`;
      const before = app.output().length;
      const result = await inPage(
        `${evilOrigin}/`,
        `(async () => {
          // A form-like POST needs no preflight: it reaches the companion, which refuses it.
          await fetch(${JSON.stringify(`${shopUrl}/api/checkout/session`)}, {
            method: 'POST', mode: 'no-cors', body: JSON.stringify({ order: 'order_1042' }),
          });
          return 'sent';
        })()`,
      );
      expect(result).toBe('sent');
      const posted = proxy.passed.find(
        (request) => request.method === 'POST' && request.origin === evilOrigin,
      );
      expect(posted?.status).toBe(403);
      await expect.poll(() => app.output().slice(before)).toContain('cross_site_request');
      const logged = app.output().slice(before);
      expect(logged).toContain(`origin: '${evilOrigin}'`);
      expect(logged).toContain(`expected: '${shopUrl}'`);
      expect(logged).toContain(`allowedOrigins: ['${evilOrigin}']`);
      expect(logged).toContain('publicUrl');
    });

    it('cannot forge X-Forwarded-Host or Forwarded from the page: the preflight is refused and the call never sent', async () => {
      const shopUrl = `https://${SHOP}:${proxy.port}`;
      const evilHost = new URL(evilOrigin).host;
      const forged = {
        'x-forwarded-host': evilHost,
        forwarded: `host="${evilHost}";proto=http`,
      };
      const before = proxy.passed.length;
      const result = await inPage(
        `${evilOrigin}/`,
        `(async () => {
          try {
            const answer = await fetch(${JSON.stringify(`${shopUrl}/api/checkout/session`)}, {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...${JSON.stringify(forged)} },
              body: JSON.stringify({ order: 'order_1042' }),
            });
            return 'answered ' + answer.status;
          } catch (error) {
            return 'refused: ' + error.name;
          }
        })()`,
      );
      expect(result).toBe('refused: TypeError');
      const seen = proxy.passed.slice(before);
      // Chromium asked first, naming the forged headers; the companion said no; no POST followed.
      expect(seen.map((request) => `${request.method} ${request.status}`)).toEqual(['OPTIONS 403']);
      expect(seen[0]?.origin).toBe(evilOrigin);
      expect(seen[0]?.requestHeaders).toMatch(/x-forwarded-host/);
      expect(seen[0]?.requestHeaders).toMatch(/forwarded/);
      await expect
        .poll(() => app.output())
        .toMatch(/origin_not_allowed: refused OPTIONS \/session/);

      // The same forged headers from curl do get in: not a browser's ambient authority, just
      // the checkout's public calls, which a stranger can make with no Origin at all.
      const fromCurl = await curl(proxy.port, '/api/checkout/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: evilOrigin, ...forged },
        body: JSON.stringify({ order: 'order_1042' }),
      });
      expect(fromCurl.status).toBe(200);
    });
  });
});
