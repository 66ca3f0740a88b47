/**
 * The PayByAccount (open banking) journey in Chromium, through the script tag on a shop page with
 * the strict CSP: the bank's window opened in the customer's click, the full-page redirect when
 * the browser blocks that window, a window closed too early, a declined payment, a payment the
 * bank keeps pending, the hand-off to a phone by QR code, and bank links that must never be opened.
 * Run `npm run build:widget` first.
 */
import jsQR from 'jsqr';
import type { BrowserContext, Dialog, Locator, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLEMENT_DELAY_MS } from '../../src/sandbox/test-data';
import { en } from '../../src/widget/messages/en';
import { outcomeMessagesEn } from '../../src/widget/outcomes/messages';
import { qrMessagesEn } from '../../src/widget/qr/messages';
import {
  checkoutOn,
  latestSandboxPayment,
  openTab,
  RECORDER_TAG,
  recordedEvents,
  recordedViolations,
  recorderScript,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, type ShopOptions, startShop } from '../helpers/shop';

/**
 * Records what the merchant's page hears: paydrop:* events (on the button, or on the document
 * element for a checkout resumed after a redirect, whose target is then 'html'), CSP violations.
 */
const RECORDER = recorderScript({ target: 'id or tag' });

interface SandboxPayment {
  readonly reference: string;
  readonly channel: string;
  readonly status: string;
  readonly stage: string;
  readonly bankAuthUrl: string | null;
}

/** What the customer reads once the payment is confirmed. */
const THANKS = en.succeededText.replace('{amount}', '£49.99');

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;
/** The customer's phone, for the QR hand-off. */
let phone: BrowserContext | undefined;
/** CSP and Trusted Types complaints in the console, from every document the tab showed. */
let consoleViolations: string[];
/** Set: the sandbox's clock stands still at this instant (see startHoldableShop). */
let sandboxHeldAt: number | null = null;

/**
 * A shop whose sandbox clock can be held still. The sandbox's clock is real time plus the offset
 * its control moves forward, and reads real time through the `Date.now` it finds when it is
 * created; it is handed one that answers `sandboxHeldAt` while that is set. Only the sandbox's
 * clock sees it: `Date.now` is put back before anything else runs.
 */
async function startHoldableShop(options: ShopOptions = {}): Promise<Shop> {
  const realNow = Date.now;
  Date.now = () => sandboxHeldAt ?? realNow();
  let started: Promise<Shop>;
  try {
    // The sandbox (and its clock) is created synchronously, before startShop's first await.
    started = startShop(options);
  } finally {
    Date.now = realNow;
  }
  const opened = await started;
  serveRecorder(opened, RECORDER);
  opened.pages.set('/', buttonPage('scarf-gbp', RECORDER_TAG));
  opened.pages.set('/bank-only', buttonPage('scarf-bank', RECORDER_TAG));
  return opened;
}

beforeEach(async () => {
  sandboxHeldAt = null;
  shop = await startHoldableShop();
  ({ context, page } = await openTab(browser()));
  consoleViolations = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type/i.test(message.text())) {
      consoleViolations.push(message.text());
    }
  });
});

afterEach(async () => {
  sandboxHeldAt = null;
  await phone?.close();
  phone = undefined;
  await context?.close();
  await shop?.close();
});

const { heading, button, dialog, dialogText } = checkoutOn(() => page);
const bankStepText = (text: string) => dialog().getByText(text, { exact: true });
const events = () => recordedEvents(page);
const payments = () => sandboxPayments<SandboxPayment>(shop);
const latest = () => latestSandboxPayment<SandboxPayment>(shop);

/** Nothing the page did broke its CSP, in this document or in any the tab showed before. */
async function expectNoCspViolations(): Promise<void> {
  expect(await recordedViolations(page)).toEqual([]);
  expect(consoleViolations).toEqual([]);
}

function bankPageUrl(reference: string): string {
  return `${shop.url}/sandbox/pages/bank/${encodeURIComponent(reference)}`;
}

