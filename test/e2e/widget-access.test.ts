/**
 * The dialog for customers on a keyboard, with a screen reader, and on a 320 px phone, in Chromium:
 * focus goes in and comes back, every control is reachable, axe-core finds nothing serious in the
 * views this build has, and nothing overflows at the narrowest width. Run `npm run build:widget`
 * first.
 */
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import {
  buttonPage,
  DEFAULT_ORDERS,
  type Shop,
  type ShopOptions,
  startShop,
} from '../helpers/shop';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;
let shop: Shop | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
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

async function setUp(
  contextOptions: BrowserContextOptions = {},
  shopOptions: ShopOptions = {},
): Promise<Shop> {
  shop = await startShop({
    // An order the merchant allows no channel for: "No payment method is available".
    orders: { ...DEFAULT_ORDERS, 'nothing-ngn': { ...NOTHING, channels: [] } },
    ...shopOptions,
  });
  shop.pages.set('/', buttonPage('tote-ngn'));
  shop.pages.set('/none', buttonPage('nothing-ngn'));
  context = await browser.newContext({ reducedMotion: 'reduce', ...contextOptions });
  page = await context.newPage();
  return shop;
}

const heading = (name: string | RegExp) => page.getByRole('heading', { name });
const button = (name: string | RegExp) => page.getByRole('button', { name, exact: true });

/**
 * Where the keyboard focus is: `page:…` for the merchant's page, `dialog:…` inside the checkout
 * (by accessible label or text), `outside` when it has left the document for the browser's own UI.
 */
function focusNow(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'outside';
    const name = (element: Element) =>
      element.getAttribute('aria-label') ??
      (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    if (active.tagName === 'PAYDROP-CHECKOUT') {
      const inner = active.shadowRoot?.activeElement;
      if (!inner) return 'dialog:?';
      const insideDialog = inner.closest('dialog') !== null;
      return `${insideDialog ? 'dialog' : 'shadow'}:${inner.tagName.toLowerCase()}:${name(inner)}`;
    }
    return `page:${active.tagName.toLowerCase()}#${active.id}`;
  });
}

async function tabUntil(wanted: string, limit = 20): Promise<void> {
  for (let step = 0; step < limit; step++) {
    if ((await focusNow()) === wanted) return;
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
    await heading('Transfer NGN 25,000.50').waitFor();
    // The new step's heading takes focus, inside the dialog.
    await expect.poll(focusNow).toMatch(/^dialog:h3:Transfer NGN/);

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
    await expect.poll(() => button('Copy Account number').innerText()).toBe('Copied');
    expect(await page.getByRole('status').innerText()).toBe(
      'Account number copied to the clipboard.',
    );
    const payment = await shop.latestPayment();
    const digits = (payment as { virtualAccount?: { accountNumber?: string } } | undefined)
      ?.virtualAccount?.accountNumber;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(digits);

    // Escape while a payment is under way asks first; Stay goes back to the account.
    await page.keyboard.press('Escape');
    await heading('Leave the checkout?').waitFor();
    await expect.poll(focusNow).toBe('dialog:h3:Leave the checkout?');
    await page.keyboard.press('Tab');
    expect(await focusNow()).toBe('dialog:button:Stay');
    await page.keyboard.press('Enter');
    await heading('Transfer NGN 25,000.50').waitFor();
    expect(await page.locator('paydrop-checkout').count()).toBe(1);
    await expect.poll(focusNow).toMatch(/^dialog:h3:Transfer NGN/);

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
});

interface AxeFinding {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** axe-core over the whole document (open shadow roots included): serious and critical only. */
async function axeFindings(view: string): Promise<AxeFinding[]> {
  const report = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: unknown[] }>;
            }>;
            passes: Array<{ nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return {
      violations: results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => JSON.stringify(node.target)),
        })),
      // A node inside a shadow root has a nested target: [["paydrop-checkout", "button"]].
      sawShadow: results.passes.some((rule) =>
        rule.nodes.some((node) => Array.isArray(node.target[0])),
      ),
    };
  });
  expect(report.sawShadow, `axe looked inside the shadow root (${view})`).toBe(true);
  return report.violations.map((violation) => ({ ...violation, id: `${view}: ${violation.id}` }));
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
      await heading('Transfer NGN 25,000.50').waitFor();
      expect(await page.getByRole('radio').count()).toBe(0);
      findings.push(...(await axeFindings('account')));

      await button('Close').click();
      await heading('Leave the checkout?').waitFor();
      findings.push(...(await axeFindings('leave?')));
      await button('Stay').click();

      await button("I've sent the money").click();
      await page.locator('paydrop-checkout .body').getByText('Confirming your transfer').waitFor();
      findings.push(...(await axeFindings('confirming')));

      const payment = await shop.latestPayment();
      await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
      await heading('Payment received').waitFor({ timeout: 5000 });
      findings.push(...(await axeFindings('received')));

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
    findings.push(...(await axeFindings('unavailable')));

    await page.goto(`${shop.url}/none`);
    await page.addScriptTag({ path: AXE_PATH });
    await page.locator('#pay').click();
    await heading('Something went wrong').waitFor();
    findings.push(...(await axeFindings('no channel')));
    expect(findings).toEqual([]);
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
    await heading('Transfer NGN 25,000.50').waitFor();

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
    await page.screenshot({ path: '/tmp/paydrop-320.png' });

    await button("I've sent the money").click();
    const payment = await shop.latestPayment();
    await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
    await heading('Payment received').waitFor({ timeout: 5000 });
    const received = await overflow();
    expect(received.scrollWidth).toBeLessThanOrEqual(received.clientWidth);
    expect(received.outside).toEqual([]);
    await page.screenshot({ path: '/tmp/paydrop-320-received.png' });
    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
  });
});
