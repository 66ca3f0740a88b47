/**
 * Never stuck on one channel (issue 12, item 1): from the transfer's account the customer can
 * choose another way, the account stays open and is offered to continue, and a customer who
 * comes back to the order gets both. Against the sandbox in Chromium. Run `npm run build:widget`
 * first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  keepScreenshot,
  openTab,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, DEFAULT_ORDERS, type Shop, startShop } from '../helpers/shop';

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
  readonly channel: string;
}

const FUTURE_EXPIRY = `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  shop = await startShop({
    companion: { cardEntry: 'direct' },
    orders: {
      ...DEFAULT_ORDERS,
      // NGN with every channel the provider offers for it: transfer and card.
      'tote-any': { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
    },
  });
  serveRecorder(shop);
  shop.pages.set('/', buttonPage('tote-any'));
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, cardField: field } = checkoutOn(() => page);
const payments = () => sandboxPayments<SandboxPayment>(shop);

describe('another way to pay', () => {
  it('from the transfer account to Card, the transfer kept to continue, and paid by card', async () => {
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading('How would you like to pay?').waitFor();
    await page.getByRole('button', { name: /^Bank transfer\b/ }).click();
    await heading('Transfer to this account').waitFor();
    const account = await page.locator('paydrop-checkout .account').innerText();

    await button('Choose another way to pay').click();
    await heading('How would you like to pay?').waitFor();
    await keepScreenshot(page, 'another-way-list');
    // The open transfer is offered to continue: the same account, nothing initiated again.
    await button('Continue with your bank transfer').click();
    await heading('Transfer to this account').waitFor();
    expect(await page.locator('paydrop-checkout .account').innerText()).toBe(account);
    expect(await payments()).toHaveLength(1);

    await button('Choose another way to pay').click();
    await page.getByRole('button', { name: /^Card\b/ }).click();
    await field('Card number').fill('4242424242424242');
    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    await page.getByRole('button', { name: /^Pay ₦/ }).click();
    await heading('Payment received').waitFor();
    const channels = (await payments()).map((payment) => [payment.channel, payment.status]);
    expect(channels).toEqual([
      ['PayByTransfer', 'PENDING'],
      ['Card', 'SUCCESSFUL'],
    ]);
  });

  it('a customer coming back to the order is offered the open transfer and the other ways', async () => {
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await page.getByRole('button', { name: /^Bank transfer\b/ }).click();
    await heading('Transfer to this account').waitFor();
    await page.reload();
    await page.locator('#pay').click();
    await heading('How would you like to pay?').waitFor();
    expect(await button('Continue with your bank transfer').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Card\b/ }).isVisible()).toBe(true);
    await button('Continue with your bank transfer').click();
    await heading('Transfer to this account').waitFor();
    expect(await payments()).toHaveLength(1);
  });

  it('a declined card offers another way: the list comes back', async () => {
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await page.getByRole('button', { name: /^Card\b/ }).click();
    await field('Card number').fill('4000000000000002');
    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    await page.getByRole('button', { name: /^Pay ₦/ }).click();
    await heading('Card declined').waitFor();
    await keepScreenshot(page, 'card-declined');
    await button('Choose another way to pay').click();
    await heading('How would you like to pay?').waitFor();
  });
});
