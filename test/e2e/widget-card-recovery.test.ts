/**
 * A card whose finalize answer never reaches the browser (issue 9): the customer is told we are
 * checking the payment, the widget follows it with /status and /events, and it ends in the
 * provider's outcome, never in a second payment. Against the real sandbox and its faults, in
 * Chromium, through the script tag. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page, Request, Route } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  keepScreenshot,
  openTab,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

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
let requests: Request[];

beforeEach(async () => {
  shop = await startShop({ companion: { cardEntry: 'direct' } });
  serveRecorder(shop);
  shop.pages.set('/', buttonPage('mug-usd'));
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(10_000);
  requests = [];
  page.on('request', (request) => {
    requests.push(request);
  });
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, shown } = checkoutOn(() => page);
/** A field of the card form, in the companion's card frame (issue 19). */
const field = (label: string) =>
  page.frameLocator('paydrop-checkout iframe.card-frame').getByLabel(label, { exact: true });

function calls(path: string): Request[] {
  return requests.filter(
    (request) =>
      new URL(request.url()).pathname === `/api/checkout${path}` && request.method() !== 'OPTIONS',
  );
}

/**
 * Holds the widget's /status and /events until `release()`, so the checking screen can be seen;
 * the widget's finalize sent again (FINALIZE_RETRY_MS) is lost on the way too, so that the first
 * answer's loss is what the customer meets.
 */
async function holdFollowing(): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((done) => {
    release = done;
  });
  const hold = async (route: Route) => {
    await gate;
    await route.continue();
  };
  await page.route('**/api/checkout/status*', hold);
  await page.route('**/api/checkout/events*', hold);
  let finalizes = 0;
  await page.route('**/api/checkout/finalize*', async (route) => {
    if (route.request().method() !== 'POST' || ++finalizes === 1) await route.continue();
    else await route.abort('failed');
  });
  return release;
}

async function payByCard(number: string): Promise<void> {
  await page.goto(`${shop.url}/`);
  await page.locator('#pay').click();
  await field('Card number').fill(number);
  await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
  await field('Security code').fill('123');
  await field('Name on card').fill('Amina Bello');
  await button('Pay $18.00').click();
}

describe('a card whose finalize answer is lost', () => {
  it.each([
    ['lost after the charge', { type: 'lostResponse' }],
    ['a 503 before the charge', { type: 'error', status: 503 }],
  ])(
    '%s: "Checking your payment…", then "Payment received", one payment at the sandbox',
    async (_, step) => {
      await shop.sandbox('POST', '/__sandbox/config', {
        faults: [{ endpoint: 'finalize', steps: [step] }],
      });
      const release = await holdFollowing();
      await payByCard('4242424242424242');

      await shown('Checking your payment…').waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await field('Card number').count()).toBe(0);
      await keepScreenshot(page, 'card-checking');
      release();

      await heading('Payment received').waitFor();
      const payments = await sandboxPayments<SandboxPayment>(shop);
      expect(payments.map((payment) => [payment.channel, payment.status])).toEqual([
        ['Card', 'SUCCESSFUL'],
      ]);
      expect(calls('/card')).toHaveLength(1);
      await expect
        .poll(() => shop.outcomes.map((outcome) => outcome.status))
        .toEqual(['SUCCESSFUL']);
    },
  );

  it('a finalize lost before it reached the companion is sent again: one payment, received', async () => {
    // The network drops the browser's first finalize: nothing reached the companion, so nothing
    // at all would finalize the card; the widget sends it again.
    let finalizes = 0;
    await page.route('**/api/checkout/finalize*', async (route) => {
      if (route.request().method() === 'POST' && ++finalizes === 1) await route.abort('failed');
      else await route.continue();
    });
    await payByCard('4242424242424242');
    await heading('Payment received').waitFor();
    expect(finalizes).toBe(2);
    const payments = await sandboxPayments<SandboxPayment>(shop);
    expect(payments.map((payment) => [payment.channel, payment.status])).toEqual([
      ['Card', 'SUCCESSFUL'],
    ]);
    await expect.poll(() => shop.outcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
  });

  it('a declined card behind a lost answer ends failed, and the form comes back for another card', async () => {
    await shop.sandbox('POST', '/__sandbox/config', {
      faults: [{ endpoint: 'finalize', steps: [{ type: 'lostResponse' }] }],
    });
    await payByCard('4000000000000002');
    // The lost answer did not lose the reason: once settled, the status says why (issue 12).
    await heading('Card declined').waitFor();
    expect(
      await shown(
        'Your card was not charged. Try another card or pay another way; your bank can tell you why.',
      ).count(),
    ).toBe(1);
    expect(calls('/card')).toHaveLength(1);

    await button('Try again').click();
    await field('Card number').waitFor();
    // A new card frame: the page kept nothing of the card, so nothing comes back filled.
    expect(await field('Security code').inputValue()).toBe('');

    await field('Card number').fill('4242424242424242');
    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    await button('Pay $18.00').click();
    await heading('Payment received').waitFor();
    const payments = await sandboxPayments<SandboxPayment>(shop);
    expect(payments.map((payment) => payment.status)).toEqual(['FAILED', 'SUCCESSFUL']);
  });
});
