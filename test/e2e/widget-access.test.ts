/**
 * The dialog for customers on a keyboard, with a screen reader, and on a 320 px phone, in Chromium:
 * focus goes in and comes back, every control is reachable, a card and a bank payment are made
 * from the keyboard alone, axe-core finds nothing serious in the transfer, bank, card and end
 * views, and nothing overflows at the narrowest width, the card form and the issuer's challenge
 * included. Run `npm run build:widget` first.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTLEMENT_DELAY_MS } from '../../src/sandbox/test-data';
import { AXE_PATH, type AxeFinding, axeFindings } from '../helpers/axe-page';
import { checkoutOn, keepScreenshot, openTab, useChromium } from '../helpers/page';
import {
  buttonPage,
  DEFAULT_ORDERS,
  type Shop,
  type ShopOptions,
  startShop,
} from '../helpers/shop';

// It copies to the clipboard and reads it back: a Chromium of its own (test/helpers/browser.ts).
const browser = useChromium({ ownClipboard: true });
let context: BrowserContext | undefined;
let page: Page;
let shop: Shop | undefined;

afterEach(async () => {
  sandboxHeldAt = null;
  await context?.close();
  await shop?.close();
  context = undefined;
  shop = undefined;
});

const NOTHING = {
  amountMinor: 2_500_050,
  currency: 'NGN',
  description: 'Nothing to pay with',
} as const;

const PAID = {
  amountMinor: 4_999,
  currency: 'GBP',
  description: 'Merino scarf',
  paid: true,
} as const;

/** Set: the sandbox's clock stands still at this instant (as in widget-bank.test.ts). */
let sandboxHeldAt: number | null = null;

async function setUp(
  contextOptions: BrowserContextOptions = {},
  shopOptions: ShopOptions = {},
): Promise<Shop> {
  // The sandbox reads real time through the `Date.now` it finds when it is created (synchronously,
  // before startShop's first await): it gets one that answers `sandboxHeldAt` while that is set.
  const realNow = Date.now;
  Date.now = () => sandboxHeldAt ?? realNow();
  let started: Promise<Shop>;
  try {
    started = startShop({
      companion: { cardEntry: 'direct' },
      orders: {
        ...DEFAULT_ORDERS,
        // An order the merchant allows no channel for: "No payment method is available".
        'nothing-ngn': { ...NOTHING, channels: [] },
        // An order the merchant knows is paid: "Already paid".
        'scarf-paid': PAID,
      },
      ...shopOptions,
    });
  } finally {
    Date.now = realNow;
  }
  shop = await started;
  shop.pages.set('/', buttonPage('tote-ngn'));
  shop.pages.set('/none', buttonPage('nothing-ngn'));
  shop.pages.set('/gbp', buttonPage('scarf-gbp'));
  shop.pages.set('/bank', buttonPage('scarf-bank'));
  shop.pages.set('/usd', buttonPage('mug-usd'));
  shop.pages.set('/paid', buttonPage('scarf-paid'));
  ({ context, page } = await openTab(browser(), contextOptions));
  return shop;
}

const checkout = checkoutOn(() => page);
const { heading, button, cardForm, cardField: field, issuer } = checkout;

/** The id of the focused input inside the card frame ('number', 'expiry', 'cvc', 'name'), or ''. */
async function frameFocus(): Promise<string> {
  return (
    (await cardForm()
      .locator('input:focus')
      .getAttribute('id')
      .catch(() => '')) ?? ''
  );
}
/** Text in the dialog's body, matched whole (the live region repeats some of it for readers). */
const shown = (text: string) => checkout.shown(text, { exact: true });

