/**
 * paydrop/react in Chromium, in a React 19 app and the same app on React 18 (issue 21: both are
 * supported), built the way a merchant builds one: `vite build`
 * of test/consumers/react-app (react-dom/client, <StrictMode>, a PayButton imported from the
 * packed package) in the consumer project, served with the companion and the sandbox by a real
 * server under the strict CSP. The button opens one checkout, the customer pays by transfer,
 * onSuccess fires once with the payment, and taking the button away closes the dialog.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentSummary } from '../../src/index';
import { intoConsumer, packedPackage } from '../consumers/packed-package';
import { react18Modules } from '../consumers/react18';
import { checkoutOn, latestSandboxPayment, openTab, useChromium } from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

const run = promisify(execFile);

interface Heard {
  /** React's version, as the app's React says it. */
  readonly react: string;
  readonly mounts: number;
  readonly successes: PaymentSummary[];
  readonly closes: string[];
}

const browser = useChromium();
/** The built app: its page and its scripts by path. */
let app: { html: string; scripts: Map<string, string> };
let shop: Shop;
let context: BrowserContext;
let page: Page;
let sessionCalls: number;
let pageErrors: string[];

describe.each([19, 18])('React %i', (react) => {
  beforeAll(async () => {
    const packed = packedPackage();
    intoConsumer(packed, ['react-app']);
    const folder = join(packed.consumer, 'react-app');
    const dist = join(folder, `dist-react-${react}`);
    await run(
      process.execPath,
      [join(packed.consumer, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
      {
        cwd: folder,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          OUT_DIR: dist,
          ...(react === 18 ? { REACT_MODULES: react18Modules() } : {}),
        },
      },
    );
    const scripts = new Map<string, string>();
    for (const name of await readdir(join(dist, 'assets'))) {
      if (name.endsWith('.js')) {
        scripts.set(`/assets/${name}`, await readFile(join(dist, 'assets', name), 'utf8'));
      }
    }
    app = { html: await readFile(join(dist, 'index.html'), 'utf8'), scripts };
  }, 240_000);

  beforeEach(async () => {
    shop = await startShop();
    shop.pages.set('/', app.html);
    for (const [path, code] of app.scripts) shop.scripts.set(path, code);
    ({ context, page } = await openTab(browser()));
    sessionCalls = 0;
    pageErrors = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/checkout/session') sessionCalls++;
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  });

  afterEach(async () => {
    await context?.close();
    await shop?.close();
  });

  const { heading, dialog } = checkoutOn(() => page);
  const heard = () => page.evaluate(() => (window as unknown as { __shop: Heard }).__shop);
  const checkouts = () => page.locator('paydrop-checkout').count();

  it('opens one checkout under StrictMode, pays by transfer, reports once, and closes when the button goes', async () => {
    await page.goto(`${shop.url}/`);
    const payButton = page.getByRole('button', { name: 'Pay ₦25,000.50' });
    await payButton.waitFor();
    // The React the test asked for, in its development build: StrictMode has mounted the app,
    // unmounted it and mounted it again.
    expect((await heard()).react).toMatch(new RegExp(`^${react}\\.`));
    expect((await heard()).mounts).toBe(2);
    expect(await checkouts()).toBe(0);

    await payButton.click();
    await heading('Transfer to this account').waitFor();
    expect(await checkouts()).toBe(1);
    expect(await dialog().count()).toBe(1);
    expect(sessionCalls).toBe(1);

    const payment = await latestSandboxPayment<{ reference: string }>(shop);
    const transfer = await shop.sandbox(
      'POST',
      `/__sandbox/payments/${payment.reference}/transfer`,
    );
    expect(transfer.status).toBe(200);
    await heading('Payment received').waitFor({ timeout: 10_000 });
    // The app re-rendered with the payment (new callbacks), behind the dialog that stays open.
    await page
      .getByRole('status')
      .filter({ hasText: `Paid: ${payment.reference}` })
      .waitFor();
    expect(await checkouts()).toBe(1);

    // The app takes the button away (the page behind the modal is inert to the customer, not to
    // the app): its checkout closes with it.
    await page.evaluate(() => document.getElementById('toggle')?.click());
    await page.getByText('The pay button is gone.').waitFor();
    expect(await checkouts()).toBe(0);
    const { successes, closes } = await heard();
    expect(successes).toEqual([
      {
        reference: payment.reference,
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
      },
    ]);
    expect(closes).toEqual(['succeeded']);
    expect(sessionCalls).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('closes the checkout mid-payment when the button goes, and opens a fresh one when it is back', async () => {
    await page.goto(`${shop.url}/`);
    await page.getByRole('button', { name: 'Pay ₦25,000.50' }).click();
    await heading('Transfer to this account').waitFor();

    await page.evaluate(() => document.getElementById('toggle')?.click());
    await page.getByText('The pay button is gone.').waitFor();
    expect(await checkouts()).toBe(0);
    expect((await heard()).closes).toEqual(['pending']);

    await page.getByRole('button', { name: 'Show the pay button' }).click();
    await page.getByRole('button', { name: 'Pay ₦25,000.50' }).click();
    await heading('Transfer to this account').waitFor();
    expect(await checkouts()).toBe(1);
    expect((await heard()).successes).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
