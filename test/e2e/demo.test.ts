/**
 * A newcomer's runs through `npm start` in Chromium, each on a demo server of its own (an order
 * is paid once, so journeys must not share one): the NGN tote by bank transfer, chosen in the
 * checkout, with the sandbox paying from the pop-out controls (the checkout is modal, so the shop
 * page is inert while it is open); the GBP scarf from the bank, approved in the bank's window, and
 * declined from the controls; the USD mug by card through the issuer's challenge; a fresh
 * one-time payment link, paid and then refused as already paid; and the SPA, which imports the
 * npm module, paying by transfer and coming back into its own views after a full-page bank
 * redirect. Every page keeps the demo's strict CSP (Trusted Types included) without a violation.
 * Run `npm run build:widget` first.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seriousFindingsPastCsp } from '../helpers/axe-page';
import { launchChromium } from '../helpers/browser';
import { type DemoProcess, startDemoProcess } from '../helpers/demo-process';

/** Installed in every page before its own scripts: what the strict CSP refused. */
const RECORDER = `
window.__demo = { violations: [] };
document.addEventListener('securitypolicyviolation', (event) => {
  window.__demo.violations.push(event.violatedDirective + ' ' + event.blockedURI);
}, true);
`;

/** The sandbox's test cards (docs/sandbox.md, "Test data"). */
const CARDS = { success: '4242424242424242', challenge: '4000000000003220' } as const;
const FUTURE_EXPIRY = `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
  readonly channel: string;
  readonly linkAlias: string | null;
}

let browser: Browser;
let demo: DemoProcess | undefined;
let base: string;
let context: BrowserContext;
/** CSP and Trusted Types complaints on the console of any page of the context. */
let consoleViolations: string[];
/** Uncaught errors in any page of the context. */
let pageErrors: string[];

function watch(page: Page): void {
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type/i.test(message.text())) {
      consoleViolations.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  demo = await startDemoProcess();
  base = demo.url;
  context = await browser.newContext({ viewport: { width: 1200, height: 850 } });
  await context.addInitScript(RECORDER);
  consoleViolations = [];
  pageErrors = [];
  context.on('page', watch);
});

afterEach(async () => {
  await context?.close();
  await demo?.stop();
  demo = undefined;
});

/** Nothing broke the strict CSP in this page, nor on any console of the context, nor threw. */
async function expectCleanRun(page: Page): Promise<void> {
  expect(await page.evaluate('window.__demo.violations')).toEqual([]);
  expect(consoleViolations).toEqual([]);
  expect(pageErrors).toEqual([]);
}

/** The checkout's dialog (locators pierce the open shadow root of <paydrop-checkout>). */
function checkout(page: Page): Locator {
  return page.locator('paydrop-checkout dialog');
}

/** The dialog's text as the customer reads it (Intl's no-break spaces as plain ones). */
async function dialogText(page: Page): Promise<string> {
  return (await checkout(page).innerText()).replace(/[\u00a0\u202f]/g, ' ');
}

/** A choice in the checkout's list of ways to pay: one button per channel. */
function choice(page: Page, name: 'Bank transfer' | 'Pay from your bank' | 'Card'): Locator {
  return checkout(page).getByRole('button', { name: new RegExp(`^${name}`) });
}

async function payments(): Promise<SandboxPayment[]> {
  const answer = (await (await fetch(`${base}/demo/sandbox/payments`)).json()) as {
    payments: SandboxPayment[];
  };
  return answer.payments;
}

async function fillCard(page: Page, number: string): Promise<void> {
  const dialog = page.frameLocator('paydrop-checkout iframe.card-frame');
  await dialog.getByLabel('Card number', { exact: true }).fill(number);
  await dialog.getByLabel('Expiry date (MM / YY)', { exact: true }).fill(FUTURE_EXPIRY);
  await dialog.getByLabel('Security code', { exact: true }).fill('123');
  await dialog.getByLabel('Name on card', { exact: true }).fill('Amina Bello');
}

async function openControls(shop: Page): Promise<Page> {
  const [controls] = await Promise.all([
    shop.waitForEvent('popup'),
    shop.getByRole('button', { name: 'Open these controls in their own window' }).click(),
  ]);
  await controls.waitForLoadState();
  return controls;
}

/** Chooses "Pay from your bank" and returns the bank's window that click opened. */
async function chooseBankWindow(page: Page): Promise<Page> {
  const [bank] = await Promise.all([
    context.waitForEvent('page'),
    choice(page, 'Pay from your bank').click(),
  ]);
  await bank.waitForURL(/\/sandbox\/pages\/bank\//);
  return bank;
}

describe('the script-tag shop', () => {
  it('names the shop in its checkout, its logo beside, each way to pay marked, on a phone and a desktop (issue 23)', async () => {
    const shop = await context.newPage();
    for (const viewport of [
      { width: 375, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      await shop.setViewportSize(viewport);
      await shop.goto(`${base}/`);
      await shop.getByRole('button', { name: 'Pay by bank transfer or card', exact: true }).click();
      await choice(shop, 'Bank transfer').waitFor();
      const merchant = checkout(shop).locator('.merchant');
      expect(await merchant.textContent()).toBe('Indigo & Oat');
      // The shop's own logo, allowed by its strict CSP (img-src 'self'), decoration beside the name.
      const logo = merchant.locator('img');
      expect(await logo.getAttribute('alt')).toBe('');
      await expect
        .poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      for (const name of ['Bank transfer', 'Card'] as const) {
        expect(await choice(shop, name).locator('svg').count()).toBe(1);
      }
      const sizes = await checkout(shop).evaluate((dialog) =>
        [...dialog.querySelectorAll('*')]
          .filter((element) =>
            [...element.childNodes].some(
              (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
            ),
          )
          .filter((element) => element.checkVisibility() && !element.closest('.visually-hidden'))
          .map((element) => [
            element.textContent?.trim() ?? '',
            Number.parseFloat(getComputedStyle(element).fontSize),
          ]),
      );
      const largest = Math.max(...sizes.map(([, size]) => Number(size)));
      expect(sizes.filter(([, size]) => size === largest).map(([text]) => text)).toEqual([
        '₦25,000.50',
      ]);
      await shop.keyboard.press('Escape');
      await checkout(shop).waitFor({ state: 'detached' });
    }
    await expectCleanRun(shop);
  });

  it('offers each product by what it can be paid with, and tells the test cards and the bank step', async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    for (const name of [
      'Pay by bank transfer or card',
      'Pay by bank transfer',
      'Pay from your bank or by card',
      'Pay by card',
      'Payer par virement ou par carte',
      'Create a payment link and pay it',
    ]) {
      expect(await shop.getByRole('button', { name, exact: true }).isVisible(), name).toBe(true);
    }
    expect(await shop.getByRole('button', { name: 'Open the last link again' }).isDisabled()).toBe(
      true,
    );
    const hints = await shop.locator('.test-data').innerText();
    for (const text of ['4242 4242 4242 4242', '4000 0000 0000 3220', '123456', 'Approve']) {
      expect(hints).toContain(text);
    }
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);
    await expectCleanRun(shop);
  });

  it('pays the tote by bank transfer, chosen in the checkout, the sandbox paying from the pop-out controls', async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    const controls = await openControls(shop);

    await shop.getByRole('button', { name: 'Pay by bank transfer or card', exact: true }).click();
    const dialog = shop.getByRole('dialog', { name: 'Adire tote bag, indigo' });
    await dialog.getByRole('heading', { name: 'How would you like to pay?' }).waitFor();
    // NGN: a bank transfer or a card, one button each.
    expect(await choice(shop, 'Bank transfer').isVisible()).toBe(true);
    expect(await choice(shop, 'Card').isVisible()).toBe(true);
    expect(await choice(shop, 'Pay from your bank').count()).toBe(0);
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);

    await choice(shop, 'Bank transfer').click();
    await dialog.getByRole('heading', { name: /Transfer/ }).waitFor();
    const accountNumber = await dialog.locator('.account').textContent();
    expect(accountNumber).toMatch(/^\d{3} \d{3} \d{4}$/);
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);

    await dialog.getByRole('button', { name: "I've sent the money" }).click();
    await controls.getByRole('button', { name: 'Pay into the latest account' }).click();
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);
    // The controls window's log shows the webhook and the confirmed outcome.
    await expect
      .poll(() => controls.locator('#log').textContent())
      .toContain('(order tote-ngn), confirmed with the provider');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shop.locator('#log').textContent()).toContain('widget success');
    await expectCleanRun(shop);
    await expectCleanRun(controls);
  });

  it('goes straight to the account for the cushion, which the merchant sells by transfer only', async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    await shop.getByRole('button', { name: 'Pay by bank transfer', exact: true }).click();
    const dialog = shop.getByRole('dialog', { name: 'Indigo cushion cover, 45 cm' });
    await dialog.getByRole('heading', { name: /Transfer/ }).waitFor();
    expect(await dialog.getByRole('heading', { name: 'How would you like to pay?' }).count()).toBe(
      0,
    );
    expect((await payments()).map((payment) => payment.channel)).toEqual(['PayByTransfer']);
    await expectCleanRun(shop);
  });

  it('pays the scarf from the bank: "Approve" in the bank\'s window, and "Payment received" without a reload', async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    await shop.evaluate('window.__sameDocument = true');

    await shop.getByRole('button', { name: 'Pay from your bank or by card', exact: true }).click();
    const dialog = shop.getByRole('dialog', { name: 'Merino scarf, oat' });
    await dialog.getByRole('heading', { name: 'How would you like to pay?' }).waitFor();
    // GBP: from the bank or a card.
    expect(await choice(shop, 'Card').isVisible()).toBe(true);
    expect(await choice(shop, 'Bank transfer').count()).toBe(0);

    const bank = await chooseBankWindow(shop);
    await dialog.getByRole('heading', { name: 'Pay from your bank' }).waitFor();
    await bank.getByText('GBP 49.99').waitFor();
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);

    const closed = bank.waitForEvent('close');
    await bank.getByRole('button', { name: 'Approve', exact: true }).click();
    await closed;
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    expect(await dialogText(shop)).toContain('Thank you! Your payment of £49.99 is confirmed.');
    expect(await shop.evaluate('window.__sameDocument')).toBe(true);
    expect(shop.url()).toBe(`${base}/`);
    expect(await payments()).toEqual([
      expect.objectContaining({ channel: 'PayByAccount', status: 'SUCCESSFUL' }),
    ]);

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shop.locator('#log').textContent()).toContain('"PayByAccount"');
    expect(await shop.locator('#log').textContent()).toContain('widget success');
    await expectCleanRun(shop);
  });

  it('declines the scarf at the bank from the pop-out controls', async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    const controls = await openControls(shop);

    await shop.getByRole('button', { name: 'Pay from your bank or by card', exact: true }).click();
    const dialog = shop.getByRole('dialog', { name: 'Merino scarf, oat' });
    const bank = await chooseBankWindow(shop);
    await dialog.getByRole('heading', { name: 'Pay from your bank' }).waitFor();

    // The customer decides in the bank's app instead: the controls play it.
    await controls.getByRole('button', { name: 'Decline at the bank' }).click();
    await dialog.getByRole('heading', { name: 'Declined by your bank' }).waitFor({
      timeout: 10_000,
    });
    expect((await payments()).map((payment) => [payment.channel, payment.status])).toEqual([
      ['PayByAccount', 'FAILED'],
    ]);
    // Nothing is left for the controls to decide.
    await controls.getByRole('button', { name: 'Approve at the bank' }).click();
    await expect
      .poll(() => controls.locator('#log').textContent())
      .toContain('No payment from a bank is waiting for a decision.');
    await bank.close();
    await expectCleanRun(shop);
    await expectCleanRun(controls);
  });

  it("pays the mug by card through the issuer's challenge", async () => {
    const shop = await context.newPage();
    await shop.goto(`${base}/`);
    await shop.getByRole('button', { name: 'Pay by card', exact: true }).click();
    const dialog = shop.getByRole('dialog', { name: 'Enamel camp mug' });
    // USD: a card only, so no list to choose from.
    await dialog.getByRole('heading', { name: 'Pay by card' }).waitFor();

    await fillCard(shop, CARDS.challenge);
    await dialog.getByRole('button', { name: 'Pay $18.00' }).click();
    await dialog.getByRole('heading', { name: 'Verify it’s you' }).waitFor({ timeout: 10_000 });
    const issuer = shop.frameLocator('paydrop-checkout iframe').frameLocator('iframe');
    await issuer.getByLabel('One-time code').fill('123456');
    await issuer.getByRole('button', { name: 'Verify' }).click();

    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    expect(await dialogText(shop)).toContain('Thank you! Your payment of $18.00 is confirmed.');
    expect(await payments()).toEqual([
      expect.objectContaining({ channel: 'Card', status: 'SUCCESSFUL' }),
    ]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => shop.locator('#log').textContent())
      .toContain('(order mug-usd), confirmed with the provider');
    await expectCleanRun(shop);
  });

  it('pays a fresh one-time payment link, and the same link again says it is already paid', async () => {
    const shop = await context.newPage();
    const made: Array<Record<string, unknown>> = [];
    shop.on('response', async (response) => {
      if (new URL(response.url()).pathname === '/demo/link') made.push(await response.json());
    });
    await shop.goto(`${base}/`);

    await shop.getByRole('button', { name: 'Create a payment link and pay it' }).click();
    const dialog = shop.getByRole('dialog', { name: 'Gift card, £20.00' });
    await dialog.getByRole('heading', { name: 'How would you like to pay?' }).waitFor();
    // The page got the alias and nothing else; the key stayed on the server.
    expect(made).toHaveLength(1);
    expect(Object.keys(made[0] ?? {}).sort()).toEqual(['alias', 'description']);
    const alias = made[0]?.alias as string;
    expect(alias).toMatch(/^\w+$/);

    // Cards are paid on the provider's hosted page, in a window of the provider's own origin.
    const [provider] = await Promise.all([
      shop.waitForEvent('popup'),
      choice(shop, 'Card').click(),
    ]);
    await provider.getByLabel('Card number').waitFor();
    expect(new URL(provider.url()).origin).not.toBe(new URL(base).origin);
    await provider.getByLabel('Name on card').fill('Amina Bello');
    await provider.getByLabel('Card number').fill(CARDS.success);
    await provider.getByLabel('Expiry (MM/YY)').fill(FUTURE_EXPIRY.replaceAll(' ', ''));
    await provider.getByLabel('Security code').fill('123');
    await provider.getByRole('button', { name: /^Pay / }).click();
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    // One card payment, on the one-time page the companion made for this link's checkout.
    expect(await payments()).toEqual([
      expect.objectContaining({ channel: 'Card', status: 'SUCCESSFUL' }),
    ]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => shop.locator('#log').textContent())
      .toContain(`(link ${alias}), confirmed with the provider`);
    expect(await shop.getByRole('status').filter({ hasText: 'Last link' }).textContent()).toContain(
      alias,
    );

    // The same one-time link again: said at once, before any way to pay is offered.
    await shop.getByRole('button', { name: 'Open the last link again' }).click();
    // (Before any session there is no description: the dialog is just "Checkout".)
    const again = shop.getByRole('dialog', { name: 'Checkout' });
    await again.getByRole('heading', { name: 'Already paid' }).waitFor({ timeout: 10_000 });
    expect(await dialogText(shop)).toContain(
      'This has already been paid. There is nothing more to pay.',
    );
    expect(await again.getByRole('button', { name: 'Card' }).count()).toBe(0);
    // No second payment, and a plain way out.
    expect((await payments()).map((payment) => payment.status)).toEqual(['SUCCESSFUL']);
    await again.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => shop.locator('paydrop-checkout').count()).toBe(0);
    expect(await seriousFindingsPastCsp(shop, 'demo')).toEqual([]);
    await expectCleanRun(shop);
  });
});

describe('the SPA that imports the npm module', () => {
  it('pays the tote by transfer and moves to its thank-you view', async () => {
    const spa = await context.newPage();
    await spa.goto(`${base}/spa`);
    await spa.getByRole('button', { name: 'Pay by bank transfer or card' }).click();
    const dialog = spa.getByRole('dialog', { name: 'Adire tote bag, indigo' });
    await choice(spa, 'Bank transfer').click();
    await dialog.getByRole('heading', { name: /Transfer/ }).waitFor();
    const pending = (await payments()).find((payment) => payment.channel === 'PayByTransfer');
    const paid = await fetch(`${base}/demo/sandbox/payments/${pending?.reference}/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await spa.getByRole('heading', { name: 'Thank you!' }).waitFor();
    expect(spa.url()).toBe(`${base}/spa#thanks`);
    await expectCleanRun(spa);
  });

  it('comes back into the SPA after a full-page redirect to the bank, and ends in its thank-you view', async () => {
    const spa = await context.newPage();
    // A browser that blocks the bank's window: the whole tab goes to the bank instead.
    await spa.addInitScript('window.open = () => null');
    await spa.goto(`${base}/spa`);
    await spa.getByRole('button', { name: 'Pay from your bank or by card' }).click();
    const dialog = spa.getByRole('dialog', { name: 'Merino scarf, oat' });
    await choice(spa, 'Pay from your bank').click();
    const onward = dialog.getByRole('button', { name: 'Continue to your bank' });
    await onward.waitFor();
    const [payment] = await payments();
    // Nothing wrong happened on the SPA before it left.
    await expectCleanRun(spa);

    await Promise.all([spa.waitForURL(/\/sandbox\/pages\/bank\//), onward.click()]);
    await spa.getByRole('button', { name: 'Approve', exact: true }).click();
    await spa.waitForURL(/\/spa/);

    // resume() on load: the checkout opens again on that payment and finishes it.
    await dialog.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 10_000 });
    expect(await dialogText(spa)).toContain('Thank you! Your payment of £49.99 is confirmed.');
    // The return marker is gone from the address bar (the SPA's own #thanks may be there).
    expect(spa.url()).toMatch(new RegExp(`^${base}/spa(#thanks)?$`));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await spa.getByRole('heading', { name: 'Thank you!' }).waitFor();
    expect(await spa.getByText(`Payment ${payment?.reference} confirmed.`).isVisible()).toBe(true);
    expect(await payments()).toEqual([
      expect.objectContaining({ channel: 'PayByAccount', status: 'SUCCESSFUL' }),
    ]);
    await expectCleanRun(spa);

    // A reload is an ordinary visit: the cart, and no checkout.
    await spa.goto(`${base}/spa`);
    await spa.getByRole('heading', { name: 'Your cart' }).waitFor();
    expect(await spa.locator('paydrop-checkout').count()).toBe(0);
  });
});