/** The merchant's server hears of the payment exactly once, with this status. */
async function expectOneOutcome(reference: string, status: 'SUCCESSFUL' | 'FAILED', order: string) {
  await expect.poll(() => shop.outcomes.length).toBe(1);
  // Late webhooks and checks must not report it twice.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(shop.outcomes).toEqual([
    expect.objectContaining({
      reference,
      status,
      orderId: order,
      channel: 'PayByAccount',
      amountMatches: true,
    }),
  ]);
}

/** The pay button, then the chooser; returns the choice "Pay from your bank" (not pressed yet). */
async function openChooser(): Promise<Locator> {
  await page.locator('#pay').click();
  await heading(en.chooseMethod).waitFor();
  // Its accessible name goes on with the provider's description of the channel.
  return page.getByRole('button', { name: new RegExp(`^${en.channelPayByAccount}`) });
}

/** Presses `target` and returns the window that opened in that click, once it shows the bank. */
async function clickOpeningBank(target: Locator): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent('page'), target.click()]);
  await popup.waitForURL(/\/sandbox\/pages\/bank\//);
  return popup;
}

/** Presses a button on the bank's page in its window and waits for the window to close itself. */
async function decideInPopup(popup: Page, decision: 'Approve' | 'Decline'): Promise<void> {
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: decision, exact: true }).click();
  await closed;
}

