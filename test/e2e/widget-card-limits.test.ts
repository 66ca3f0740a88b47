/**
 * Card testing, as the customer meets its limits in Chromium (issue 20): after repeated declines
 * on one order the card is refused with 429, and the widget says plainly to come back later or
 * pay another way, with the other ways one click away. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { checkoutOn, openTab, sandboxPayments, useChromium } from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

const DECLINED = '4000000000000002';
const FUTURE_EXPIRY = `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  // Two declines an order, so the test needs three cards rather than six.
  shop = await startShop({ companion: { limits: { cardDeclinesPerOrder: 2 } } });
  shop.pages.set('/', buttonPage('scarf-gbp'));
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, cardField: field, dialogText } = checkoutOn(() => page);

async function payWith(number: string): Promise<void> {
  await field('Card number').fill(number);
  await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
  await field('Security code').fill('123');
  await field('Name on card').fill('Amina Bello');
  await button('Pay £49.99').click();
}

it('after repeated declines says to come back later or pay another way, and offers the other ways', async () => {
  await page.goto(`${shop.url}/`);
  await page.locator('#pay').click();
  await page.getByRole('button', { name: /^Card\b/ }).click();
  for (let attempt = 0; attempt < 2; attempt++) {
    await field('Card number').waitFor();
    await payWith(DECLINED);
    await heading('Card declined').waitFor();
    expect(await dialogText()).toContain('your bank can tell you why');
    await button('Try again').click();
  }
  await field('Card number').waitFor();
  await payWith(DECLINED);
  await heading('Too many attempts').waitFor();
  expect(await dialogText()).toContain('Come back later, or pay another way.');
  expect(await dialogText()).not.toContain('Too many card attempts');
  // Two payments reached the provider; the third card never left the companion.
  expect(await sandboxPayments(shop)).toHaveLength(2);

  await button('Choose another way to pay').click();
  await page.getByRole('button', { name: /^Pay from your bank/ }).waitFor();
});
