/**
 * Links titled as links (issue 12, item 7), in Chromium: a one-time payment link paid already and
 * opened again shows "Already paid" in a dialog named for the link ("Checkout Invoice 0042"), not
 * a bare "Checkout", without "Pay …" above it. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedOrder } from '../../src/server';
import {
  checkoutOn,
  keepScreenshot,
  latestSandboxPayment,
  openTab,
  useChromium,
} from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

let links: Map<string, ResolvedOrder>;
const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  links = new Map();
  shop = await startShop({ companion: { resolveLink: (alias) => links.get(alias) ?? null } });
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(8000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, shown, dialog } = checkoutOn(() => page);

function linkPage(alias: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/paydrop.js" defer></script></head>
<body><main><h1>Invoice 0042</h1><button id="pay" data-paydrop-link="${alias}" data-paydrop-endpoint="/api/checkout">Pay this invoice</button></main></body></html>`;
}

describe('a paid payment link opened again', () => {
  it('is titled for the link, says it is paid, and asks for nothing', async () => {
    const created = await shop.sandbox('POST', '/api/payment/payment-link', {
      name: 'Invoice 0042',
      description: 'Adire tote bags, wholesale',
      linkType: 0,
      amountType: 0,
      currencyCode: 'NGN',
      amountInfo: { currencyCode: 'NGN', amount: 25_000.5 },
    });
    const { value } = (await created.json()) as { value: { alias: string } };
    links.set(value.alias, {
      amountMinor: 2_500_050,
      currency: 'NGN',
      description: 'Invoice 0042',
      channels: ['PayByTransfer'],
    });
    shop.pages.set('/', linkPage(value.alias));
    await page.goto(`${shop.url}/`);

    // Paid through the dialog once.
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    const { reference } = await latestSandboxPayment<{ reference: string }>(shop);
    expect((await shop.sandbox('POST', `/__sandbox/payments/${reference}/transfer`)).status).toBe(
      200,
    );
    await heading('Payment received').waitFor({ timeout: 10_000 });
    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);

    // Opened again: the companion answers already_paid with what the link is.
    await page.reload();
    await page.locator('#pay').click();
    await shown('This has already been paid. There is nothing more to pay.').waitFor();
    expect(await heading('Already paid').count()).toBe(1);
    // Named for the checkout and the link, as any other checkout is.
    expect(await page.getByRole('dialog', { name: 'Checkout Invoice 0042' }).count()).toBe(1);
    expect(await dialog().getByRole('heading', { name: 'Invoice 0042' }).count()).toBe(1);
    // Nothing more to pay: no "Pay ₦25,000.50" above "Already paid".
    expect(await dialog().innerText()).not.toContain('Pay ₦');
    await keepScreenshot(page, 'link-already-paid');
  });
});
