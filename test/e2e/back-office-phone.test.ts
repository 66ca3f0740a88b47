/**
 * The demo's back office on a phone (issue 23, item 6), in Chromium at 375 × 740, light and dark:
 * nothing wider than the screen (the tables stack their rows as label: value pairs and stay
 * tables for screen readers), every amount with its symbol (₦, £, $), the sandbox's buttons in a
 * group of their own that looks like none of the real actions, references shortened with the
 * whole one copied, and no serious or critical axe finding. One demo server for the file, its
 * staff signed in once, with payouts of each outcome and a link to show. Run
 * `npm run build:widget` (or `npx vite build --mode back-office`) first.
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, injectAxeThroughDevTools } from '../helpers/axe-page';
import { launchChromium } from '../helpers/browser';
import { type DemoProcess, startDemoProcess } from '../helpers/demo-process';

const PASSWORD = 'e2e back-office phone password';
const PHONE = { width: 375, height: 740 };

let browser: Browser;
let demo: DemoProcess;
let staff: Awaited<ReturnType<BrowserContext['storageState']>>;
let context: BrowserContext | undefined;
/** The references of the payouts sent before the tests, by what became of them. */
const sent: Record<'completed' | 'failed' | 'gbp' | 'usd', string> = {
  completed: '',
  failed: '',
  gbp: '',
  usd: '',
};

/** A payout sent through the back office's handler from its own page (the staff's session). */
async function sendPayout(
  page: Page,
  amount: { amountMinor: number; currency: string },
  routing: [string, string],
  accountNumber: string,
): Promise<string> {
  const answer = await page.evaluate(
    async ({ amount, routing, accountNumber }) => {
      const response = await fetch('/api/back-office/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          // Long, as a merchant's own references often are: the row must still fit.
          tenantReference: `supplier-invoice-2026-${crypto.randomUUID()}`,
          amount,
          narration: 'Supplier invoice',
          paymentMethodType: routing[0],
          paymentMethodValue: routing[1],
          beneficiary: { accountName: 'Adaeze Obi-Williams', accountNumber },
        }),
      });
      return { status: response.status, body: await response.json() };
    },
    { amount, routing, accountNumber },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.payout.reference;
}

