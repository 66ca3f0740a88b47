/**
 * The widget as a guest on the merchant's page, in Chromium: provider strings stay text, the strict
 * CSP with Trusted Types sees no violation while paying, one dialog however often the button is
 * pressed, nothing left behind after closing, and French texts loaded only for French customers.
 * Run `npm run build:widget` first.
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  openTab,
  RECORDER_TAG,
  recorded,
  recorderScript,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, type ShopOptions, startShop } from '../helpers/shop';

/**
 * Records what the merchant's page hears: paydrop:* events on the button, and CSP violations heard
 * on the window as well as the document, with the sample of what was blocked.
 */
const RECORDER = recorderScript({ violations: 'window and document, with sample' });

/** Counts the page's live timers: intervals not cleared, timeouts neither run nor cleared. */
const TIMER_COUNTER = `
window.__timers = { intervals: new Set(), timeouts: new Set() };
const nativeSetInterval = window.setInterval;
const nativeClearInterval = window.clearInterval;
const nativeSetTimeout = window.setTimeout;
const nativeClearTimeout = window.clearTimeout;
window.setInterval = function (...args) {
  const id = nativeSetInterval.apply(window, args);
  window.__timers.intervals.add(id);
  return id;
};
window.clearInterval = function (id) {
  window.__timers.intervals.delete(id);
  return nativeClearInterval.call(window, id);
};
window.setTimeout = function (run, ...rest) {
  const id = nativeSetTimeout.call(window, function (...args) {
    window.__timers.timeouts.delete(id);
    if (typeof run === 'function') run.apply(this, args);
  }, ...rest);
  window.__timers.timeouts.add(id);
  return id;
};
window.clearTimeout = function (id) {
  window.__timers.timeouts.delete(id);
  return nativeClearTimeout.call(window, id);
};
`;

const browser = useChromium();
let context: BrowserContext;
let page: Page;
let shops: Shop[] = [];

beforeEach(async () => {
  ({ context, page } = await openTab(browser()));
});

afterEach(async () => {
  await context?.close();
  await Promise.all(shops.map((shop) => shop.close()));
  shops = [];
});

async function shopWith(page: string, options: ShopOptions = {}): Promise<Shop> {
  const shop = await startShop(options);
  shops.push(shop);
  serveRecorder(shop, RECORDER);
  shop.pages.set('/', page);
  return shop;
}

const { heading, button, dialogText } = checkoutOn(() => page);
const hosts = () => page.locator('paydrop-checkout').count();

describe('provider strings', () => {
  it('shows a description with markup as literal text and runs none of it', async () => {
    const description = '<img src=x onerror="window.__pwned=1">Tote';
    // No CSP here, so that markup that got through would really run.
    const shop = await shopWith(buttonPage('tote-ngn', RECORDER_TAG), {
      csp: null,
      orders: {
        'tote-ngn': {
          amountMinor: 2_500_050,
          currency: 'NGN',
          description,
          channels: ['PayByTransfer'],
        },
      },
    });
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading(/^Transfer /).waitFor();

    expect(await page.locator('paydrop-checkout h2').innerText()).toBe(description);
    expect(await page.getByRole('dialog', { name: description }).count()).toBe(1);
    const found = await page.evaluate(() => ({
      shadowImages:
        document.querySelector('paydrop-checkout')?.shadowRoot?.querySelectorAll('img').length ??
        -1,
      pageImages: document.querySelectorAll('img').length,
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    }));
    expect(found).toEqual({ shadowImages: 0, pageImages: 0, pwned: undefined });
  });
});

