/**
 * Payment links in Chromium, through the script tag on a shop page with the strict CSP: a one-time
 * link the merchant created at the provider is paid through the same dialog, a second visit is
 * told kindly that there is nothing more to pay, and an alias the merchant does not know is
 * refused. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedOrder } from '../../src/server';
import {
  checkoutOn,
  latestSandboxPayment,
  openTab,
  RECORDER_TAG,
  type RecordedDetail,
  recordedEvents,
  recordedViolations,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

/** An event's detail here also carries the error a failed one ended with. */
interface LinkDetail extends RecordedDetail {
  readonly error?: { code?: string };
}

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
  readonly channel: string;
  readonly linkAlias: string | null;
}

/** What the merchant's resolveLink knows, by alias. */
let links: Map<string, ResolvedOrder>;
const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  links = new Map();
  shop = await startShop({
    companion: { cardEntry: 'direct', resolveLink: (alias) => links.get(alias) ?? null },
  });
  serveRecorder(shop);
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(8000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, shown, dialogText } = checkoutOn(() => page);
const events = () => recordedEvents<LinkDetail>(page);
const violations = () => recordedViolations(page);
const payments = () => sandboxPayments<SandboxPayment>(shop);

/** A page with one pay button for the payment link `alias`. */
function linkPage(alias: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${RECORDER_TAG}<script src="/paydrop.js" defer></script></head>
<body><main><h1>Invoice 0042</h1><button id="pay" data-paydrop-link="${alias}" data-paydrop-endpoint="/api/checkout">Pay this invoice</button></main></body></html>`;
}

/**
 * Creates a one-time link for NGN 25,000.50 at the provider (the sandbox), as the merchant's back
 * office would, and teaches the merchant's resolveLink its alias.
 */
async function createOneTimeLink(): Promise<string> {
  const answer = await shop.sandbox('POST', '/api/payment/payment-link', {
    name: 'Invoice 0042',
    description: 'Adire tote bags, wholesale',
    linkType: 0,
    amountType: 0,
    currencyCode: 'NGN',
    amountInfo: { currencyCode: 'NGN', amount: 25_000.5 },
  });
  expect(answer.status).toBe(200);
  const { value } = (await answer.json()) as { value: { alias: string; linkType: string } };
  expect(value.linkType).toBe('OneTime');
  expect(value.alias).toMatch(/^\w+$/);
  links.set(value.alias, {
    amountMinor: 2_500_050,
    currency: 'NGN',
    description: 'Invoice 0042',
    channels: ['PayByTransfer'],
  });
  return value.alias;
}

/** What the provider's hosted page says about the link. */
async function hostedLinkPage(alias: string): Promise<string> {
  return (await fetch(`${shop.url}/sandbox/pages/link/${alias}`)).text();
}

/** Pays the link through the dialog: the account, then the customer's transfer into it. */
async function payLink(): Promise<SandboxPayment> {
  await page.locator('#pay').click();
  await heading('Transfer to this account').waitFor();
  const payment = await latestSandboxPayment<SandboxPayment>(shop);
  const transfer = await shop.sandbox('POST', `/__sandbox/payments/${payment.reference}/transfer`);
  expect(transfer.status).toBe(200);
  await heading('Payment received').waitFor({ timeout: 10_000 });
  return payment;
}

describe('payment links in the dialog', () => {
  it('pays a one-time link through the dialog, and the merchant hears which link was paid', async () => {
    const alias = await createOneTimeLink();
    shop.pages.set('/', linkPage(alias));
    await page.goto(`${shop.url}/`);
    expect(await hostedLinkPage(alias)).toContain('<label for="number">Card number</label>');

    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    expect(await dialogText()).toContain('Invoice 0042');
    const [payment] = await payments();
    expect(payment).toMatchObject({
      channel: 'PayByTransfer',
      status: 'PENDING',
      linkAlias: alias,
    });
    expect(await payments()).toHaveLength(1);

    if (!payment) throw new Error('no payment');
    const transfer = await shop.sandbox(
      'POST',
      `/__sandbox/payments/${payment.reference}/transfer`,
    );
    expect(transfer.status).toBe(200);
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain('Thank you! Your payment of ₦25,000.50 is confirmed.');

    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect((await events())[0]).toEqual({
      type: 'success',
      target: 'pay',
      detail: {
        reference: payment.reference,
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
      },
    });
    await expect.poll(() => shop.outcomes.length).toBe(1);
    expect(shop.outcomes[0]).toEqual({
      reference: payment.reference,
      status: 'SUCCESSFUL',
      orderId: null,
      linkAlias: alias,
      channel: 'PayByTransfer',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
      amountMatches: true,
      // The first success of this link (the companion flags a second one, issue 9).
      duplicate: false,
      duplicateOf: null,
    });
    // The provider has the one-time link as paid.
    expect(await hostedLinkPage(alias)).toContain('This link has already been paid.');
    expect(await violations()).toEqual([]);
  });

  it('pays a one-time USD link by card', async () => {
    const answer = await shop.sandbox('POST', '/api/payment/payment-link', {
      name: 'Invoice 0043',
      linkType: 0,
      amountType: 0,
      currencyCode: 'USD',
      amountInfo: { currencyCode: 'USD', amount: 18 },
    });
    const { alias } = ((await answer.json()) as { value: { alias: string } }).value;
    links.set(alias, { amountMinor: 1_800, currency: 'USD', description: 'Invoice 0043' });
    shop.pages.set('/', linkPage(alias));
    await page.goto(`${shop.url}/`);

    await page.locator('#pay').click();
    const card = page.frameLocator('paydrop-checkout iframe.card-frame');
    await card.getByLabel('Card number', { exact: true }).fill('4242424242424242');
    await card.getByLabel('Expiry date (MM / YY)', { exact: true }).fill('12 / 39');
    await card.getByLabel('Security code', { exact: true }).fill('123');
    await card.getByLabel('Name on card', { exact: true }).fill('Amina Bello');
    await button('Pay $18.00').click();
    await heading('Payment received').waitFor({ timeout: 10_000 });

    const [payment] = await payments();
    expect(payment).toMatchObject({ channel: 'Card', status: 'SUCCESSFUL', linkAlias: alias });
    await expect.poll(() => shop.outcomes.length).toBe(1);
    expect(shop.outcomes[0]).toMatchObject({
      reference: payment?.reference,
      status: 'SUCCESSFUL',
      orderId: null,
      linkAlias: alias,
      channel: 'Card',
      amountMatches: true,
    });
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect(await hostedLinkPage(alias)).toContain('This link has already been paid.');
    expect(await violations()).toEqual([]);
  });

  it('tells a customer who opens a paid one-time link that there is nothing more to pay', async () => {
    const alias = await createOneTimeLink();
    shop.pages.set('/', linkPage(alias));
    await page.goto(`${shop.url}/`);
    const paid = await payLink();
    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);

    // The same link again, later, in a fresh visit.
    await page.reload();
    await page.locator('#pay').click();
    await shown('This has already been paid. There is nothing more to pay.').waitFor({
      timeout: 10_000,
    });
    expect(await heading('Already paid').count()).toBe(1);
    expect(await button('Try again').count()).toBe(0);
    expect(await page.locator('paydrop-checkout .account').count()).toBe(0);
    expect(await heading(/^Transfer/).count()).toBe(0);
    // Nothing new was started at the provider, and nothing new reached the merchant.
    expect((await payments()).map((payment) => payment.reference)).toEqual([paid.reference]);
    expect(shop.outcomes).toHaveLength(1);

    // The page learns why, however the dialog ends.
    await button('Close').last().click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    await expect
      .poll(async () => (await events()).map((event) => [event.type, event.target]))
      .toEqual([
        ['failure', 'pay'],
        ['close', 'pay'],
      ]);
    expect((await events())[0]?.detail?.code).toBe('already_paid');
    expect((await events())[1]?.detail).toMatchObject({
      status: 'failed',
      error: { code: 'already_paid' },
    });
    expect(await violations()).toEqual([]);
  });

  it('says an alias the merchant does not know cannot be paid', async () => {
    await createOneTimeLink();
    // An alias neither the merchant nor the provider has.
    shop.pages.set('/', linkPage('zzunknown9'));
    await page.goto(`${shop.url}/`);

    await page.locator('#pay').click();
    await shown('This order cannot be paid. It may have been paid already or cancelled.').waitFor({
      timeout: 10_000,
    });
    expect(await button('Try again').count()).toBe(0);
    expect(await heading(/^Transfer/).count()).toBe(0);
    expect(await payments()).toEqual([]);

    await button('Close').last().click();
    await expect
      .poll(async () => (await events()).map((event) => event.type))
      .toEqual(['failure', 'close']);
    expect((await events())[0]?.detail?.code).toBe('order_not_found');
    expect(shop.outcomes).toEqual([]);
    expect(await violations()).toEqual([]);
  });
});
