/**
 * What the widget's browser tests (test/e2e/widget-*.test.ts) share about the merchant's page:
 * Chromium for the file and a fresh tab per test, the recorder script that notes what the page
 * hears, and the locators that find the checkout in it. Run `npm run build:widget` first.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  FrameLocator,
  Locator,
  Page,
} from 'playwright';
import { afterAll, beforeAll } from 'vitest';
import { type ChromiumOptions, launchChromium } from './browser';
import type { Shop } from './shop';

// Chromium and tabs.

/**
 * Connects to the run's Chromium before the file's first test (or launches one of its own, with
 * `ownClipboard`) and closes it after its last; returns the browser. Call it at the top level of
 * the test file.
 */
export function useChromium(options: ChromiumOptions = {}): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium(options);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running: call useChromium() at the top level');
    return browser;
  };
}

/**
 * Keeps a picture of the page as `name`.png in the folder SHOTS names, for a person to look at;
 * without SHOTS it takes none. A fixed folder would be shared by two copies of the suite running
 * side by side, and a picture nobody asked for costs time and proves nothing.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.SHOTS;
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`) });
}

/** A fresh context (with reduced motion, unless `options` say otherwise) and a page in it. */
export async function openTab(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  return { context, page: await context.newPage() };
}

// The recorder: what the merchant's page hears.

/** Where a shop serves the recorder (see serveRecorder), and the tag that loads it. */
export const RECORDER_PATH = '/recorder.js';
export const RECORDER_TAG = `<script src="${RECORDER_PATH}"></script>`;

export interface RecorderOptions {
  /**
   * What an event's `target` records: the element's id (the default), or its id or, when it has
   * none, its tag name ('html' for the document element, where a checkout resumed after a
   * redirect reports).
   */
  readonly target?: 'id' | 'id or tag';
  /**
   * Where CSP violations are heard: on the document (the default), or on the window as well, each
   * then recorded with the sample the browser gives of what it blocked.
   */
  readonly violations?: 'document' | 'window and document, with sample';
}

/**
 * The recorder, a page script: it keeps the paydrop:* events heard on the document (with their
 * target and detail) in `window.__paydrop.events`, and the CSP violations in
 * `window.__paydrop.violations`. Page scripts stay strings: a function would be serialized with
 * the helpers tsx adds to it.
 */
export function recorderScript({
  target = 'id',
  violations = 'document',
}: RecorderOptions = {}): string {
  const targetOf =
    target === 'id' ? 'event.target.id' : 'event.target.id || event.target.localName';
  const recordViolations =
    violations === 'document'
      ? `document.addEventListener('securitypolicyviolation', (event) => {
  window.__paydrop.violations.push(event.violatedDirective + ' ' + event.blockedURI);
}, true);`
      : `for (const where of [window, document]) {
  where.addEventListener('securitypolicyviolation', (event) => {
    window.__paydrop.violations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sample);
  }, true);
}`;
  return `
window.__paydrop = { events: [], violations: [] };
for (const type of ['success', 'failure', 'pending', 'close']) {
  document.addEventListener('paydrop:' + type, (event) => {
    const target = event.target instanceof Element ? ${targetOf} : '';
    window.__paydrop.events.push({ type, target, detail: JSON.parse(JSON.stringify(event.detail ?? null)) });
  });
}
${recordViolations}
`;
}

/** The recorder with the defaults: the target's id, violations heard on the document. */
export const RECORDER = recorderScript();

/** Has `shop` serve `script` (the default recorder unless given) at RECORDER_PATH. */
export function serveRecorder(shop: Shop, script: string = RECORDER): void {
  shop.scripts.set(RECORDER_PATH, script);
}

/** The detail of a paydrop:* event, as far as the tests read it. */
export interface RecordedDetail {
  readonly reference?: string;
  readonly status?: string;
  readonly code?: string;
  readonly channel?: string;
  readonly amount?: { amountMinor: number; currency: string };
}

/** A paydrop:* event as the recorder kept it. */
export interface Recorded<Detail extends object = RecordedDetail> {
  readonly type: 'success' | 'failure' | 'pending' | 'close';
  /** The element's id; or, with the recorder's target 'id or tag', its tag name if it has none. */
  readonly target: string;
  readonly detail: Detail | null;
}

/** Everything the recorder has kept so far. */
export async function recorded<Detail extends object = RecordedDetail>(
  page: Page,
): Promise<{ events: Recorded<Detail>[]; violations: string[] }> {
  return (await page.evaluate('window.__paydrop')) as {
    events: Recorded<Detail>[];
    violations: string[];
  };
}

/** The paydrop:* events the recorder has kept so far, in order. */
export async function recordedEvents<Detail extends object = RecordedDetail>(
  page: Page,
): Promise<Recorded<Detail>[]> {
  return (await page.evaluate('window.__paydrop.events')) as Recorded<Detail>[];
}

/** The CSP violations the recorder has kept so far. */
export async function recordedViolations(page: Page): Promise<string[]> {
  return (await page.evaluate('window.__paydrop.violations')) as string[];
}

// The checkout on the page.

/** The dialog's text as the customer reads it (Intl's no-break spaces as plain ones). */
export async function dialogText(page: Page): Promise<string> {
  return (await page.locator('paydrop-checkout dialog').innerText()).replace(
    /[\u00a0\u202f]/g,
    ' ',
  );
}

/**
 * Locators for the checkout on the page `current()` returns at the time of the call (a test
 * file's `page` is a new one for each test). They pierce the open shadow root of
 * <paydrop-checkout>.
 */
export function checkoutOn(current: () => Page) {
  return {
    heading: (name: string | RegExp): Locator => current().getByRole('heading', { name }),
    /** A button by its whole accessible name. */
    button: (name: string | RegExp): Locator =>
      current().getByRole('button', { name, exact: true }),
    /** An input by its whole label. */
    field: (label: string): Locator => current().getByLabel(label, { exact: true }),
    /** The card form, in the companion's card frame inside the dialog (issue 19). */
    cardForm: (): FrameLocator => current().frameLocator('paydrop-checkout iframe.card-frame'),
    /** A card field by its whole label, in the card frame. */
    cardField: (label: string): Locator =>
      current()
        .frameLocator('paydrop-checkout iframe.card-frame')
        .getByLabel(label, { exact: true }),
    dialog: (): Locator => current().locator('paydrop-checkout dialog'),
    /** Text in the dialog's body (its live region repeats some of it for screen readers). */
    shown: (text: string, options?: { exact?: boolean }): Locator =>
      current().locator('paydrop-checkout .body').getByText(text, options),
    /** The issuer's page, inside the companion's challenge page, inside the dialog. */
    issuer: (): FrameLocator =>
      current().frameLocator('paydrop-checkout iframe').frameLocator('iframe'),
    dialogText: (): Promise<string> => dialogText(current()),
  };
}

// The shop's sandbox.

/** The payments the shop's sandbox holds, oldest first, as `Payment` (what the test reads). */
export async function sandboxPayments<Payment>(shop: Shop): Promise<Payment[]> {
  const answer = (await (await shop.sandbox('GET', '/__sandbox/payments')).json()) as {
    payments: Payment[];
  };
  return answer.payments;
}

/** The newest payment the shop's sandbox holds; throws if it holds none. */
export async function latestSandboxPayment<Payment>(shop: Shop): Promise<Payment> {
  const payment = (await sandboxPayments<Payment>(shop)).at(-1);
  if (!payment) throw new Error('the sandbox holds no payment');
  return payment;
}