describe('theming', () => {
  it('takes the brand, radius and font from custom properties in the page’s own CSS', async () => {
    // No CSP on this page, so that the merchant's stylesheet can be an inline <style>.
    const style = `<style>paydrop-checkout { --paydrop-brand: rgb(10, 125, 90);
      --paydrop-radius: 20px; --paydrop-font: monospace; }</style>`;
    const shop = await shopWith(buttonPage('tote-ngn', style), { csp: null });
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading(/^Transfer /).waitFor();
    const look = await page.evaluate(`(() => {
      const root = document.querySelector('paydrop-checkout').shadowRoot;
      const dialog = getComputedStyle(root.querySelector('dialog'));
      const primary = getComputedStyle(root.querySelector('button.primary'));
      return { brand: primary.backgroundColor, radius: dialog.borderTopLeftRadius, font: dialog.fontFamily };
    })()`);
    expect(look).toEqual({ brand: 'rgb(10, 125, 90)', radius: '20px', font: 'monospace' });
  });
});

describe('strict CSP with Trusted Types', () => {
  it('pays end to end without a single violation or console error', async () => {
    const shop = await shopWith(buttonPage('tote-ngn', RECORDER_TAG));
    const problems: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      // The browser's own favicon request is not the widget's doing.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    const response = await page.goto(`${shop.url}/`);
    // The shop really is under the strict policy.
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("require-trusted-types-for 'script'");
    expect(policy).toContain("trusted-types 'none'");
    expect(policy).not.toContain('unsafe-inline');

    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    const payment = await shop.latestPayment();
    await button("I've sent the money").click();
    await page.locator('paydrop-checkout .body').getByText('Confirming your transfer').waitFor();
    await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
    await heading('Payment received').waitFor({ timeout: 5000 });
    // The theme and the dialog's styles applied (adopted stylesheet, no inline style).
    expect(
      await page
        .locator('paydrop-checkout dialog')
        .evaluate((dialog) => getComputedStyle(dialog).borderTopWidth),
    ).toBe('0px');
    await button('Done').click();
    await expect.poll(hosts).toBe(0);

    const { events, violations } = await recorded(page);
    expect(events.map((event) => event.type)).toEqual(['success', 'close']);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('opening and closing', () => {
  it('never stacks a second dialog when the button is pressed twice quickly', async () => {
    const shop = await shopWith(buttonPage('tote-ngn', RECORDER_TAG));
    await page.goto(`${shop.url}/`);
    await page.evaluate(() => {
      const pay = document.getElementById('pay') as HTMLButtonElement;
      pay.click();
      pay.click();
    });
    await heading('Transfer to this account').waitFor();
    expect(await hosts()).toBe(1);
    expect(await page.locator('paydrop-checkout dialog[open]').count()).toBe(1);

    // And a real double click by the customer after closing.
    await button('Close').click();
    await button('Leave').click();
    await expect.poll(hosts).toBe(0);
    await page.locator('#pay').dblclick();
    await heading('Transfer to this account').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await hosts()).toBe(1);
    expect(await page.locator('paydrop-checkout dialog[open]').count()).toBe(1);
    // One payment, however often the dialog opened.
    const listed = (await (await shop.sandbox('GET', '/__sandbox/payments')).json()) as {
      payments: unknown[];
    };
    expect(listed.payments).toHaveLength(1);
  });

  it('leaves nothing behind after opening and closing 20 times', async () => {
    const shop = await shopWith(
      buttonPage('tote-ngn', `<script src="/timers.js"></script>${RECORDER_TAG}`),
    );
    shop.scripts.set('/timers.js', TIMER_COUNTER);
    const streams = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('/api/checkout/events')) streams.add(request.url());
    });
    const ended = (request: { url(): string }) => streams.delete(request.url());
    page.on('requestfailed', ended);
    page.on('requestfinished', ended);
    const liveTimers = () =>
      page.evaluate(() => {
        const timers = (
          window as unknown as { __timers: { intervals: Set<unknown>; timeouts: Set<unknown> } }
        ).__timers;
        return { intervals: timers.intervals.size, timeouts: timers.timeouts.size };
      });
    await page.goto(`${shop.url}/`);
    const timersBefore = await liveTimers();
    const bodyChildren = await page.evaluate(() => document.body.children.length);
    for (let round = 0; round < 20; round++) {
      await page.locator('#pay').click();
      await heading('Transfer to this account').waitFor();
      if (round === 0) {
        // While open, the countdown ticks and the status stream is listened to.
        expect((await liveTimers()).intervals).toBeGreaterThan(timersBefore.intervals);
        await expect.poll(() => streams.size).toBe(1);
      }
      if (round % 2 === 0) {
        await button('Close').click();
      } else {
        await page.keyboard.press('Escape');
      }
      await button('Leave').click();
      await expect.poll(hosts).toBe(0);
    }
    expect(await page.evaluate(() => document.body.children.length)).toBe(bodyChildren);
    // No countdown, poll or status stream outlives its dialog.
    await expect.poll(() => streams.size).toBe(0);
    await expect.poll(liveTimers).toEqual(timersBefore);
    const { events } = await recorded(page);
    expect(events.filter((event) => event.type === 'close')).toHaveLength(20);
    expect(events.filter((event) => event.type === 'pending')).toHaveLength(20);
    // The page is usable again: nothing inert, the button still opens the checkout.
    expect(await page.evaluate(() => document.querySelectorAll('[inert]').length)).toBe(0);
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    expect(await hosts()).toBe(1);
  });
});

