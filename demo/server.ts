/**
 * `npm start`: the demo on PORT (default 3000): the shop at `/` (script tag) and `/spa` (npm
 * module), the companion at `/api/checkout`, an embedded sandbox at `/sandbox` (its
 * `{base_url}`), the sandbox controls at `/demo/sandbox/*` (the server adds the key), new
 * one-time payment links at `POST /demo/link` (made here, with the key, through the provider
 * client), a live log at `/demo/events`, and the back office at `/back-office` behind a staff
 * password (BACK_OFFICE_PASSWORD, or one made up and printed here). With PROVIDER_BASE_URL set the companion talks to
 * that provider instead. The companion keeps its state in SQLite under PAYDROP_DATA_DIR (default
 * `.paydrop/`), or in Redis when REDIS_URL is set.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { serve } from '../src/node/serve';
import { isSafeUrl } from '../src/protocol/url';
import { createSandboxHandler, isDroppedResponse } from '../src/sandbox';
import { SANDBOX_TEST_KEY } from '../src/sandbox/test-data';
import {
  type CheckoutStore,
  createCheckoutHandler,
  createProviderClient,
  type ProviderClient,
} from '../src/server';
import { createRedisStore } from '../src/server/store/redis';
import { createSqliteStore } from '../src/server/store/sqlite';
import { generatePassword } from './back-office-login';
import { createDemoBackOffice } from './back-office-server';
import {
  DEMO_LINK,
  demoLinkPaid,
  rememberDemoLink,
  resolveDemoLink,
  resolveDemoOrder,
} from './catalogue';
import { SHOP_CSP, TYPES } from './policy';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number from 0 to 65535, not "${process.env.PORT}".`);
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const secretKey = process.env.PROVIDER_SECRET_KEY || SANDBOX_TEST_KEY;
const externalProvider = process.env.PROVIDER_BASE_URL;
/** The back office's staff password: yours, or a fresh one per start, printed below. */
const backOfficePassword = process.env.BACK_OFFICE_PASSWORD || generatePassword();
if (backOfficePassword.length < 8) {
  console.error('BACK_OFFICE_PASSWORD must be at least 8 characters.');
  process.exit(1);
}
const sandbox = externalProvider
  ? undefined
  : createSandboxHandler({ secretKey, basePath: '/sandbox' });
/** One setting switches from one instance (SQLite, nothing to run) to several (Redis). */
const storePlace = process.env.REDIS_URL
  ? 'Redis (REDIS_URL)'
  : join(process.env.PAYDROP_DATA_DIR || '.paydrop', 'checkout.db');
const store: CheckoutStore = process.env.REDIS_URL
  ? createRedisStore({ url: process.env.REDIS_URL })
  : createSqliteStore({ path: storePlace });
// The embedded sandbox starts empty on every run; what the companion remembers of the last run's
// payments would name references it never made, so the two start fresh together. With
// PROVIDER_BASE_URL the provider outlives the demo, and so does the companion's state.
if (sandbox) await store.clear();

/** Files the browser may fetch, and nothing else from the disk. */
const FILES: Record<string, string> = {
  '/': 'demo/index.html',
  '/spa': 'demo/spa.html',
  '/demo/controls': 'demo/controls.html',
  '/demo/demo.css': 'demo/demo.css',
  '/demo/controls.js': 'demo/controls.js',
  '/demo/logo.svg': 'demo/logo.svg',
};

async function file(path: string): Promise<Response> {
  // No icon: an empty answer keeps a 404 off the newcomer's console.
  if (path === '/favicon.ico') return new Response(null, { status: 204 });
  // The SPA's bundle with its chunks, by names that cannot leave dist/. (The script tag and its
  // chunks are the companion's: /api/checkout/paydrop.js, as a merchant installs it.)
  const spaFile = /^\/demo\/([\w-]+\.js(\.map)?)$/.exec(path)?.[1];
  const name = FILES[path] ?? (spaFile ? `dist/demo/${spaFile}` : undefined);
  if (!name)
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  try {
    const body = await readFile(new URL(`../${name}`, import.meta.url));
    const type = TYPES[extname(name)] ?? 'text/html; charset=utf-8';
    return new Response(body, {
      headers: {
        'content-type': type,
        'cache-control': 'no-cache',
        ...(type.startsWith('text/html') ? { 'content-security-policy': SHOP_CSP } : {}),
      },
    });
  } catch {
    const hint = name.startsWith('dist/') ? ' Run `npm run build:widget` (npm start does).' : '';
    return new Response(`Missing ${name}.${hint}`, {
      status: 500,
      headers: { 'content-type': 'text/plain' },
    });
  }
}

