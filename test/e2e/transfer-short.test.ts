/**
 * A transfer short of the amount (issue 12, item 2), in Chromium: the customer is told what
 * arrived and what is missing, in English and in French, that the payment did not go through and
 * not to send the rest to this account; the page's failure event and the merchant's outcome carry
 * `transfer_short`. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  keepScreenshot,
  latestSandboxPayment,
  openTab,
  RECORDER_TAG,
  recordedEvents,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

const browser = useChromium();
let shop: Shop | undefined;
let context: BrowserContext | undefined;
let page: Page;

afterEach(async () => {
  await context?.close();
  await shop?.close();
  context = undefined;
  shop = undefined;
});

const { heading, button, dialogText } = checkoutOn(() => page);

function shopPage(locale: 'en' | 'fr'): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/paydrop.js" defer></script>${RECORDER_TAG}</head>
<body><main><h1>Shop</h1><button id="pay" data-paydrop-order="tote-ngn" data-paydrop-endpoint="/api/checkout" data-paydrop-locale="${locale}">Pay</button></main></body></html>`;
}

async function payShort(locale: 'en' | 'fr', transferHeading: RegExp): Promise<string> {
  const started = await startShop();
  shop = started;
  serveRecorder(started);
  started.pages.set('/', shopPage(locale));
  ({ context, page } = await openTab(browser()));
  await page.goto(`${started.url}/`);
  await page.locator('#pay').click();
  await heading(transferHeading).waitFor();
  const { reference } = await latestSandboxPayment<{ reference: string }>(started);
  // ₦20,000.00 of ₦25,000.50 arrives.
  const answer = await started.sandbox('POST', `/__sandbox/payments/${reference}/transfer`, {
    amount: 20_000,
  });
  expect(answer.status).toBe(200);
  return reference;
}

describe('a transfer short of the amount', () => {
  it('says what arrived and what is missing, and what to do', async () => {
    const reference = await payShort('en', /^Transfer to this account$/);
    await heading('Transfer short of the amount').waitFor({ timeout: 5000 });
    const text = await dialogText();
    expect(text).toContain('₦20,000.00 arrived, ₦5,000.50 is missing.');
    expect(text).toContain('The payment did not go through.');
    expect(text).toContain('Do not send the rest to this account');
    expect(text).not.toContain('your bank will return it');
    expect(await button('Try again').isVisible()).toBe(true);
    expect(await button('Close').first().isVisible()).toBe(true);
    await expect
      .poll(async () => (await recordedEvents(page)).map((event) => event.type))
      .toEqual(['failure']);
    expect((await recordedEvents(page))[0]?.detail?.code).toBe('transfer_short');
    await expect
      .poll(() => shop?.outcomes.map((outcome) => [outcome.reference, outcome.reason]))
      .toEqual([[reference, 'transfer_short']]);
    await keepScreenshot(page, 'transfer-short-en');
  });

  it('says it in French', async () => {
    await payShort('fr', /^Virez /);
    await heading('Virement inférieur au montant').waitFor({ timeout: 5000 });
    const text = await dialogText();
    expect(text).toContain('20 000,00 ₦ sont arrivés, il manque 5 000,50 ₦.');
    expect(text).toContain('Le paiement n’a pas abouti.');
    await keepScreenshot(page, 'transfer-short-fr');
  });
});