describe('French', () => {
  it('shows French texts for a button with data-paydrop-locale="fr", loaded only then', async () => {
    const french =
      '<button id="pay-fr" data-paydrop-order="tote-ngn" data-paydrop-locale="fr">Payer</button>';
    const shop = await shopWith(buttonPage('tote-ngn', french + RECORDER_TAG));
    const loaded: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.endsWith('.js')) loaded.push(`${pathname} ${response.status()}`);
    });
    await page.goto(`${shop.url}/`);
    expect(loaded).toContain('/paydrop.js 200');
    // French, in the chunks' content-named folder (paydrop-<hash>/fr.js).
    const frenchChunk = () => loaded.filter((entry) => /^\/paydrop-\w+\/fr\.js /.test(entry));
    expect(frenchChunk()).toEqual([]);

    await page.locator('#pay-fr').click();
    // Whichever language it came up in (without the catalogue it falls back to English).
    await heading(/^(Virez|Transfer) /).waitFor();
    expect(frenchChunk()).toHaveLength(1);
    expect(frenchChunk()[0]).toMatch(/ 200$/);
    expect(await heading('Virez sur ce compte').count()).toBe(1);
    const text = await dialogText();
    expect(text).toContain('25 000,50 ₦');
    expect(text).toContain('Numéro de compte');
    expect(text).toContain('Titulaire du compte');
    expect(text).toContain('Ce compte expire dans');
    expect(text).not.toContain('Account number');
    expect(await button('J’ai envoyé l’argent').isVisible()).toBe(true);
    expect(await button('Fermer').isVisible()).toBe(true);
    expect(await button('Copier le numéro de compte').isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await heading('Quitter le paiement ?').waitFor();
    await button('Quitter').click();
    await expect.poll(hosts).toBe(0);

    // The English button on the same page stays English.
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    expect(await button("I've sent the money").isVisible()).toBe(true);
  });
});

describe("the transfer's part", () => {
  it('is fetched while the list offers it, so choosing a transfer needs no download', async () => {
    // NGN with no channels set: the provider offers a transfer and a card.
    const orders = {
      'tote-both': { amountMinor: 2_500_050, currency: 'NGN' as const, description: 'Adire tote' },
    };
    const shop = await shopWith(buttonPage('tote-both', RECORDER_TAG), { orders });
    const transferPart = /^\/paydrop-\w+\/transfer\.js$/;
    const fetched: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (transferPart.test(pathname)) fetched.push(`${pathname} ${response.status()}`);
    });
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await button(/^Bank transfer/).waitFor();
    // Asked for while the customer reads the list, not in the choosing click.
    await expect.poll(() => fetched.length).toBe(1);
    expect(fetched[0]).toMatch(/ 200$/);

    // From here no part of paydrop can be downloaded: the account still shows.
    await page.route(/\/paydrop-\w+\//, (route) => route.abort());
    await button(/^Bank transfer/).click();
    await heading('Transfer to this account').waitFor();
    expect(await dialogText()).toContain('Account number');
    expect(fetched).toHaveLength(1);
  });
});