describe('PayByAccount in the dialog', () => {
  it("opens the bank's window in the customer's click and finishes by itself once the bank approves", async () => {
    await page.goto(`${shop.url}/`);
    await page.evaluate('window.__sameDocument = true');
    const popup = await clickOpeningBank(await openChooser());

    const payment = await latest();
    expect(payment).toMatchObject({ channel: 'PayByAccount', status: 'PENDING' });
    expect(popup.url()).toBe(bankPageUrl(payment.reference));
    await popup.getByText('GBP 49.99').waitFor();
    // The bank's page gets no handle on the shop's page.
    expect(await popup.evaluate('window.opener')).toBeNull();

    await bankStepText(en.bankOpenedText).waitFor();
    expect(await heading(en.bankTitle).isVisible()).toBe(true);
    expect(await button(en.showBank).isVisible()).toBe(true);
    expect(await button(en.continueToBank).count()).toBe(0);
    expect(await events()).toEqual([]);

    await decideInPopup(popup, 'Approve');
    await heading(en.succeededTitle).waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain(THANKS);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    expect(context.pages()).toHaveLength(1);

    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect(await events()).toEqual([
      {
        type: 'success',
        target: 'pay',
        detail: {
          reference: payment.reference,
          channel: 'PayByAccount',
          amount: { amountMinor: 4_999, currency: 'GBP' },
        },
      },
    ]);
    await expectOneOutcome(payment.reference, 'SUCCESSFUL', 'scarf-gbp');
    expect((await latest()).status).toBe('SUCCESSFUL');
    await expectNoCspViolations();
  });

  it('goes to the bank in the whole page when the browser blocks the window, and picks the payment up on return', async () => {
    await page.addInitScript('window.open = () => null');
    let popups = 0;
    context.on('page', () => popups++);
    const navigations: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        navigations.push(request.url());
      }
    });

    await page.goto(`${shop.url}/`);
    await (await openChooser()).click();
    await bankStepText(en.bankReadyText).waitFor();
    expect(await button(en.continueToBank).isVisible()).toBe(true);
    expect(popups).toBe(0);
    const payment = await latest();

    await Promise.all([
      page.waitForURL(/\/sandbox\/pages\/bank\//),
      button(en.continueToBank).click(),
    ]);
    expect(page.url()).toBe(bankPageUrl(payment.reference));
    // Nothing wrong happened on the shop's page before it left.
    expect(consoleViolations).toEqual([]);

    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    // Back at the shop: the checkout opens again by itself and ends as it would have in a window.
    await heading(en.succeededTitle).waitFor({ timeout: 10_000 });
    expect(navigations).toContain(
      `${shop.url}/?paydrop_return=${encodeURIComponent(payment.reference)}`,
    );
    // The marker is gone from the address bar, so a reload or a shared link is an ordinary visit.
    expect(page.url()).toBe(`${shop.url}/`);
    expect(await dialogText()).toContain(THANKS);
    expect(popups).toBe(0);

    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect(await events()).toEqual([
      {
        type: 'success',
        target: 'html',
        detail: {
          reference: payment.reference,
          channel: 'PayByAccount',
          amount: { amountMinor: 4_999, currency: 'GBP' },
        },
      },
    ]);
    await expectOneOutcome(payment.reference, 'SUCCESSFUL', 'scarf-gbp');
    await expectNoCspViolations();

    // A reload is an ordinary visit: no checkout reopens.
    await page.reload();
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
    expect(await events()).toEqual([]);
  });

  it('offers the bank again when its window is closed before approving, and a new window finishes the payment', async () => {
    await page.goto(`${shop.url}/`);
    const first = await clickOpeningBank(await openChooser());
    const payment = await latest();
    await bankStepText(en.bankOpenedText).waitFor();

    await first.close();
    await bankStepText(en.bankClosedText).waitFor();
    expect(await button(en.continueToBank).isVisible()).toBe(true);
    expect(await button(en.showBank).count()).toBe(0);
    expect(await events()).toEqual([]);
    expect((await latest()).status).toBe('PENDING');

    const second = await clickOpeningBank(button(en.continueToBank));
    // The same payment, not a second one.
    expect(second.url()).toBe(bankPageUrl(payment.reference));
    await bankStepText(en.bankOpenedText).waitFor();
    expect((await payments()).map((each) => each.reference)).toEqual([payment.reference]);

    await decideInPopup(second, 'Approve');
    await heading(en.succeededTitle).waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect((await events())[0]?.detail?.reference).toBe(payment.reference);
    await expectOneOutcome(payment.reference, 'SUCCESSFUL', 'scarf-gbp');
    await expectNoCspViolations();
  });

  it('says the payment was not completed when the customer declines at the bank', async () => {
    await page.goto(`${shop.url}/`);
    const popup = await clickOpeningBank(await openChooser());
    const payment = await latest();
    await bankStepText(en.bankOpenedText).waitFor();

    await decideInPopup(popup, 'Decline');
    await heading(outcomeMessagesEn.bankDeclinedTitle).waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain(outcomeMessagesEn.bankDeclinedText);
    expect(await button(en.tryAgain).isVisible()).toBe(true);
    expect(await heading(en.succeededTitle).count()).toBe(0);

    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['failure']);
    const [failure] = await events();
    expect(failure?.target).toBe('pay');
    expect(failure?.detail?.code).toBe('bank_declined');
    expect((await latest()).status).toBe('FAILED');
    await expectOneOutcome(payment.reference, 'FAILED', 'scarf-gbp');
    await expectNoCspViolations();
  });

  it('shows "Processing" while the bank keeps the approved payment pending, then "Payment received"', async () => {
    await page.goto(`${shop.url}/`);
    const popup = await clickOpeningBank(await openChooser());
    const payment = await latest();
    await bankStepText(en.bankOpenedText).waitFor();

    // The bank settles SETTLEMENT_DELAY_MS after approval on the sandbox's clock: hold it still.
    sandboxHeldAt = Date.now();
    const clock = (await (
      await shop.sandbox('POST', '/__sandbox/clock', { advanceSeconds: 0 })
    ).json()) as { now: string };
    expect(Date.parse(clock.now)).toBe(sandboxHeldAt);
    await decideInPopup(popup, 'Approve');
    await dialog().getByText(en.processing, { exact: true }).waitFor();
    // …and a screen reader, which follows focus, reads it out.
    await expect
      .poll(() =>
        page.evaluate(
          "document.querySelector('paydrop-checkout').shadowRoot.activeElement?.textContent",
        ),
      )
      .toBe(en.processing);
    expect((await latest()).status).toBe('PENDING');

    // The widget asks again and hears PENDING: it keeps waiting, and claims nothing.
    await page.waitForResponse(
      async (response) =>
        response.url().includes('/api/checkout/status') &&
        response.ok() &&
        ((await response.json()) as { status?: string }).status === 'PENDING',
    );
    expect(await dialog().getByText(en.processing, { exact: true }).isVisible()).toBe(true);
    expect(await heading(en.succeededTitle).count()).toBe(0);
    expect(await button(en.continueToBank).count()).toBe(0);
    expect(await events()).toEqual([]);
    expect(shop.outcomes).toEqual([]);

    // The bank settles.
    const moved = await shop.sandbox('POST', '/__sandbox/clock', {
      advanceSeconds: SETTLEMENT_DELAY_MS / 1000,
    });
    expect(moved.status).toBe(200);
    sandboxHeldAt = null;
    expect((await latest()).status).toBe('SUCCESSFUL');
    await heading(en.succeededTitle).waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    await expectOneOutcome(payment.reference, 'SUCCESSFUL', 'scarf-gbp');
    await expectNoCspViolations();
  });

  it("hands the payment to the customer's phone by QR code, and the desktop finishes by itself", async () => {
    let popups = 0;
    context.on('page', () => popups++);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // The QR chunk, in the chunks' content-named folder (paydrop-<hash>/qr.js).
    const qrChunk = () => requested.filter((path) => /^\/paydrop-\w+\/qr\.js$/.test(path));

    await page.goto(`${shop.url}/bank-only`);
    await page.locator('#pay').click();
    // One channel: no chooser, straight to the bank step, with no window opened.
    await bankStepText(en.bankReadyText).waitFor();
    expect(await button(en.continueToBank).isVisible()).toBe(true);
    const payment = await latest();
    expect(qrChunk()).toEqual([]);

    const [chunk] = await Promise.all([
      page.waitForResponse((response) => /\/paydrop-\w+\/qr\.js$/.test(response.url())),
      button(en.usePhone).click(),
    ]);
    expect(chunk.status(), 'dist/paydrop-<hash>/qr.js: run npm run build:widget').toBe(200);
    const qr = page.getByRole('img', { name: qrMessagesEn.qrLabel });
    await qr.waitFor();
    expect(await page.locator('paydrop-checkout svg.qr').count()).toBe(1);
    expect(qrChunk()).toHaveLength(1);
    expect(await dialogText()).toContain(qrMessagesEn.phoneText);
    // The button stays (so keyboard focus is not lost), and pressing it again draws no second code.
    await button(en.usePhone).click();
    expect(await page.locator('paydrop-checkout svg.qr').count()).toBe(1);

    // Read the code as a phone's camera would: the SVG drawn on a canvas, decoded from pixels.
    const image = (await page.evaluate(`(async () => {
      const svg = document.querySelector('paydrop-checkout').shadowRoot.querySelector('svg.qr');
      const modules = svg.viewBox.baseVal.width;
      const side = modules * 6;
      const picture = new Image();
      picture.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
      await picture.decode();
      const canvas = document.createElement('canvas');
      canvas.width = side;
      canvas.height = side;
      const context = canvas.getContext('2d');
      context.imageSmoothingEnabled = false;
      context.drawImage(picture, 0, 0, side, side);
      const pixels = context.getImageData(0, 0, side, side).data;
      let bytes = '';
      for (let at = 0; at < pixels.length; at += 0x8000) {
        bytes += String.fromCharCode.apply(null, pixels.subarray(at, at + 0x8000));
      }
      return { side, rgba: btoa(bytes) };
    })()`)) as { side: number; rgba: string };
    const pixels = new Uint8ClampedArray(Buffer.from(image.rgba, 'base64'));
    expect(pixels.length).toBe(image.side * image.side * 4);
    const decoded = jsQR(pixels, image.side, image.side);
    expect(decoded?.data).toBe(payment.bankAuthUrl);
    expect(decoded?.data).toBe(bankPageUrl(payment.reference));

    // The phone opens the bank from the code and approves there.
    phone = await browser().newContext({
      isMobile: true,
      hasTouch: true,
      viewport: { width: 390, height: 844 },
    });
    const handset = await phone.newPage();
    await handset.goto(decoded?.data ?? '');
    await handset.getByText('GBP 49.99').waitFor();
    await handset.getByRole('button', { name: 'Approve', exact: true }).click();

    await heading(en.succeededTitle).waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect(await events()).toEqual([
      {
        type: 'success',
        target: 'pay',
        detail: {
          reference: payment.reference,
          channel: 'PayByAccount',
          amount: { amountMinor: 4_999, currency: 'GBP' },
        },
      },
    ]);
    await expectOneOutcome(payment.reference, 'SUCCESSFUL', 'scarf-bank');
    expect(popups).toBe(0);
    expect(qrChunk()).toHaveLength(1);
    await expectNoCspViolations();
  });
});

