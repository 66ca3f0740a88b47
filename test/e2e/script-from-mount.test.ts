/**
 * The whole front-end install is one script tag pointing at the companion's mount (issue 21,
 * item 2). A merchant's Express app whose page holds nothing of paydrop but
 * `<script src="/api/checkout/paydrop.js" defer>` and a button, with the companion mounted at
 * /api/checkout in front of the sandbox: the checkout opens in French, its chunks come from the
 * mount, and a transfer is paid. Then the same with the companion on another origin than the
 * shop's page (an API host): the chunks still come from the companion, beside the script.
 * Run `npm run build:widget` first.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHOP_CSP } from '../../demo/policy';
import { type CheckoutHandler, createCheckoutHandler, type PaymentOutcome } from '../../src/server';
import { toExpressMiddleware } from '../../src/server/node';
import { launchChromium } from '../helpers/browser';
import { type Sandbox, startSandbox } from '../helpers/sandbox';

// Transfer only, as the merchant allows it: the checkout goes straight to the account.
const ORDER = {
  amountMinor: 2_500_050,
  currency: 'NGN',
  description: 'Sac fourre-tout',
  channels: ['PayByTransfer' as const],
};
/** What paydrop.js loads, from the chunks' folder beside it. */
const CHUNK = /^\/api\/checkout\/paydrop-[a-z]+\/(\w+)\.js$/;

interface Shop {
  readonly url: string;
  readonly outcomes: PaymentOutcome[];
  close(): Promise<void>;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let sandbox: Sandbox;
const running: Array<() => Promise<void>> = [];

function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

const closing = (server: Server) => () =>
  new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });

/**
 * An Express app with the companion at /api/checkout, as the README mounts it, and `pages` (path
 * → HTML, served with `csp`). The sandbox's webhooks go to it.
 */
async function startShop(
  pages: Record<string, string>,
  companion: { allowedOrigins?: string[] } = {},
): Promise<Shop> {
  const outcomes: PaymentOutcome[] = [];
  let checkout: CheckoutHandler | undefined;
  const app = express();
  app.use('/api/checkout', (request, response, next) =>
    toExpressMiddleware(checkout as CheckoutHandler)(request, response, next),
  );
  for (const [path, html] of Object.entries(pages)) {
    app.get(path, (_request, response) => {
      response.set('content-security-policy', SHOP_CSP).type('html').send(html);
    });
  }
  const { server, url } = await listen(app);
  checkout = createCheckoutHandler({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    resolveOrder: (id) => (id.startsWith('tote-') ? ORDER : null),
    onPaymentOutcome: (outcome) => {
      outcomes.push(outcome);
    },
    logger: { warn: () => {}, error: () => {} },
    ...companion,
  });
  await sandbox.request('POST', '/__sandbox/config', {
    webhookUrl: `${url}/api/checkout/webhooks`,
  });
  const close = closing(server);
  running.push(async () => {
    checkout?.close();
    await close();
  });
  return { url, outcomes, close };
}

/** Uncaught errors, and answers of 400 or more (but the icon no shop here has). */
function failures(target: Page): string[] {
  const seen: string[] = [];
  target.on('pageerror', (error) => seen.push(error.message));
  target.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      seen.push(`${response.status()} ${response.url()}`);
  });
  return seen;
}

/** The .js files the page fetched: path, status and Cache-Control. */
function scriptRequests(target: Page) {
  const seen: Array<{ url: URL; status: number; cache: string | undefined }> = [];
  target.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js'))
      seen.push({ url, status: response.status(), cache: response.headers()['cache-control'] });
  });
  return seen;
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  sandbox = await startSandbox();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
  for (const close of running.splice(0)) await close();
  await sandbox?.close();
});

const dialog = (target: Page) => target.locator('paydrop-checkout dialog');