/** Cards in the sandbox's list (src/sandbox/test-data.ts). */
const CARDS = { success: '4242424242424242', challenge: '4000000000003220' } as const;
/** An expiry years ahead, as digits the customer types ("12" and the year). */
const FUTURE_EXPIRY = `12${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

/**
 * Where the keyboard focus is: `page:…` for the merchant's page, `dialog:…` inside the checkout
 * (by accessible label or text), `outside` when it has left the document for the browser's own UI.
 */
function focusNow(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'outside';
    // An input goes by its label.
    const name = (element: Element) =>
      element.getAttribute('aria-label') ??
      ((element as HTMLInputElement).labels?.[0]?.textContent ?? element.textContent ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
    if (active.tagName === 'PAYDROP-CHECKOUT') {
      const inner = active.shadowRoot?.activeElement;
      if (!inner) return 'dialog:?';
      const insideDialog = inner.closest('dialog') !== null;
      return `${insideDialog ? 'dialog' : 'shadow'}:${inner.tagName.toLowerCase()}:${name(inner)}`;
    }
    return `page:${active.tagName.toLowerCase()}#${active.id}`;
  });
}

async function tabUntil(wanted: string | RegExp, limit = 20): Promise<void> {
  for (let step = 0; step < limit; step++) {
    const now = await focusNow();
    if (typeof wanted === 'string' ? now === wanted : wanted.test(now)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${wanted} was not reached with Tab; focus is at ${await focusNow()}`);
}

describe('keyboard only', () => {
  it('opens, keeps focus in the dialog, asks before leaving, copies, and gives focus back', async () => {
    const shop = await setUp({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(`${shop.url}/`);
    await page.keyboard.press('Tab');
    expect(await focusNow()).toBe('page:button#pay');
    await page.keyboard.press('Enter');
    await heading('Transfer to this account').waitFor();
    // The new step's heading takes focus, inside the dialog.
    await expect.poll(focusNow).toMatch(/^dialog:h3:Transfer to this account/);

    // Tab goes round the dialog's controls and never reaches the page behind it.
    const stops: string[] = [];
    for (let step = 0; step < 16; step++) {
      await page.keyboard.press('Tab');
      stops.push(await focusNow());
    }
    const onPage = stops.filter((stop) => !stop.startsWith('dialog:') && stop !== 'outside');
    expect(onPage).toEqual([]);
    for (const control of [
      'dialog:button:Close',
      'dialog:button:Copy Amount',
      'dialog:button:Copy Account number',
      'dialog:button:Copy Bank',
      'dialog:button:Copy Account name',
      "dialog:button:I've sent the money",
    ]) {
      expect(stops).toContain(control);
    }
    // Round and round: past the last control, Tab comes back to the first ones.
    const last = stops.indexOf("dialog:button:I've sent the money");
    expect(stops.slice(last + 1)).toContain('dialog:button:Close');
    expect(stops.slice(last + 1)).toContain('dialog:button:Copy Amount');

    // A copy button works from the keyboard and says so.
    await tabUntil('dialog:button:Copy Account number');
    await page.keyboard.press('Enter');
    // Its name follows what it shows (label in name): "Copied", and what was copied.
    await expect
      .poll(() => button('Account number copied to the clipboard.').innerText())
      .toBe('Copied');
    expect(await page.getByRole('status').innerText()).toBe(
      'Account number copied to the clipboard.',
    );
    const payment = await shop.latestPayment();
    const digits = (payment as { virtualAccount?: { accountNumber?: string } } | undefined)
      ?.virtualAccount?.accountNumber;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(digits);

    // Escape while a payment is under way asks first; Stay goes back to the account, and focus
    // to the control the customer was on (issue 12).
    await page.keyboard.press('Escape');
    await heading('Leave the checkout?').waitFor();
    await expect.poll(focusNow).toBe('dialog:h3:Leave the checkout?');
    await page.keyboard.press('Tab');
    expect(await focusNow()).toBe('dialog:button:Stay');
    await page.keyboard.press('Enter');
    await heading('Transfer to this account').waitFor();
    expect(await page.locator('paydrop-checkout').count()).toBe(1);
    await expect.poll(focusNow).toMatch(/^dialog:button:(Copy )?Account number/);

    // Leaving for real gives the focus back to the pay button.
    await page.keyboard.press('Escape');
    await heading('Leave the checkout?').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusNow()).toBe('dialog:button:Leave');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    expect(await focusNow()).toBe('page:button#pay');
  });

  it('closes with Escape at once when nothing is under way, and focus comes back', async () => {
    // An order that cannot be paid (no channel allowed): nothing to lose by closing.
    const shop = await setUp();
    await page.goto(`${shop.url}/none`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await heading('Something went wrong').waitFor();
    expect(await page.locator('paydrop-checkout dialog').innerText()).toContain(
      'No payment method is available for this order.',
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    expect(await focusNow()).toBe('page:button#pay');
  });

  it('pays by card from the keyboard alone: Enter to choose, type and Tab, Enter to pay; focus follows the payment', async () => {
    const shop = await setUp();
    // The card call is held until focus on "Processing" has been checked, then let through.
    let letThrough: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      letThrough = resolve;
    });
    let initiateCalls = 0;
    // The card frame's POST /card (the frame's requests are the page's to route, too).
    await page.route('**/api/checkout/card', async (route) => {
      if (route.request().method() === 'POST') initiateCalls++;
      await held;
      await route.continue();
    });
    await page.goto(`${shop.url}/gbp`);
    await page.keyboard.press('Tab');
    expect(await focusNow()).toBe('page:button#pay');
    await page.keyboard.press('Enter');
    await heading('How would you like to pay?').waitFor();
    await expect.poll(focusNow).toBe('dialog:h3:How would you like to pay?');

    // The card choice is reached with Tab and chosen with Enter.
    await tabUntil(/^dialog:button:Card/);
    await page.keyboard.press('Enter');
    await field('Card number').waitFor();
    // Focus comes to the card step's heading (from the "Loading…" it replaced), so a screen
    // reader says "Pay by card"; the next Tab is the form's first field.
    await expect.poll(focusNow).toBe('dialog:h3:Pay by card');
    // Into the card frame, through its four fields in order, and out to Pay.
    await page.keyboard.press('Tab');
    await expect.poll(frameFocus).toBe('number');
    await page.keyboard.type(CARDS.success);
    await page.keyboard.press('Tab');
    expect(await frameFocus()).toBe('expiry');
    await page.keyboard.type(FUTURE_EXPIRY);
    await page.keyboard.press('Tab');
    expect(await frameFocus()).toBe('cvc');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    expect(await frameFocus()).toBe('name');
    await page.keyboard.type('Amina Bello');
    await page.keyboard.press('Tab');
    await expect.poll(focusNow).toBe('dialog:button:Pay £49.99');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(frameFocus).toBe('name');
    expect(await field('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await field('Expiry date (MM / YY)').inputValue()).toBe(
      `${FUTURE_EXPIRY.slice(0, 2)} / ${FUTURE_EXPIRY.slice(2)}`,
    );
    expect(await field('Security code').inputValue()).toBe('123');
    expect(await field('Name on card').inputValue()).toBe('Amina Bello');
    // Nothing is flagged as wrong.
    expect(await cardForm().locator('[aria-invalid="true"]').count()).toBe(0);

    // Enter in the last field submits the form; focus goes to what is happening now.
    await page.keyboard.press('Enter');
    await expect.poll(() => initiateCalls).toBe(1);
    await expect.poll(focusNow).toBe('dialog:p:Processing your payment…');
    expect(await button('Pay £49.99').isDisabled()).toBe(true);

    letThrough();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    await expect.poll(focusNow).toBe('dialog:h3:Payment received');
    expect(await shop.latestPayment()).toMatchObject({ channel: 'Card', status: 'SUCCESSFUL' });

    // Done, from the keyboard too, and focus is back on the pay button.
    await tabUntil('dialog:button:Done');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    expect(await focusNow()).toBe('page:button#pay');
  });

  it("opens the bank's window from the keyboard: Enter on the choice is a click the browser allows", async () => {
    const shop = await setUp();
    // Playwright's Chromium blocks no popups, so the page notes whether each window.open came
    // with a user activation, which is what a popup blocker asks for.
    await page.addInitScript(`
      window.__opens = [];
      const realOpen = window.open;
      window.open = function (...args) {
        window.__opens.push(navigator.userActivation.isActive);
        return realOpen.apply(this, args);
      };
    `);
    await page.goto(`${shop.url}/gbp`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await heading('How would you like to pay?').waitFor();
    await expect.poll(focusNow).toBe('dialog:h3:How would you like to pay?');
    await tabUntil(/^dialog:button:Pay from your bank/);
    expect(await page.evaluate('window.__opens')).toEqual([]);
    // Playwright's evaluate counts as a user activation for 5 s: let that run out (the page says
    // when it has), so that only the keypress can be the activation the window opens in.
    await page.evaluate(
      'setTimeout(() => { window.__activeBeforeKey = navigator.userActivation.isActive; }, 5200)',
    );
    await new Promise((resolve) => setTimeout(resolve, 5500));

    const [popup] = await Promise.all([
      context?.waitForEvent('page', { timeout: 5000 }),
      page.keyboard.press('Enter'),
    ]);
    if (!popup) throw new Error('no window opened');
    await popup.waitForURL(/\/sandbox\/pages\/bank\//);
    expect(await page.evaluate('window.__activeBeforeKey')).toBe(false);
    expect(await page.evaluate('window.__opens')).toEqual([true]);
    const payment = await shop.latestPayment();
    expect(payment).toMatchObject({ channel: 'PayByAccount', status: 'PENDING' });
    expect(popup.url()).toContain(encodeURIComponent(payment?.reference ?? ''));
    await shown('Approve the payment in your bank’s window; this page follows.').waitFor();
    await expect.poll(focusNow).toBe('dialog:h3:Pay from your bank');
    // "Show the bank's window" is there for the keyboard too.
    await tabUntil('dialog:button:Show the bank’s window');

    // At the bank, from the keyboard as well; the dialog follows and says so to focus.
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Approve', exact: true }).press('Enter');
    await closed;
    await heading('Payment received').waitFor({ timeout: 10_000 });
    await expect.poll(focusNow).toBe('dialog:h3:Payment received');
    expect((await shop.latestPayment())?.status).toBe('SUCCESSFUL');
  });
});

/** axe-core over the whole document (open shadow roots included): serious and critical only. */
function seriousFindings(view: string, options: { iframes?: boolean } = {}): Promise<AxeFinding[]> {
  return axeFindings(page, view, { impacts: ['serious', 'critical'], ...options });
}

describe('axe-core', () => {
  // The tote is transfer only (the merchant narrows it), so it goes straight to the account.
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds nothing serious in the transfer views (${colorScheme})`, async () => {
      // No CSP on this page, so that axe can be injected.
      const shop = await setUp({ colorScheme }, { csp: null });
      await page.goto(`${shop.url}/`);
      await page.addScriptTag({ path: AXE_PATH });
      const findings: AxeFinding[] = [];

      await page.locator('#pay').click();
      await heading('Transfer to this account').waitFor();
      expect(await page.getByRole('radio').count()).toBe(0);
      findings.push(...(await seriousFindings('account')));

      await button('Close').click();
      await heading('Leave the checkout?').waitFor();
      findings.push(...(await seriousFindings('leave?')));
      await button('Stay').click();

      await button("I've sent the money").click();
      await page.locator('paydrop-checkout .body').getByText('Confirming your transfer').waitFor();
      findings.push(...(await seriousFindings('confirming')));

      const payment = await shop.latestPayment();
      await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
      await heading('Payment received').waitFor({ timeout: 5000 });
      findings.push(...(await seriousFindings('received')));

      expect(findings).toEqual([]);
    });
  }

  it('finds nothing serious in the error and no-channel views', async () => {
    const shop = await setUp({}, { csp: null });
    await shop.sandbox('POST', '/__sandbox/config', {
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
    const findings: AxeFinding[] = [];
    await page.goto(`${shop.url}/`);
    await page.addScriptTag({ path: AXE_PATH });
    await page.locator('#pay').click();
    await heading('Something went wrong').waitFor({ timeout: 8000 });
    findings.push(...(await seriousFindings('unavailable')));

    await page.goto(`${shop.url}/none`);
    await page.addScriptTag({ path: AXE_PATH });
    await page.locator('#pay').click();
    await heading('Something went wrong').waitFor();
    findings.push(...(await seriousFindings('no channel')));
    expect(findings).toEqual([]);
  });

  it('finds nothing serious in the channel list and the card views: empty, with errors, challenge', async () => {
    const shop = await setUp({}, { csp: null });
    await page.goto(`${shop.url}/gbp`);
    await page.addScriptTag({ path: AXE_PATH });
    const findings: AxeFinding[] = [];

    await page.locator('#pay').click();
    await heading('How would you like to pay?').waitFor();
    expect(await page.getByRole('button', { name: /^Pay from your bank/ }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Card/ }).isVisible()).toBe(true);
    findings.push(...(await seriousFindings('channel list')));

    await page.getByRole('button', { name: /^Card/ }).click();
    await field('Card number').waitFor();
    expect(await heading('Pay by card').isVisible()).toBe(true);
    findings.push(...(await seriousFindings('card form')));

    // Submitted empty: every field says what is wrong, inline, tied to its input.
    await button('Pay £49.99').click();
    await cardForm().getByText('Your card number is incomplete.').waitFor();
    expect(await cardForm().locator('[aria-invalid="true"]').count()).toBe(4);
    // The customer is taken to the first field to correct, inside the frame.
    await expect.poll(frameFocus).toBe('number');
    for (const [label, error] of [
      ['Card number', 'Your card number is incomplete.'],
      ['Name on card', 'Enter the name as it is on your card.'],
    ] as const) {
      const describedBy = (await field(label).getAttribute('aria-describedby')) ?? '';
      const said = await field(label).evaluate(
        (input, ids) =>
          ids.map((id) => input.ownerDocument.getElementById(id)?.textContent).join(' '),
        describedBy.split(' '),
      );
      expect(said, label).toContain(error);
    }
    findings.push(...(await seriousFindings('card form with errors')));

    await field('Card number').fill(CARDS.challenge);
    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    await button('Pay £49.99').click();
    await heading('Verify it’s you').waitFor({ timeout: 10_000 });
    await issuer().getByLabel('One-time code').waitFor();
    // The host document only: the frames are the companion's and the issuer's pages.
    findings.push(...(await seriousFindings('card challenge', { iframes: false })));

    await issuer().getByLabel('One-time code').fill('123456');
    await issuer().getByRole('button', { name: 'Verify' }).click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    findings.push(...(await seriousFindings('card received')));
    expect(findings).toEqual([]);
  });

  it("finds nothing serious in the bank step as the bank's window opens and closes, the QR code, and processing", async () => {
    const shop = await setUp({}, { csp: null });
    await page.goto(`${shop.url}/bank`);
    await page.addScriptTag({ path: AXE_PATH });
    const findings: AxeFinding[] = [];

    // Bank only: straight to the bank step, no window yet.
    await page.locator('#pay').click();
    await shown('Approve the payment at your bank, then come back here.').waitFor();
    expect(await button('Continue to your bank').isVisible()).toBe(true);
    findings.push(...(await seriousFindings('bank ready')));

    await button('Pay on your phone instead').click();
    const qr = page.getByRole('img', { name: 'QR code to pay on your phone' });
    await qr.waitFor();
    expect(await shown('Scan with your phone to approve in your banking app.').isVisible()).toBe(
      true,
    );
    findings.push(...(await seriousFindings('bank QR code')));

    const opening = async () => {
      const [popup] = await Promise.all([
        context?.waitForEvent('page', { timeout: 5000 }),
        button('Continue to your bank').click(),
      ]);
      if (!popup) throw new Error('no window opened');
      await popup.waitForURL(/\/sandbox\/pages\/bank\//);
      await shown('Approve the payment in your bank’s window; this page follows.').waitFor();
      return popup;
    };
    const first = await opening();
    expect(await button('Show the bank’s window').isVisible()).toBe(true);
    findings.push(...(await seriousFindings('bank opened')));

    await first.close();
    await shown(
      'The bank’s window closed. If you approved, this page updates in a moment.',
    ).waitFor({ timeout: 5000 });
    expect(await button('Continue to your bank').isVisible()).toBe(true);
    findings.push(...(await seriousFindings('bank closed')));

    // Approved, but the bank keeps it PENDING until the sandbox's clock moves: hold it still.
    const second = await opening();
    sandboxHeldAt = Date.now();
    await shop.sandbox('POST', '/__sandbox/clock', { advanceSeconds: 0 });
    const closed = second.waitForEvent('close');
    await second.getByRole('button', { name: 'Approve', exact: true }).click();
    await closed;
    await shown('Processing your payment…').waitFor({ timeout: 5000 });
    expect((await shop.latestPayment())?.status).toBe('PENDING');
    findings.push(...(await seriousFindings('bank processing')));

    await shop.sandbox('POST', '/__sandbox/clock', { advanceSeconds: SETTLEMENT_DELAY_MS / 1000 });
    sandboxHeldAt = null;
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(findings).toEqual([]);
  });

  it('finds nothing serious in "Already paid"', async () => {
    const shop = await setUp({}, { csp: null });
    await page.goto(`${shop.url}/paid`);
    await page.addScriptTag({ path: AXE_PATH });
    await page.locator('#pay').click();
    await heading('Already paid').waitFor({ timeout: 5000 });
    expect(
      await shown('This has already been paid. There is nothing more to pay.').isVisible(),
    ).toBe(true);
    expect(await button('Try again').count()).toBe(0);
    // Nothing was started at the provider.
    expect(await shop.latestPayment()).toBeUndefined();
    expect(await seriousFindings('already paid')).toEqual([]);
  });
});

describe('a 320 px wide phone', () => {
  /** Every box in the dialog stays within the viewport's width; nothing scrolls sideways. */
  async function overflow(): Promise<{
    dialogWidth: number;
    dialogLeft: number;
    scrollWidth: number;
    clientWidth: number;
    pageScrollWidth: number;
    outside: string[];
  }> {
    return page.evaluate(() => {
      const root = document.querySelector('paydrop-checkout')?.shadowRoot;
      const dialog = root?.querySelector('dialog');
      if (!root || !dialog) throw new Error('no dialog');
      const box = dialog.getBoundingClientRect();
      const outside = [...root.querySelectorAll('dialog *')]
        .filter((element) => {
          const rect = element.getBoundingClientRect();
          return rect.width > 0 && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5);
        })
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      return {
        dialogWidth: box.width,
        dialogLeft: box.left,
        scrollWidth: dialog.scrollWidth,
        clientWidth: dialog.clientWidth,
        pageScrollWidth: document.documentElement.scrollWidth,
        outside,
      };
    });
  }

  it('fills the width, overflows nowhere, and the payment goes through', async () => {
    const shop = await setUp({ viewport: { width: 320, height: 640 } });
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();

    const account = await overflow();
    expect(Math.abs(account.dialogWidth - 320)).toBeLessThanOrEqual(1);
    expect(Math.abs(account.dialogLeft)).toBeLessThanOrEqual(1);
    expect(account.scrollWidth).toBeLessThanOrEqual(account.clientWidth);
    expect(account.pageScrollWidth).toBeLessThanOrEqual(320);
    expect(account.outside).toEqual([]);
    // Every control is on screen and big enough to hit.
    for (const name of ['Copy Account number', "I've sent the money", 'Close']) {
      const box = await button(name).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(36);
      expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(320);
    }
    await keepScreenshot(page, 'widget-320');

    await button("I've sent the money").click();
    const payment = await shop.latestPayment();
    await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
    await heading('Payment received').waitFor({ timeout: 5000 });
    const received = await overflow();
    expect(received.scrollWidth).toBeLessThanOrEqual(received.clientWidth);
    expect(received.outside).toEqual([]);
    await keepScreenshot(page, 'widget-320-received');
    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
  });
  it('fits the card form and the issuer’s challenge in the width, with the challenge frame tall enough', async () => {
    const shop = await setUp({ viewport: { width: 320, height: 640 } });
    await page.goto(`${shop.url}/usd`);
    await page.locator('#pay').click();
    await field('Card number').waitFor();

    const form = await overflow();
    expect(Math.abs(form.dialogWidth - 320)).toBeLessThanOrEqual(1);
    expect(form.scrollWidth).toBeLessThanOrEqual(form.clientWidth);
    expect(form.pageScrollWidth).toBeLessThanOrEqual(320);
    expect(form.outside).toEqual([]);
    // Every field is on screen, full enough to tap and to read what was typed.
    for (const label of ['Card number', 'Expiry date (MM / YY)', 'Security code', 'Name on card']) {
      const box = await field(label).boundingBox();
      expect(box, label).not.toBeNull();
      expect(box?.x ?? -1, label).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0), label).toBeLessThanOrEqual(320);
      expect(box?.width ?? 0, label).toBeGreaterThanOrEqual(100);
      expect(box?.height ?? 0, label).toBeGreaterThanOrEqual(44);
    }
    // The long errors wrap inside the width too.
    await button('Pay $18.00').click();
    const expiryError = cardForm().getByText(
      'Enter the expiry date as it is on your card, for example 08 / 29.',
    );
    await expiryError.waitFor();
    // Inside the frame's width too (the frame's own document is the companion's).
    const errorBox = await expiryError.boundingBox();
    expect((errorBox?.x ?? 0) + (errorBox?.width ?? 0)).toBeLessThanOrEqual(320);
    expect(
      await cardForm()
        .locator('html')
        .evaluate((root) => root.scrollWidth <= root.clientWidth),
    ).toBe(true);
    const errors = await overflow();
    expect(errors.scrollWidth).toBeLessThanOrEqual(errors.clientWidth);
    expect(errors.outside).toEqual([]);
    await keepScreenshot(page, 'widget-320-card');

    await field('Card number').fill(CARDS.challenge);
    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    await button('Pay $18.00').click();
    await heading('Verify it’s you').waitFor({ timeout: 10_000 });
    await issuer().getByLabel('One-time code').waitFor();

    const challenge = await overflow();
    expect(challenge.scrollWidth).toBeLessThanOrEqual(challenge.clientWidth);
    expect(challenge.pageScrollWidth).toBeLessThanOrEqual(320);
    expect(challenge.outside).toEqual([]);
    const frame = await page.locator('paydrop-checkout dialog iframe').boundingBox();
    expect(frame).not.toBeNull();
    expect(frame?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((frame?.x ?? 0) + (frame?.width ?? 0)).toBeLessThanOrEqual(320);
    // EMV 3-D Secure's challenge window is 390 px tall at least; on a phone it takes the height
    // the dialog leaves (card.css: 100dvh less 200 px, and never under 400 px).
    expect(frame?.height ?? 0).toBeGreaterThanOrEqual(390);
    expect(Math.abs((frame?.height ?? 0) - Math.max(400, 640 - 200))).toBeLessThanOrEqual(1);
    // Inside the frame, the issuer's page does not scroll sideways either, and its button is in reach.
    const inner = page
      .frames()
      .find((each) => each.parentFrame()?.parentFrame() === page.mainFrame());
    if (!inner) throw new Error('no issuer frame');
    expect(
      await inner.evaluate(
        'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
      ),
    ).toBe(true);
    const verify = await issuer().getByRole('button', { name: 'Verify' }).boundingBox();
    expect((verify?.x ?? 0) + (verify?.width ?? 0)).toBeLessThanOrEqual(320);
    await keepScreenshot(page, 'widget-320-challenge');

    await issuer().getByLabel('One-time code').fill('123456');
    await issuer().getByRole('button', { name: 'Verify' }).click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect((await shop.latestPayment())?.status).toBe('SUCCESSFUL');
  });
});