describe('bank links that must not be opened', () => {
  /** Every window the context opens and every URL it goes to; every alert() that shows. */
  function watchWindows() {
    const opened: Page[] = [];
    const urls: string[] = [];
    const dialogs: string[] = [];
    context.on('page', (popup) => {
      opened.push(popup);
      urls.push(popup.url());
      popup.on('framenavigated', (frame) => urls.push(frame.url()));
    });
    const onDialog = (shown: Dialog) => {
      dialogs.push(shown.message());
      void shown.dismiss();
    };
    context.on('dialog', onDialog);
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    return { opened, urls, dialogs };
  }

  it.each([
    ['a javascript: URL', 'javascript:alert(document.domain)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
  ])(
    'refuses %s as the bank link from the checkout server, and closes the blank window',
    async (_, hostile) => {
      const seen = watchWindows();
      await page.route('**/api/checkout/initiate', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { payment: { bankAuthUrl: string | null } };
        expect(body.payment.bankAuthUrl).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/pages\/bank\//,
        );
        body.payment.bankAuthUrl = hostile;
        await route.fulfill({ response, json: body });
      });

      await page.goto(`${shop.url}/`);
      await (await openChooser()).click();
      await heading(en.errorTitle).waitFor({ timeout: 10_000 });
      expect(await dialogText()).toContain(en.errorGeneric);
      expect(await button(en.continueToBank).count()).toBe(0);

      // The window opened in the click, still blank, is closed again.
      expect(seen.opened.length).toBeLessThanOrEqual(1);
      await expect.poll(() => seen.opened.every((popup) => popup.isClosed())).toBe(true);
      const hostileScheme = hostile.slice(0, hostile.indexOf(':') + 1);
      expect(seen.urls.filter((url) => url.startsWith(hostileScheme))).toEqual([]);
      expect(seen.urls.filter((url) => !url.startsWith(shop.url) && url !== 'about:blank')).toEqual(
        [],
      );
      expect(page.url()).toBe(`${shop.url}/`);
      expect(seen.dialogs).toEqual([]);
      expect(await events()).toEqual([]);
      await expectNoCspViolations();
    },
  );

  it.each([
    ['an http: link to another host', 'http://bank.example/authorise'],
    ['a javascript: link', 'javascript:alert(document.domain)'],
  ])('has the companion refuse %s from the provider', async (_, hostile) => {
    // The provider's answer to initiate, with its AuthUrl swapped on the way to the companion.
    const logged: string[] = [];
    const provider: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith('/api/payment/pay/initiate')) return response;
      const swapped = (await response.text()).replace(
        /http:\/\/127\.0\.0\.1:\d+\/sandbox\/pages\/bank\/[^"]+/g,
        JSON.stringify(hostile).slice(1, -1),
      );
      expect(swapped).toContain(JSON.stringify(hostile).slice(1, -1));
      return new Response(swapped, {
        status: response.status,
        headers: { 'content-type': 'application/json' },
      });
    };
    await shop.close();
    shop = await startHoldableShop({
      companion: {
        fetch: provider,
        logger: { warn: () => {}, error: (message) => void logged.push(message) },
      },
    });
    const seen = watchWindows();

    await page.goto(`${shop.url}/`);
    await (await openChooser()).click();
    await heading(en.errorTitle).waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain(outcomeMessagesEn.errorUnavailable);
    expect(await button(en.continueToBank).count()).toBe(0);
    // The merchant's log says why.
    expect(logged).toContain('paydrop: refused a bank authorisation URL that is not https');

    expect(seen.opened.length).toBeLessThanOrEqual(1);
    await expect.poll(() => seen.opened.every((popup) => popup.isClosed())).toBe(true);
    expect(seen.urls.filter((url) => !url.startsWith(shop.url) && url !== 'about:blank')).toEqual(
      [],
    );
    expect(seen.dialogs).toEqual([]);
    expect(shop.outcomes).toEqual([]);
    await expectNoCspViolations();
  });
});
