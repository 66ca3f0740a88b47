/**
 * `npm run screenshots`: pictures of every checkout state and of the back office, made from the
 * demo (`npm start`'s server, started here on free ports) in Chromium, at a phone's 375 × 740 and
 * a desktop's 1280 × 800, light and dark, into docs/screenshots/ with a README listing them
 * (issue 23, item 7).
 *
 * Each size runs on a demo of its own, the two side by side. Each state starts from a reset
 * sandbox (which also empties the companion's store) in a fresh browser context, so one state's failure never spoils another's; a failure names its state and
 * size, the others still run, and the script exits 1 at the end. The states are reached through
 * the accessible names of the checkout's texts (imported from their catalogues, so a change of
 * wording follows), not its markup. `npm run screenshots -- paid qr` makes only those states.
 * Run `npm run build:widget` first: the demo serves dist/.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright';
import { cardFrameTexts } from '../src/card-frame/messages';
import { cardMessagesEn } from '../src/widget/channels/card/messages';
import { en } from '../src/widget/messages/en';
import { outcomeMessagesEn } from '../src/widget/outcomes/messages';
import { qrMessagesEn } from '../src/widget/qr/messages';
import { launchChromium } from '../test/helpers/browser';
import { type DemoProcess, startDemoProcess } from '../test/helpers/demo-process';

const OUT = new URL('../docs/screenshots/', import.meta.url);
const PASSWORD = `screenshots-${crypto.randomUUID()}`;
const SIZES = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** Long enough for a settlement on a loaded machine, short enough to fail a run quickly. */
const STEP_TIMEOUT_MS = 15_000;