describe('<script src="/api/checkout/paydrop.js" defer> is the whole install', () => {
  it('opens the checkout in French with its chunks from the mount, and a transfer is paid', async () => {
    const shop = await startShop({
      '/': `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Boutique</title>
<script src="/api/checkout/paydrop.js" defer></script></head>
<body><button data-paydrop-order="tote-1" data-paydrop-endpoint="/api/checkout">Payer</button></body></html>`,
    });
    const scripts = scriptRequests(page);
    const errors = failures(page);
    await page.goto(`${shop.url}/`);
    await page.getByRole('button', { name: 'Payer' }).click();
    // French, in the page's language: the heading of the transfer step and its account.
    const heading = dialog(page).getByRole('heading', { name: 'Virez sur ce compte' });
    await heading.waitFor();
    await dialog(page)
      .getByText(/^25\s000,50\s₦$/)
      .first()
      .waitFor();
    expect(await dialog(page).getAttribute('lang')).toBe('fr');
    await dialog(page).getByText('Numéro de compte').waitFor();

    // Every script came from the mount: the loader, then the checkout, French and the transfer
    // beside it.
    expect(scripts.every(({ url }) => url.origin === shop.url)).toBe(true);
    const paths = scripts.map(({ url }) => url.pathname);
    expect(paths[0]).toBe('/api/checkout/paydrop.js');
    const chunks = paths.flatMap((path) => CHUNK.exec(path)?.[1] ?? []);
    expect(chunks).toContain('fr');
    expect(chunks).toContain('checkout');
    expect(chunks).toContain('transfer');
    expect(paths.filter((path) => !path.startsWith('/api/checkout/'))).toEqual([]);
    expect(
      paths.filter((path) => path !== '/api/checkout/paydrop.js' && !CHUNK.test(path)),
    ).toEqual([]);
    for (const { url, status, cache } of scripts) {
      expect(status, url.pathname).toBe(200);
      expect(cache, url.pathname).toBe(
        CHUNK.test(url.pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    }

    // The customer transfers the money; the sandbox's webhook reaches the companion.
    const answer = await sandbox.request('GET', '/__sandbox/payments');
    const { payments } = (await answer.json()) as { payments: Array<{ reference: string }> };
    const reference = payments.at(-1)?.reference ?? '';
    expect(
      (await sandbox.request('POST', `/__sandbox/payments/${reference}/transfer`)).status,
    ).toBe(200);
    await dialog(page).getByRole('heading', { name: 'Paiement reçu' }).waitFor();
    await expect.poll(() => shop.outcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
    expect(errors).toEqual([]);
  });

  it('loads the chunks from the companion when it is on another origin than the page', async () => {
    // The shop's page on one origin; the companion on an API host of its own, which allows it.
    let apiUrl = '';
    const pageApp = express();
    pageApp.get('/', (_request, response) => {
      response
        .set('content-security-policy', SHOP_CSP.replace(/'self'/g, `'self' ${apiUrl}`))
        .type('html')
        .send(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Boutique</title>
<script src="${apiUrl}/api/checkout/paydrop.js" defer></script></head>
<body><button data-paydrop-order="tote-2" data-paydrop-endpoint="${apiUrl}/api/checkout">Payer</button></body></html>`);
    });
    const shop = await listen(pageApp);
    running.push(closing(shop.server));
    const api = await startShop({}, { allowedOrigins: [shop.url] });
    apiUrl = api.url;
    const scripts = scriptRequests(page);
    const errors = failures(page);
    await page.goto(`${shop.url}/`);
    await page.getByRole('button', { name: 'Payer' }).click();
    await dialog(page).getByRole('heading', { name: 'Virez sur ce compte' }).waitFor();
    const fromApi = scripts.filter(({ url }) => url.origin === api.url);
    expect(fromApi.length).toBe(scripts.length);
    expect(fromApi.map(({ url }) => CHUNK.exec(url.pathname)?.[1])).toEqual(
      expect.arrayContaining(['checkout', 'fr', 'transfer']),
    );
    expect(fromApi.every(({ status }) => status === 200)).toBe(true);
    expect(errors).toEqual([]);
  });
});