/** The live log: webhook arrivals and payment outcomes, pushed to every open demo page. */
const listeners = new Set<(line: { kind: string; text: string }) => void>();
function logLine(kind: string, text: string): void {
  for (const listener of listeners) listener({ kind, text });
}

function logStream(request: Request): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: { kind: string; text: string }) =>
        controller.enqueue(encoder.encode(`event: log\ndata: ${JSON.stringify(line)}\n\n`));
      const ping = setInterval(() => controller.enqueue(encoder.encode(': ping\n\n')), 15_000);
      listeners.add(send);
      stop = () => {
        listeners.delete(send);
        clearInterval(ping);
      };
      request.signal.addEventListener('abort', () => {
        stop();
        controller.close();
      });
    },
    cancel: () => stop(),
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
  });
}

/** The sandbox controls, with the key added here so that it never reaches the page. */
async function control(request: Request, path: string): Promise<Response> {
  if (!sandbox)
    return Response.json(
      { error: 'The demo is using a real provider; no sandbox controls.' },
      { status: 404 },
    );
  const origin = new URL(request.url).origin;
  const forward = (method: string, target: string, body?: unknown) =>
    sandbox(
      new Request(`${origin}/sandbox/__sandbox${target}`, {
        method,
        headers: {
          'X-Api': secretKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const body = request.method === 'POST' ? await request.json().catch(() => ({})) : undefined;
  const reference = /^\/payments\/([\w.:-]{1,128})\/(transfer|bank)$/.exec(path);
  if (request.method === 'GET' && path === '/payments') return forward('GET', '/payments');
  if (request.method === 'POST' && reference)
    return forward('POST', `/payments/${reference[1]}/${reference[2]}`, body);
  if (request.method === 'POST' && path === '/clock') return forward('POST', '/clock', body);
  if (request.method === 'POST' && path === '/faults') return forward('POST', '/config', body);
  if (request.method === 'POST' && path === '/reset') {
    const answer = await forward('POST', '/reset');
    // The companion forgets the payments of the sandbox that forgot them.
    await store.clear();
    await forward('POST', '/config', { webhookUrl: `${origin}/api/checkout/webhooks` });
    return answer;
  }
  return Response.json({ error: 'No such control.' }, { status: 404 });
}

/** A page of another site may not work the demo's controls or make its links. */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  // As the companion checks: a browser that says the call is cross-site, without an Origin, is
  // not trusted either.
  if (origin === null) return request.headers.get('sec-fetch-site') !== 'cross-site';
  return origin === new URL(request.url).origin;
}

let provider: ProviderClient | undefined;

/**
 * A fresh one-time payment link, made here through the provider client (the key never reaches
 * the page); the companion's resolveLink knows it from then on.
 */
async function newLink(): Promise<Response> {
  if (!provider) return Response.json({ error: 'Not ready.' }, { status: 503 });
  try {
    const link = await provider.createPaymentLink({
      name: DEMO_LINK.name,
      description: DEMO_LINK.description,
      linkType: 'OneTime',
      currency: DEMO_LINK.currency,
      amount: { amountMinor: DEMO_LINK.amountMinor, currency: DEMO_LINK.currency },
    });
    rememberDemoLink(link.alias, {
      amountMinor: DEMO_LINK.amountMinor,
      currency: DEMO_LINK.currency,
      description: DEMO_LINK.description,
    });
    logLine('control', `payment link ${link.alias} created (${DEMO_LINK.description}, one-time)`);
    // The provider's hosted page for the link is on the provider's origin; the shop pays it in
    // its own checkout instead, so only the alias goes to the page.
    return Response.json(
      { alias: link.alias, description: DEMO_LINK.description },
      { status: 201, headers: { 'cache-control': 'no-store' } },
    );
  } catch (error) {
    console.error('demo: could not create a payment link', error);
    return Response.json(
      { error: 'The provider did not create a payment link. Try again.' },
      { status: 502 },
    );
  }
}

let checkout: ReturnType<typeof createCheckoutHandler> | undefined;
let backOffice: ReturnType<typeof createDemoBackOffice> | undefined;

const running = await serve(
  async (request) => {
    const { pathname } = new URL(request.url);
    if (sandbox && (pathname === '/sandbox' || pathname.startsWith('/sandbox/')))
      return sandbox(request);
    if (checkout && (pathname === '/api/checkout' || pathname.startsWith('/api/checkout/'))) {
      if (pathname === '/api/checkout/webhooks') {
        const copy = request.clone();
        void copy
          .json()
          .then((event: { event?: string; data?: { reference?: string } }) =>
            logLine('webhook', `webhook ${event.event} for ${event.data?.reference}`),
          )
          .catch(() => {});
      }
      return checkout(request);
    }
    if (pathname === '/demo/events') return logStream(request);
    if (backOffice?.handles(pathname)) return backOffice.handle(request);
    if (
      (pathname === '/demo/link' || pathname.startsWith('/demo/sandbox/')) &&
      !sameOrigin(request)
    )
      return Response.json({ error: 'Only the demo pages may do this.' }, { status: 403 });
    if (pathname === '/demo/link') {
      return request.method === 'POST'
        ? newLink()
        : Response.json({ error: 'POST to make a link.' }, { status: 405 });
    }
    if (pathname.startsWith('/demo/sandbox/'))
      return control(request, pathname.slice('/demo/sandbox'.length));
    if (request.method === 'GET' || request.method === 'HEAD') return file(pathname);
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  },
  { port, host, isDropped: isDroppedResponse },
);

// The provider answers on an origin of its own, as in production (SANDBOX_PORT, default any free
// port): its bank and hosted card pages are cross-origin to the shop, so no script of the shop's
// page can read what the customer types there. `/sandbox` on the shop's origin stays for tools.
const providerServer = sandbox
  ? await serve((request) => sandbox(request), {
      port: Number(process.env.SANDBOX_PORT ?? 0),
      host,
      isDropped: isDroppedResponse,
    })
  : undefined;
const baseUrl = externalProvider ?? `${providerServer?.url}/sandbox`;
checkout = createCheckoutHandler({
  secretKey,
  baseUrl,
  publicUrl: `${running.url}/api/checkout`,
  resolveOrder: resolveDemoOrder,
  resolveLink: resolveDemoLink,
  // Who the customer pays, named at the top of the checkout (issue 23). The brand colour keeps
  // its contrast on the light dialog only, so the dark one keeps the checkout's own blue. The logo
  // is the shop's own file (https:, or http: on this machine, as the companion checks).
  merchant: {
    name: 'Indigo & Oat',
    ...(isSafeUrl(`${running.url}/demo/logo.svg`)
      ? { logoUrl: `${running.url}/demo/logo.svg` }
      : {}),
    brandColor: '#1f5f8b',
  },
  // Cards are paid on the provider's hosted page (the default); the mug keeps the card frame
  // (demo/catalogue.ts), so the demo shows both paths.
  store,
  // The sandbox has one webhook URL, the checkout's: it shares payout moves with the back office.
  onPayoutOutcome: (outcome) => backOffice?.publishPayoutOutcome(outcome),
  onPaymentOutcome: (outcome) => {
    if (outcome.linkAlias && outcome.status === 'SUCCESSFUL') demoLinkPaid(outcome.linkAlias);
    const what = outcome.linkAlias ? `link ${outcome.linkAlias}` : `order ${outcome.orderId}`;
    const text = `payment ${outcome.reference}: ${outcome.status} (${what}), confirmed with the provider`;
    console.log(text);
    logLine('outcome', text);
  },
});
provider = createProviderClient({ secretKey, baseUrl });
backOffice = createDemoBackOffice({
  secretKey,
  baseUrl,
  sandbox,
  store,
  password: backOfficePassword,
  publicUrl: running.url,
});
if (sandbox) sandbox.world().config.webhookUrl = `${running.url}/api/checkout/webhooks`;

console.log(`paydrop demo ready at ${running.url}/`);
console.log(
  `  companion: ${running.url}/api/checkout   provider: ${externalProvider ?? `${baseUrl} (sandbox)`}`,
);
console.log(`  state: ${storePlace}`);
console.log(
  `  back office: ${running.url}/back-office   password: ${process.env.BACK_OFFICE_PASSWORD ? '(BACK_OFFICE_PASSWORD)' : backOfficePassword}`,
);
const stop = () => {
  checkout?.close();
  backOffice?.close();
  sandbox?.close();
  void providerServer?.close();
  void running
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