const frameTexts = cardFrameTexts('en');
const CARDS = {
  success: '4242424242424242',
  challenge: '4000000000003220',
  declined: '4000000000000002',
} as const;
const EXPIRY = `12${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

interface Stage {
  readonly page: Page;
  readonly demo: DemoProcess;
  readonly width: number;
}

interface State {
  readonly name: string;
  /** What the README says the picture shows. */
  readonly shows: string;
  /** Brings `stage.page` to the state; the page is on the demo's shop, nothing opened yet. */
  reach(stage: Stage): Promise<void>;
  /** The whole page rather than the viewport (the back office is longer than a screen). */
  readonly fullPage?: boolean;
}

// The checkout, found by role and accessible name inside its dialog.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name that starts with `text` (a channel's button also names its description). */
const startingWith = (text: string) => new RegExp(`^${escapeRegExp(text)}`);
const dialog = (page: Page): Locator => page.getByRole('dialog').first();
const button = (page: Page, name: string): Locator =>
  dialog(page)
    .getByRole('button', { name: startingWith(name) })
    .first();
const heading = (page: Page, name: string): Locator =>
  dialog(page)
    .getByRole('heading', { name: startingWith(name) })
    .first();
const cardFrame = (page: Page): FrameLocator =>
  page.getByTitle(cardMessagesEn.cardFrameLabel, { exact: true }).contentFrame();

/** Opens the checkout of the demo's product `order` (its pay button's data-paydrop-order). */
async function openOrder(page: Page, order: string): Promise<void> {
  await page.locator(`[data-paydrop-order="${order}"]`).first().click();
  await dialog(page).waitFor();
}

/** A sandbox control through the demo server (which adds the key), e.g. ('POST', '/clock', …). */
async function control(demo: DemoProcess, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${demo.url}/demo/sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`sandbox control ${method} ${path}: HTTP ${answer.status}`);
  return (await answer.json()) as unknown;
}

/** The newest payment the demo's sandbox holds. */
async function latestPayment(demo: DemoProcess): Promise<{ reference: string; channel: string }> {
  const { payments } = (await control(demo, 'GET', '/payments')) as {
    payments: Array<{ reference: string; channel: string }>;
  };
  const payment = payments.at(-1);
  if (!payment) throw new Error('the sandbox holds no payment');
  return payment;
}

async function showAccount(page: Page): Promise<void> {
  // The NGN cushion: transfer only, so the checkout goes straight to the account.
  await openOrder(page, 'cushion-ngn');
  await button(page, en.sentMoney).waitFor();
}

async function payAccount({ page, demo }: Stage): Promise<void> {
  await showAccount(page);
  const payment = await latestPayment(demo);
  await control(demo, 'POST', `/payments/${payment.reference}/transfer`, {});
  await heading(page, en.succeededTitle).waitFor();
}

async function showBank(page: Page): Promise<void> {
  // The GBP scarf: from the bank or by card. Choosing the bank opens its window in the click.
  await openOrder(page, 'scarf-gbp');
  await button(page, en.channelPayByAccount).click();
  await heading(page, en.bankTitle).waitFor();
  await button(page, en.usePhone).waitFor();
  // The bank's window is the customer's other tab; the picture is of the shop's.
  await page.bringToFront();
}

async function fillCard(page: Page, number: string): Promise<void> {
  // The USD mug: a card only, typed in the companion's card frame inside the dialog.
  await openOrder(page, 'mug-usd');
  const frame = cardFrame(page);
  await frame.getByLabel(frameTexts.numberLabel, { exact: true }).fill(number);
  await frame.getByLabel(frameTexts.expiryLabel, { exact: true }).fill(EXPIRY);
  await frame.getByLabel(frameTexts.cvcLabel, { exact: true }).fill('123');
  await frame.getByLabel(frameTexts.nameLabel, { exact: true }).fill('Ada Obi');
}

async function payCard(page: Page, number: string): Promise<void> {
  await fillCard(page, number);
  await button(page, cardMessagesEn.pay.split('{amount}')[0] ?? 'Pay').click();
}

const STATES: readonly State[] = [
  {
    name: 'choose',
    shows: 'The channel list (NGN tote: bank transfer or card)',
    async reach({ page }) {
      await openOrder(page, 'tote-ngn');
      await button(page, en.channelPayByTransfer).waitFor();
      await button(page, en.channelCard).waitFor();
    },
  },
  {
    name: 'transfer',
    shows: 'The account to transfer into, with its countdown',
    reach: ({ page }) => showAccount(page),
  },
  {
    name: 'bank',
    shows: "Pay from your bank, the bank's window open",
    reach: ({ page }) => showBank(page),
  },
  {
    name: 'qr',
    shows: 'The QR code to approve on a phone',
    async reach({ page }) {
      await showBank(page);
      await button(page, en.usePhone).click();
      await dialog(page).getByRole('img', { name: qrMessagesEn.qrLabel }).waitFor();
    },
  },
  {
    name: 'card',
    shows: 'The card form, filled in (the card frame)',
    async reach({ page }) {
      await fillCard(page, CARDS.success);
    },
  },
  {
    name: 'challenge',
    shows: "The card issuer's one-time code (3-D Secure challenge)",
    async reach({ page }) {
      await payCard(page, CARDS.challenge);
      await heading(page, cardMessagesEn.challengeTitle).waitFor();
      // The issuer's page, inside the companion's challenge page, inside the dialog.
      await page
        .getByTitle(cardMessagesEn.challengeFrameLabel, { exact: true })
        .contentFrame()
        .locator('iframe')
        .contentFrame()
        .getByRole('textbox')
        .first()
        .waitFor();
    },
  },
  {
    name: 'paid',
    shows: 'Payment received (a transfer arrived)',
    reach: payAccount,
  },
  {
    name: 'already-paid',
    shows: 'A one-time payment link opened again once paid',
    async reach({ page, demo }) {
      // The demo's gift-card link, paid from the bank, then opened again.
      await page.locator('#link-new').click();
      await button(page, en.channelPayByAccount).click();
      await heading(page, en.bankTitle).waitFor();
      await page.bringToFront();
      const payment = await latestPayment(demo);
      await control(demo, 'POST', `/payments/${payment.reference}/bank`, { approve: true });
      await heading(page, en.succeededTitle).waitFor();
      await button(page, en.done).click();
      await page.locator('#link-again:enabled').click();
      await heading(page, outcomeMessagesEn.alreadyPaidTitle).waitFor();
    },
  },
  {
    name: 'expired',
    shows: "The transfer's account expired (the provider's clock moved 31 minutes)",
    async reach({ page, demo }) {
      await showAccount(page);
      await control(demo, 'POST', '/clock', { advanceSeconds: 31 * 60 });
      await heading(page, outcomeMessagesEn.expiredTitle).waitFor();
    },
  },
  {
    name: 'failed',
    shows: 'A payment from the bank, declined at the bank',
    async reach({ page, demo }) {
      await showBank(page);
      const payment = await latestPayment(demo);
      await control(demo, 'POST', `/payments/${payment.reference}/bank`, { approve: false });
      await heading(page, outcomeMessagesEn.bankDeclinedTitle).waitFor();
    },
  },
  {
    name: 'declined',
    shows: 'A declined card',
    async reach({ page }) {
      await payCard(page, CARDS.declined);
      await heading(page, outcomeMessagesEn.cardDeclinedTitle).waitFor();
    },
  },
  {
    name: 'error',
    // The payment's setting up fails, not the channels' check: the companion keeps that check a
    // while (validationCacheMs), so after the earlier states it would never reach the provider.
    shows: 'Something went wrong (the provider answers 503 to every new payment)',
    async reach({ page, demo }) {
      await control(demo, 'POST', '/faults', {
        faults: [{ endpoint: 'initiate', step: { type: 'error', status: 503 }, forSeconds: 3600 }],
      });
      await openOrder(page, 'tote-ngn');
      await button(page, en.channelPayByTransfer).click();
      await button(page, en.tryAgain).waitFor();
    },
  },
  {
    name: 'back-office',
    shows: 'The back office: balances, the payout form, payouts, transactions and links',
    fullPage: true,
    reach: fillBackOffice,
  },
];

// The back office: signed in, with a few payouts of each outcome and a link to show.

/** Sends a payout through the back office's own handler, from its page (the staff's session). */
async function sendPayout(
  page: Page,
  currency: 'NGN' | 'GBP' | 'USD',
  amountMinor: number,
  accountNumber: string,
): Promise<string> {
  const routing = {
    NGN: ['BankCode', '058'],
    GBP: ['SortCode', '404784'],
    USD: ['RoutingNumber', '021000021'],
  }[currency];
  const answer = await page.evaluate(
    async ({ currency, amountMinor, accountNumber, routing }) => {
      const response = await fetch('/api/back-office/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          tenantReference: `screenshot-${crypto.randomUUID()}`,
          amount: { amountMinor, currency },
          narration: `Supplier invoice ${amountMinor % 1000}`,
          paymentMethodType: routing[0],
          paymentMethodValue: routing[1],
          beneficiary: { accountName: 'Adaeze Obi-Williams', accountNumber },
        }),
      });
      return { status: response.status, body: await response.json() };
    },
    { currency, amountMinor, accountNumber, routing },
  );
  if (answer.status !== 202) throw new Error(`payout not sent: ${JSON.stringify(answer.body)}`);
  return answer.body.payout.reference as string;
}

async function fillBackOffice({ page, demo }: Stage): Promise<void> {
  await page.goto(`${demo.url}/back-office`);
  if (new URL(page.url()).pathname === '/back-office/login') {
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${demo.url}/back-office`);
  }
  await sendPayout(page, 'NGN', 1_000_000_000 / 100, '0123456789');
  await sendPayout(page, 'GBP', 125_000, '12345678');
  const reversed = await sendPayout(page, 'USD', 49_950, '000123456789');
  await sendPayout(page, 'NGN', 30_000, '0000000000');
  // The sandbox settles a second after acceptance: move its clock, then return one payout.
  await control(demo, 'POST', '/clock', { advanceSeconds: 2 });
  await page.waitForFunction(
    () => document.querySelectorAll('#payouts .status').length >= 4,
    undefined,
    { timeout: STEP_TIMEOUT_MS },
  );
  // The page's own call (its session, its origin), as the Reverse button makes it.
  const reverse = await page.evaluate(
    async (reference) =>
      (
        await fetch(`/demo/back-office/sandbox/payouts/${encodeURIComponent(reference)}/reverse`, {
          method: 'POST',
        })
      ).status,
    reversed,
  );
  if (reverse !== 200) throw new Error(`could not reverse ${reversed}: HTTP ${reverse}`);
  await page.getByLabel('Link name').fill('Indigo & Oat gift card for a very dear friend');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByText(/^Link \S+ created\.$/).waitFor();
  await page.reload();
  await page.locator('#payouts .status').getByText('Reversed').waitFor();
  await page.locator('#balances dd').first().waitFor();
  await page.locator('#transactions tbody tr').first().waitFor();
  await page.getByLabel('Account name').waitFor();
}

