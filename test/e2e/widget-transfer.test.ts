/**
 * The PayByTransfer journey in Chromium, through the script tag on a shop page with the strict CSP:
 * what the customer sees from the pay button to "Payment received", at expiry, after a reload, when
 * the money arrives after the dialog was closed, and when the provider is briefly unavailable.
 * Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  latestSandboxPayment,
  openTab,
  RECORDER_TAG,
  recordedEvents,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
  readonly virtualAccount: { accountNumber: string; bank: string; accountName: string } | null;
}

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  shop = await startShop();
  serveRecorder(shop);
  shop.pages.set('/', buttonPage('tote-ngn', RECORDER_TAG));
  ({ context, page } = await openTab(browser()));
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, dialogText } = checkoutOn(() => page);
const accountNumber = () => page.locator('paydrop-checkout .account');
const timer = () => page.getByRole('timer');
const events = () => recordedEvents(page);
const payments = () => sandboxPayments<SandboxPayment>(shop);
const latest = () => latestSandboxPayment<SandboxPayment>(shop);

function grouped(digits: string): string {
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
}

/** "29:58" → 1798, "1:00:59" → 3659 */
function seconds(countdown: string): number {
  return countdown
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

async function sandboxOk(method: string, path: string, body?: unknown): Promise<void> {
  const answer = await shop.sandbox(method, path, body);
  expect(answer.status, `${method} ${path}`).toBe(200);
}

/** Opens the checkout from the pay button and waits for the account to pay into. */
async function openToAccount(): Promise<SandboxPayment> {
  await page.locator('#pay').click();
  await heading('Transfer to this account').waitFor();
  return latest();
}

describe('PayByTransfer in the dialog', () => {
  it('shows the account, confirms, and reports the success pushed by the webhook without a reload', async () => {
    await page.goto(`${shop.url}/`);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const payment = await openToAccount();
    const account = payment.virtualAccount;
    if (!account) throw new Error('no virtual account');

    // Everything the customer needs to make the transfer.
    const text = await dialogText();
    expect(text).toContain('Adire tote bag');
    expect(text).toContain('₦25,000.50');
    expect(await accountNumber().innerText()).toBe(grouped(account.accountNumber));
    expect(account.accountNumber).toMatch(/^\d{10}$/);
    expect(text).toContain(account.bank);
    expect(text).toContain(account.accountName);
    expect(text).toContain('This account expires in');
    const first = await timer().innerText();
    expect(seconds(first)).toBeGreaterThan(29 * 60 + 50);
    expect(seconds(first)).toBeLessThanOrEqual(30 * 60);
    // The countdown is live.
    await expect.poll(() => timer().innerText()).not.toBe(first);

    // From now on the widget cannot learn the outcome by asking: only the push can tell it.
    let statusChecks = 0;
    await page.route('**/api/checkout/status**', (route) => {
      statusChecks++;
      return route.abort();
    });

    await button("I've sent the money").click();
    await page.locator('paydrop-checkout .body').getByText('Confirming your transfer').waitFor();
    // …and a screen reader hears it: focus moves to it.
    expect(
      await page.evaluate(
        "document.querySelector('paydrop-checkout').shadowRoot.activeElement?.textContent",
      ),
    ).toBe('Confirming your transfer');
    expect(await button("I've sent the money").count()).toBe(0);
    expect(await heading('Payment received').count()).toBe(0);

    await sandboxOk('POST', `/__sandbox/payments/${payment.reference}/transfer`);
    await heading('Payment received').waitFor({ timeout: 5000 });
    expect(await dialogText()).toContain('Thank you! Your payment of ₦25,000.50 is confirmed.');
    expect(statusChecks).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    const [success] = await events();
    expect(success?.target).toBe('pay');
    expect(success?.detail).toEqual({
      reference: payment.reference,
      channel: 'PayByTransfer',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
    });

    // The merchant's server hears of it once, however many webhooks and checks there were.
    await expect.poll(() => shop.outcomes.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(shop.outcomes).toEqual([
      expect.objectContaining({
        reference: payment.reference,
        status: 'SUCCESSFUL',
        orderId: 'tote-ngn',
        amountMatches: true,
      }),
    ]);

    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    expect((await events()).map((event) => [event.type, event.detail?.status ?? null])).toEqual([
      ['success', null],
      ['close', 'succeeded'],
    ]);
  });

  it('tells the customer the account expired when the provider fails it so, and gives a fresh one', async () => {
    await page.goto(`${shop.url}/`);
    const payment = await openToAccount();
    const before = await accountNumber().innerText();

    // 31 minutes pass at the provider: the account expires and the payment fails there. The
    // provider says why, so the customer is told the account expired (issue 12, item 3).
    await sandboxOk('POST', '/__sandbox/clock', { advanceSeconds: 1860 });
    await heading('This account has expired').waitFor({ timeout: 5000 });
    expect(await dialogText()).toContain('No transfer arrived in time.');
    expect(await accountNumber().count()).toBe(0);
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['failure']);
    expect((await events())[0]?.detail?.code).toBe('expired');
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[payment.reference, 'FAILED']]);

    await button('Get a new account').click();
    await heading('Transfer to this account').waitFor();
    const fresh = await latest();
    expect(fresh.reference).not.toBe(payment.reference);
    expect(fresh.status).toBe('PENDING');
    expect(await accountNumber().innerText()).toBe(
      grouped(fresh.virtualAccount?.accountNumber ?? ''),
    );
    expect(await accountNumber().innerText()).not.toBe(before);
    expect(await button("I've sent the money").isVisible()).toBe(true);
  });

  it("counts down to the account's expiry itself, then gets a new account", async () => {
    // The page's clock is ours to move; the companion and the sandbox keep real time.
    await page.clock.install();
    await page.goto(`${shop.url}/`);
    const payment = await openToAccount();
    const before = await accountNumber().innerText();
    expect(seconds(await timer().innerText())).toBeGreaterThan(29 * 60 + 50);

    await page.clock.fastForward('31:00');
    await heading('This account has expired').waitFor({ timeout: 5000 });
    expect(await dialogText()).toContain('No transfer arrived in time.');
    expect(await accountNumber().count()).toBe(0);
    expect(await button("I've sent the money").count()).toBe(0);
    // The provider had not failed it yet, so nothing final was reported to the page.
    expect((await latest()).status).toBe('PENDING');
    expect((await events()).map((event) => event.type)).toEqual([]);

    // Time passes at the provider too: the account it issued is expired there as well, and the
    // merchant's server hears so.
    await sandboxOk('POST', '/__sandbox/clock', { advanceSeconds: 1860 });
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[payment.reference, 'FAILED']]);
    // The expired view stays put: no "Payment not completed" over it.
    expect(await heading('This account has expired').isVisible()).toBe(true);

    await button('Get a new account').click();
    await heading('Transfer to this account').waitFor();
    const fresh = await latest();
    expect(fresh.reference).not.toBe(payment.reference);
    expect(await accountNumber().innerText()).toBe(
      grouped(fresh.virtualAccount?.accountNumber ?? ''),
    );
    expect(await accountNumber().innerText()).not.toBe(before);
    expect(seconds(await timer().innerText())).toBeGreaterThan(0);
    expect(await button("I've sent the money").isVisible()).toBe(true);
  });

  it('picks the same account up again after a reload, with the time that is really left', async () => {
    await page.goto(`${shop.url}/`);
    const payment = await openToAccount();
    const shown = await accountNumber().innerText();
    // Real time passes (the companion's and the provider's clocks are real).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const beforeReload = seconds(await timer().innerText());
    expect(beforeReload).toBeLessThanOrEqual(30 * 60 - 2);

    await page.reload();
    await openToAccount();
    expect(await accountNumber().innerText()).toBe(shown);
    const afterReload = seconds(await timer().innerText());
    expect(afterReload).toBeLessThanOrEqual(beforeReload + 1);
    expect(afterReload).toBeGreaterThanOrEqual(beforeReload - 10);
    expect(afterReload).toBeLessThan(30 * 60 - 1);
    // Resumed, not initiated again.
    expect((await payments()).map((each) => each.reference)).toEqual([payment.reference]);
  });

  it('delivers a confirmation that arrives after the customer left the dialog', async () => {
    await page.goto(`${shop.url}/`);
    const payment = await openToAccount();

    await button('Close').click();
    await heading('Leave the checkout?').waitFor();
    await button('Leave').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    await expect
      .poll(async () => (await events()).map((event) => [event.type, event.target]))
      .toEqual([
        ['pending', 'pay'],
        ['close', 'pay'],
      ]);
    expect((await events())[0]?.detail?.reference).toBe(payment.reference);
    expect((await events())[1]?.detail?.status).toBe('pending');

    // The money arrives later; the merchant's server learns it from the webhook.
    await sandboxOk('POST', `/__sandbox/payments/${payment.reference}/transfer`);
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[payment.reference, 'SUCCESSFUL']]);

    // The customer comes back to the same order.
    await page.locator('#pay').click();
    await heading('Payment received').waitFor();
    expect(await button("I've sent the money").count()).toBe(0);
    await expect
      .poll(async () => (await events()).map((event) => event.type))
      .toEqual(['pending', 'close', 'success']);
    expect((await events())[2]?.detail?.reference).toBe(payment.reference);
    expect((await events())[2]?.target).toBe('pay');
    expect(shop.outcomes).toHaveLength(1);
    expect(await payments()).toHaveLength(1);
  });

  it('says payments are unavailable when the provider is down, and "Try again" gets through', async () => {
    // Three 503s: the first call and both of the companion's retries of validate.
    await sandboxOk('POST', '/__sandbox/config', {
      faults: [
        {
          endpoint: 'validate',
          steps: [
            { type: 'error', status: 503 },
            { type: 'error', status: 503 },
            { type: 'error', status: 503 },
          ],
        },
      ],
    });
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading('Something went wrong').waitFor({ timeout: 8000 });
    const text = await dialogText();
    expect(text).toContain('Payments are unavailable right now. Please try again in a moment.');
    expect(await accountNumber().count()).toBe(0);
    expect(await payments()).toEqual([]);

    await sandboxOk('POST', '/__sandbox/config', { faults: [] });
    await button('Try again').click();
    await heading('Transfer to this account').waitFor();
    const payment = await latest();
    expect(await accountNumber().innerText()).toBe(
      grouped(payment.virtualAccount?.accountNumber ?? ''),
    );
    expect(await heading('Something went wrong').count()).toBe(0);
  });
});