beforeAll(async () => {
  // It copies to the clipboard and reads it back: a Chromium of its own.
  browser = await launchChromium({ ownClipboard: true });
  demo = await startDemoProcess({ BACK_OFFICE_PASSWORD: PASSWORD });
  const signing = await browser.newContext();
  const page = await signing.newPage();
  await page.goto(`${demo.url}/back-office`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Account name').waitFor();
  staff = await signing.storageState();
  sent.completed = await sendPayout(
    page,
    { amountMinor: 100_000_000, currency: 'NGN' },
    ['BankCode', '058'],
    '0123456789',
  );
  sent.failed = await sendPayout(
    page,
    { amountMinor: 30_000, currency: 'NGN' },
    ['BankCode', '058'],
    '0000000000',
  );
  sent.gbp = await sendPayout(
    page,
    { amountMinor: 125_000, currency: 'GBP' },
    ['SortCode', '404784'],
    '12345678',
  );
  sent.usd = await sendPayout(
    page,
    { amountMinor: 49_950, currency: 'USD' },
    ['RoutingNumber', '021000021'],
    '000123456789',
  );
  // The sandbox settles a second after acceptance, on its own clock.
  await page.evaluate(() => fetch('/demo/back-office/sandbox/settle', { method: 'POST' }));
  await page.getByLabel('Link name').fill('Indigo & Oat gift card for a very dear friend');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByText(/^Link \S+ created\.$/).waitFor();
  await signing.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function openOnPhone(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  context = await browser.newContext({
    viewport: PHONE,
    colorScheme,
    storageState: staff,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.goto(`${demo.url}/back-office`);
  // Everything loaded: the balances, the settled payouts, the transactions and the link.
  await page.locator('#balances dd').first().waitFor();
  await expect
    .poll(() =>
      page.locator(`#payouts tr[data-reference="${sent.completed}"] .status`).textContent(),
    )
    .toBe('Completed');
  await page.locator('#transactions tbody tr').first().waitFor();
  await page.locator('#links tbody tr').first().waitFor();
  return page;
}

/** Every element whose right edge passes the screen's, described, and the page's scroll width. */
function overflow(page: Page): Promise<{ wider: string[]; scrollWidth: number }> {
  return page.evaluate(() => {
    const wider = [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > window.innerWidth + 0.5;
      })
      .map(
        (element) =>
          `${element.localName}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`,
      );
    return { wider, scrollWidth: document.documentElement.scrollWidth };
  });
}

describe('the back office at 375 px', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has nothing wider than the screen and no serious axe finding (${colorScheme})`, async () => {
      const page = await openOnPhone(colorScheme);
      const { wider, scrollWidth } = await overflow(page);
      expect(wider).toEqual([]);
      expect(scrollWidth).toBeLessThanOrEqual(PHONE.width);
      await injectAxeThroughDevTools(page);
      const findings = await axeFindings(page, `back office ${colorScheme}`, {
        impacts: ['serious', 'critical'],
        shadowRoot: false,
      });
      expect(findings).toEqual([]);
    });
  }

  it('stacks each row as label: value pairs, and the tables stay tables for screen readers', async () => {
    const page = await openOnPhone();
    const row = page.locator(`#payouts tr[data-reference="${sent.completed}"]`);
    // Stacked: the amount sits under the reference, not beside it, each with its label drawn.
    const reference = await row.locator('td').nth(0).boundingBox();
    const amount = await row.locator('td').nth(2).boundingBox();
    expect(amount?.y).toBeGreaterThan((reference?.y ?? 0) + (reference?.height ?? 0) - 1);
    expect(amount?.x).toBe(reference?.x);
    const label = await row
      .locator('td')
      .nth(2)
      .evaluate((cell) => getComputedStyle(cell, '::before').content);
    expect(label).toContain('Amount');
    // What a screen reader meets: a table, its column headers, and the cells' own values.
    const payouts = page.getByRole('table', { name: /^Payouts$|/ }).first();
    expect(await payouts.getByRole('columnheader').allTextContents()).toEqual([
      'Reference',
      'Your reference',
      'Amount',
      'Status',
      'Reason',
      'Sandbox',
    ]);
    const snapshot = await row.ariaSnapshot();
    expect(snapshot).toContain('- row');
    expect(snapshot).toContain(`cell "${sent.completed}`);
    expect(snapshot).toContain('cell "₦1,000,000.00"');
  });

  it('shows every amount with its symbol: ₦, £ and $, never a currency code', async () => {
    const page = await openOnPhone();
    const balance = (code: string) =>
      page.locator(`#balances dd[data-currency="${code}"]`).textContent();
    expect(await balance('NGN')).toMatch(/^₦[\d,]+\.\d\d$/);
    expect(await balance('GBP')).toMatch(/^£[\d,]+\.\d\d$/);
    expect(await balance('USD')).toMatch(/^\$[\d,]+\.\d\d$/);
    const amounts = await page.locator('td.number').allTextContents();
    expect(amounts).toEqual(
      expect.arrayContaining(['₦1,000,000.00', '₦300.00', '£1,250.00', '$499.50']),
    );
    for (const amount of amounts) expect(amount).toMatch(/^(₦|£|\$|Payer chooses)/);
    expect(await page.locator('main').innerText()).not.toMatch(/\b(NGN|GBP|USD)\s?\d/);
  });

  it("puts the sandbox's buttons in a labelled group that looks like none of the real actions", async () => {
    const page = await openOnPhone();
    const group = page.getByRole('group', { name: /Sandbox/ });
    expect(await group.getByRole('button').allTextContents()).toEqual([
      'Settle pending payouts now',
      'Send a payout that fails',
    ]);
    const look = (name: string | RegExp) =>
      page
        .getByRole('button', { name })
        .first()
        .evaluate((button) => {
          const style = getComputedStyle(button);
          return `${style.backgroundColor} ${style.borderStyle} ${style.color}`;
        });
    const real = await look('Send payout');
    expect(await look('Settle pending payouts now')).not.toBe(real);
    expect(await look('Send a payout that fails')).not.toBe(real);
    // A payout's Reverse is the sandbox's bank too: dashed, and named so.
    expect(await look(`Reverse payout ${sent.completed} (sandbox)`)).toMatch(/dashed/);
    expect(real).not.toMatch(/dashed/);
  });

  it('shortens a reference to its first 6 and last 4 characters, and copies the whole of it', async () => {
    const page = await openOnPhone();
    const reference = sent.completed;
    expect(reference.length).toBeGreaterThan(12);
    const row = page.locator(`#payouts tr[data-reference="${reference}"]`);
    const shown = row.locator('td').first().locator('code');
    // What the eye reads is short; what a screen reader reads (and the title) is whole.
    expect(await shown.locator('[aria-hidden="true"]').innerText()).toBe(
      `${reference.slice(0, 6)}…${reference.slice(-4)}`,
    );
    expect(await shown.getAttribute('title')).toBe(reference);
    const tree = await row.ariaSnapshot();
    expect(tree).toContain(`cell "${reference} Copy reference ${reference}"`);
    expect(tree).not.toContain('…');
    await row.getByRole('button', { name: `Copy reference ${reference}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    expect(await page.getByRole('status').filter({ hasText: 'copied' }).textContent()).toBe(
      `Reference ${reference} copied.`,
    );
    // The merchant's own (long) reference too.
    const own = row.getByRole('button', { name: /^Copy your reference supplier-invoice-2026-/ });
    const full = ((await own.getAttribute('aria-label')) ?? '').replace('Copy your reference ', '');
    await own.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
    expect(full).toMatch(/^supplier-invoice-2026-[\da-f-]{36}$/);
  });
});