// The run.

interface Failure {
  readonly state: string;
  readonly width: number;
  readonly error: Error;
}

async function shoot(
  browser: Browser,
  demo: DemoProcess,
  state: State,
  size: (typeof SIZES)[number],
): Promise<string[]> {
  // A fresh sandbox and companion: an order is paid once, a clock moved stays moved.
  await control(demo, 'POST', '/reset');
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({
      viewport: size,
      colorScheme: 'light',
      reducedMotion: 'reduce',
      deviceScaleFactor: 1,
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(`${demo.url}/`);
    await state.reach({ page, demo, width: size.width });
    const written: string[] = [];
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      // Two frames: the new colours painted before the picture is taken.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      const file = `${state.name}-${size.width}-${colorScheme}.png`;
      await page.screenshot({
        path: new URL(file, OUT).pathname,
        fullPage: state.fullPage ?? false,
        animations: 'disabled',
        caret: 'hide',
      });
      written.push(file);
    }
    return written;
  } finally {
    await context?.close();
  }
}

async function writeReadme(files: readonly string[]): Promise<void> {
  const sizes = await Promise.all(files.map(async (file) => (await stat(new URL(file, OUT))).size));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const rows = STATES.map((state) => {
    const cell = (width: number, scheme: string) => {
      const file = `${state.name}-${width}-${scheme}.png`;
      return files.includes(file) ? `[${width} ${scheme}](${file})` : '—';
    };
    return `| \`${state.name}\` | ${state.shows} | ${SIZES.flatMap((size) =>
      SCHEMES.map((scheme) => cell(size.width, scheme)),
    ).join(' | ')} |`;
  });
  const text = `# Screenshots

Made by \`npm run screenshots\` (scripts/screenshots.ts) from the demo in Chromium: every checkout
state and the back office, at a phone's 375 × 740 and a desktop's 1280 × 800, in light and dark.
Do not edit them by hand; run the script again after a change of look (\`npm run build:widget\`
first). ${files.length} pictures, ${Math.round(total / 1024)} KB in all.

| State | Shows | 375 light | 375 dark | 1280 light | 1280 dark |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
  await writeFile(new URL('README.md', OUT), text);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !STATES.some((state) => state.name === name));
  if (unknown.length > 0)
    throw new Error(
      `No such state: ${unknown.join(', ')}. The states: ${STATES.map((s) => s.name).join(', ')}.`,
    );
  const states = wanted.length ? STATES.filter((state) => wanted.includes(state.name)) : STATES;
  await mkdir(OUT, { recursive: true });
  const started = Date.now();
  const browser = await launchChromium();
  const failures: Failure[] = [];
  // One demo per size, the two run side by side: each size's states follow one another on a
  // demo of its own, so a reset for one never lands in the middle of the other's state.
  const run = async (size: (typeof SIZES)[number]) => {
    const demo = await startDemoProcess({ BACK_OFFICE_PASSWORD: PASSWORD });
    try {
      for (const state of states) {
        const began = Date.now();
        try {
          const files = await shoot(browser, demo, state, size);
          console.log(
            `${state.name} ${size.width}: ${files.join(', ')} (${((Date.now() - began) / 1000).toFixed(1)} s)`,
          );
        } catch (error) {
          failures.push({ state: state.name, width: size.width, error: error as Error });
          console.error(`${state.name} ${size.width}: FAILED: ${(error as Error).message}`);
        }
      }
    } finally {
      await demo.stop();
    }
  };
  try {
    await Promise.all(SIZES.map(run));
  } finally {
    await browser.close();
  }
  const files = (await readdir(OUT)).filter((file) => file.endsWith('.png')).sort();
  await writeReadme(files);
  console.log(
    `${files.length} pictures in docs/screenshots/ in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (failures.length > 0) {
    console.error(
      `Screenshots failed for ${failures.length} state(s):\n${failures
        .map(
          (failure) =>
            `  ${failure.state} at ${failure.width} px: ${failure.error.message.split('\n')[0]}`,
        )
        .join('\n')}`,
    );
    process.exitCode = 1;
  }
}

await main();
