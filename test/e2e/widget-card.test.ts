/**
 * The Card journey in Chromium, through the script tag on a shop page with the strict CSP (Trusted
 * Types included): the card fields as the customer types into them, a card with and without the
 * issuer's challenge, a failed, an abandoned and a declined one, and issuer markup that tries to
 * break out of its frame. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page, Request } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  latestSandboxPayment,
  openTab,
  RECORDER,
  RECORDER_TAG,
  recordedEvents,
  recordedViolations,
  sandboxPayments,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

/**
 * The recorder (paydrop:* events on the button, CSP violations), and every challenge message that
 * reaches the top window (with the origin it came from), in `window.__paydrop.messages`.
 */
const CARD_RECORDER = `${RECORDER}
window.__paydrop.messages = [];
addEventListener('message', (event) => {
  const data = event.data;
  if (data && typeof data === 'object' && typeof data.type === 'string' && data.type.startsWith('paydrop:challenge')) {
    window.__paydrop.messages.push({ origin: event.origin, data: JSON.parse(JSON.stringify(data)) });
  }
});
`;

interface HeardMessage {
  readonly origin: string;
  readonly data: { type: string; reference?: string; outcome?: string };
}

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
  readonly channel: string;
  readonly challenge?: string;
}

/** A card in the sandbox's list (src/sandbox/test-data.ts). */
const CARDS = {
  success: '4242424242424242',
  challenge: '4000000000003220',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** An expiry years ahead, as the customer types it. */
const FUTURE_EXPIRY = `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;
/** Every request the page (and its frames) made, in order. */
let requests: Request[];

beforeEach(async () => {
  shop = await startShop({ companion: { cardEntry: 'direct' } });
  serveRecorder(shop, CARD_RECORDER);
  shop.pages.set('/', buttonPage('mug-usd', RECORDER_TAG));
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(8000);
  requests = [];
  page.on('request', (request) => {
    requests.push(request);
  });
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, issuer, dialogText } = checkoutOn(() => page);
/** The card form, in the companion's card frame (issue 19): the page cannot read it. */
const cardForm = () => page.frameLocator('paydrop-checkout iframe.card-frame');
const field = (label: string) => cardForm().getByLabel(label, { exact: true });
const challengeFrame = () => page.locator('paydrop-checkout dialog iframe.challenge-frame');
const events = () => recordedEvents(page);
const violations = () => recordedViolations(page);
const payments = () => sandboxPayments<SandboxPayment>(shop);
const latest = () => latestSandboxPayment<SandboxPayment>(shop);

async function heardMessages(): Promise<HeardMessage[]> {
  return (await page.evaluate('window.__paydrop.messages')) as HeardMessage[];
}

/** Requests to one companion call, e.g. '/initiate'. */
function calls(path: string): Request[] {
  return requests.filter((request) => new URL(request.url()).pathname === `/api/checkout${path}`);
}

async function fillCard(
  number: string,
  { expiry = FUTURE_EXPIRY, cvc = '123', name = 'Amina Bello' } = {},
): Promise<void> {
  await field('Card number').fill(number);
  await field('Expiry date (MM / YY)').fill(expiry);
  await field('Security code').fill(cvc);
  await field('Name on card').fill(name);
}

/** Opens the checkout of the USD mug (Card only): the card form shows at once. */
async function openCardForm(): Promise<void> {
  await page.goto(`${shop.url}/`);
  await page.locator('#pay').click();
  await field('Card number').waitFor();
}

/** Pays the challenge card and waits for the issuer's page inside the dialog. */
async function payToChallenge(): Promise<SandboxPayment> {
  await openCardForm();
  await fillCard(CARDS.challenge);
  await button('Pay $18.00').click();
  await heading('Verify it’s you').waitFor();
  await issuer().getByLabel('One-time code').waitFor();
  return latest();
}

async function expectNoViolations(): Promise<void> {
  expect(await violations()).toEqual([]);
}

describe('Card in the dialog', () => {
  it('loads the card chunk only once Card is chosen, and confirms a card without a challenge', async () => {
    shop.pages.set('/', buttonPage('scarf-gbp', RECORDER_TAG));
    await page.goto(`${shop.url}/`);
    await page.evaluate('window.__sameDocument = true');
    await page.locator('#pay').click();
    await heading('How would you like to pay?').waitFor();
    const cardChoice = page.getByRole('button', { name: /^Card\b/ });
    expect(await cardChoice.isVisible()).toBe(true);
    // Nothing card-related has been fetched while the customer chooses.
    const chunk = () => requests.filter((request) => /paydrop-\w+\/card\.js$/.test(request.url()));
    expect(chunk()).toEqual([]);
    expect(requests.filter((request) => /card/i.test(request.url()))).toEqual([]);

    await cardChoice.click();
    await field('Card number').waitFor();
    expect(chunk()).toHaveLength(1);
    expect(new URL(chunk()[0]?.url() ?? '').origin).toBe(shop.url);

    await fillCard(CARDS.success);
    await button('Pay £49.99').click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain('Thank you! Your payment of £49.99 is confirmed.');
    expect(await challengeFrame().count()).toBe(0);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);

    const payment = await latest();
    expect(payment).toMatchObject({ channel: 'Card', status: 'SUCCESSFUL' });
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect((await events())[0]).toEqual({
      type: 'success',
      target: 'pay',
      detail: {
        reference: payment.reference,
        channel: 'Card',
        amount: { amountMinor: 4_999, currency: 'GBP' },
      },
    });
    await expect.poll(() => shop.outcomes.length).toBe(1);
    expect(shop.outcomes).toEqual([
      expect.objectContaining({
        reference: payment.reference,
        status: 'SUCCESSFUL',
        orderId: 'scarf-gbp',
        channel: 'Card',
        amountMatches: true,
      }),
    ]);
    // One payment, one card chunk.
    expect(await payments()).toHaveLength(1);
    expect(chunk()).toHaveLength(1);
    await expectNoViolations();
  });

  it("shows the issuer's challenge inside the dialog and confirms once it is passed, without a reload", async () => {
    await page.goto(`${shop.url}/`);
    await page.evaluate('window.__sameDocument = true');
    await page.locator('#pay').click();
    await fillCard(CARDS.challenge);
    await button('Pay $18.00').click();
    await heading('Verify it’s you').waitFor();

    // The issuer's page is framed in the dialog, named for assistive technology.
    expect(await challengeFrame().isVisible()).toBe(true);
    expect(await challengeFrame().getAttribute('title')).toBe('Verification by your card issuer');
    expect(new URL((await challengeFrame().getAttribute('src')) ?? '').origin).toBe(shop.url);
    expect(await dialogText()).toContain('Your card issuer asks you to confirm this payment.');
    await issuer().getByText('Enter the one-time code').waitFor();
    expect(await issuer().getByText('USD 18.00').isVisible()).toBe(true);
    // The card form has given way to the challenge.
    expect(await field('Card number').count()).toBe(0);
    const payment = await latest();
    expect(payment.status).toBe('PENDING');
    expect(await events()).toEqual([]);

    await issuer().getByLabel('One-time code').fill('123456');
    await issuer().getByRole('button', { name: 'Verify' }).click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain('Thank you! Your payment of $18.00 is confirmed.');
    expect(await challengeFrame().count()).toBe(0);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    expect(page.url()).toBe(`${shop.url}/`);

    expect((await latest()).status).toBe('SUCCESSFUL');
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect((await events())[0]?.detail).toEqual({
      reference: payment.reference,
      channel: 'Card',
      amount: { amountMinor: 1_800, currency: 'USD' },
    });
    await expect.poll(() => shop.outcomes.length).toBe(1);
    expect(shop.outcomes[0]).toMatchObject({
      reference: payment.reference,
      status: 'SUCCESSFUL',
      orderId: 'mug-usd',
    });
    // The companion relayed exactly one completion, from its own origin.
    expect(await heardMessages()).toEqual([
      {
        origin: shop.url,
        data: {
          type: 'paydrop:challenge-completed',
          reference: payment.reference,
          outcome: 'passed',
        },
      },
    ]);

    await button('Done').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    expect((await events()).map((event) => event.type)).toEqual(['success', 'close']);
    await expectNoViolations();
  });

  it('says the payment did not go through when the challenge is failed', async () => {
    const payment = await payToChallenge();
    await issuer().getByLabel('One-time code').fill('000000');
    await issuer().getByRole('button', { name: 'Verify' }).click();

    await heading(/^(Verification failed|Payment not completed)$/).waitFor({ timeout: 10_000 });
    expect(await dialogText()).toContain('Your card was not charged.');
    expect(await challengeFrame().count()).toBe(0);
    expect(await button('Try again').isVisible()).toBe(true);
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['failure']);
    expect(['verification_failed', 'payment_failed']).toContain((await events())[0]?.detail?.code);
    expect((await latest()).status).toBe('FAILED');
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[payment.reference, 'FAILED']]);
    await expectNoViolations();
  });

  it('gives up a challenge nobody finishes after 10 minutes, without charging the card', async () => {
    // The page's clock is ours to move; the companion and the sandbox keep real time.
    await page.clock.install();
    const payment = await payToChallenge();

    // Nine minutes in, the customer may still finish.
    await page.clock.fastForward('09:00');
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
    expect(await heading('Verify it’s you').isVisible()).toBe(true);
    expect(await heading('Payment not completed').count()).toBe(0);
    expect(await events()).toEqual([]);

    await page.clock.fastForward('01:01');
    await heading('Payment not completed').waitFor({ timeout: 5000 });
    const text = await dialogText();
    expect(text).toContain('The verification timed out; your card was not charged.');
    expect(text).not.toContain('If money left your account, your bank will return it.');
    expect(await challengeFrame().count()).toBe(0);
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['failure']);
    expect((await events())[0]?.detail?.code).toBe('challenge_timeout');
    // Nothing was finalized: the card was not charged.
    expect(calls('/finalize')).toEqual([]);
    expect((await latest()).reference).toBe(payment.reference);
    expect((await latest()).status).toBe('PENDING');
    expect(shop.outcomes).toEqual([]);
    await expectNoViolations();
  });

  it('gives the card form again on "Try again" after the challenge was given up, the security code emptied', async () => {
    await page.clock.install();
    const abandoned = await payToChallenge();
    await page.clock.fastForward('10:01');
    await heading('Payment not completed').waitFor({ timeout: 5000 });

    await button('Try again').click();
    await field('Card number').waitFor({ timeout: 5000 });
    // A new card frame: what the last one held went with it, the security code included.
    expect(await field('Security code').inputValue()).toBe('');
    await fillCard(CARDS.success);
    await button('Pay $18.00').click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    const paid = await latest();
    expect(paid.reference).not.toBe(abandoned.reference);
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[paid.reference, 'SUCCESSFUL']]);
    await expectNoViolations();
  });

  it('lets a customer who left during the challenge pay when they come back to the order', async () => {
    const abandoned = await payToChallenge();
    await button('Close').click();
    await heading('Leave the checkout?').waitFor();
    await button('Leave').click();
    await expect.poll(() => page.locator('paydrop-checkout').count()).toBe(0);
    await expect
      .poll(async () => (await events()).map((event) => event.type))
      .toEqual(['pending', 'close']);
    expect((await events())[0]?.detail?.reference).toBe(abandoned.reference);

    // Back to the same order: the challenge again, or a fresh card form; not a wait for nothing.
    await page.locator('#pay').click();
    await field('Card number').or(heading('Verify it’s you')).waitFor({ timeout: 5000 });
    expect(await page.getByText('Processing your payment…').count()).toBe(0);
    await expectNoViolations();
  });

  it.each([
    ['declined', CARDS.declined, 'Card declined', 'card_declined'],
    // The issuer's detail tells a card tester the card is live: the browser hears a plain
    // decline (issue 20); the merchant's outcome still has the detail (below).
    ['short of funds', CARDS.insufficientFunds, 'Card declined', 'card_declined'],
    ['expired', '4000000000000069', 'Card declined', 'card_declined'],
  ])(
    'says a %s card did not go through, that it was not charged, and "Try again" takes another card',
    async (_, number, title, code) => {
      await openCardForm();
      await fillCard(number);
      await button('Pay $18.00').click();

      await heading(title).waitFor({ timeout: 10_000 });
      expect(await dialogText()).toContain('Your card was not charged.');
      expect(await dialogText()).not.toContain('If money left your account');
      const failed = await latest();
      expect(failed.status).toBe('FAILED');
      await expect
        .poll(async () => (await events()).map((event) => event.type))
        .toEqual(['failure']);
      expect((await events())[0]?.detail?.code).toBe(code);
      await expect
        .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
        .toEqual([[failed.reference, 'FAILED']]);

      // The form again, in a new card frame: the page kept nothing of the card to fill it with.
      await button('Try again').click();
      await field('Card number').waitFor();
      expect(await field('Security code').inputValue()).toBe('');
      await fillCard(CARDS.success);
      await button('Pay $18.00').click();
      await heading('Payment received').waitFor({ timeout: 10_000 });
      const paid = await latest();
      expect(paid.reference).not.toBe(failed.reference);
      await expect
        .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
        .toEqual([
          [failed.reference, 'FAILED'],
          [paid.reference, 'SUCCESSFUL'],
        ]);
      await expect
        .poll(async () => (await events()).map((event) => event.type))
        .toEqual(['failure', 'success']);
      await expectNoViolations();
    },
  );
});

describe('the card fields', () => {
  it('take the merchant’s theme through the frame, each value checked, none as markup', async () => {
    shop.scripts.set(
      '/theme.js',
      `const root = document.documentElement.style;
root.setProperty('--paydrop-brand', '#0a7d5a');
root.setProperty('--paydrop-radius', '6px');
root.setProperty('--paydrop-font', 'x;}body{display:none');`,
    );
    shop.pages.set('/', buttonPage('mug-usd', `${RECORDER_TAG}<script src="/theme.js"></script>`));
    await openCardForm();
    const theme = () =>
      cardForm()
        .locator('html')
        .evaluate((root) =>
          ['brand', 'radius', 'font'].map((key) => root.style.getPropertyValue(`--theme-${key}`)),
        );
    await expect.poll(theme).toEqual(['#0a7d5a', '6px', '']);
    expect(
      await field('Card number').evaluate((input) => getComputedStyle(input).borderRadius),
    ).toBe('3px');
    expect(await field('Card number').isVisible()).toBe(true);
    await expectNoViolations();
  });

  it('group the number, refuse a wrong number or a past expiry before sending anything, and keep the number out of storage and other requests', async () => {
    await openCardForm();
    const number = field('Card number');

    // Grouped as it is printed on the card, while typing.
    await number.pressSequentially(CARDS.success.slice(0, 6));
    expect(await number.inputValue()).toBe('4242 42');
    await number.pressSequentially(CARDS.success.slice(6));
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    // The brand's logo inside the number field, its name the field's description, and announced.
    await cardForm().locator('.card-brand svg').waitFor();
    expect(await number.getAttribute('aria-describedby')).toBe('card-brand');
    expect(await cardForm().locator('#card-brand').textContent()).toBe('Visa');
    expect(await cardForm().getByRole('status').textContent()).toBe('Visa');
    await field('Expiry date (MM / YY)').pressSequentially('1230');
    expect(await field('Expiry date (MM / YY)').inputValue()).toBe('12 / 30');

    // A number that fails the Luhn check: said inline on leaving the field, and never sent.
    await number.fill('4242 4242 4242 4241');
    await field('Security code').fill('123');
    await field('Name on card').fill('Amina Bello');
    const numberError = 'This card number is not valid. Check it and try again.';
    await cardForm().getByText(numberError).waitFor();
    expect(await number.getAttribute('aria-invalid')).toBe('true');
    await button('Pay $18.00').click();
    expect(await cardForm().getByText(numberError).isVisible()).toBe(true);
    // The customer is taken to the field to correct, inside the frame.
    await expect
      .poll(() => number.evaluate((input) => input === document.activeElement))
      .toBe(true);

    // An expiry in the past.
    await number.fill(CARDS.success);
    await field('Expiry date (MM / YY)').fill('01 / 20');
    await button('Pay $18.00').click();
    await cardForm()
      .getByText('This card has expired. Check the date or use another card.')
      .waitFor();
    expect(await cardForm().getByText(numberError).count()).toBe(0);
    expect(await heading('Pay by card').isVisible()).toBe(true);

    // Neither attempt reached the companion, nor made a payment.
    expect(calls('/initiate')).toEqual([]);
    expect(calls('/card')).toEqual([]);
    expect(await payments()).toEqual([]);

    await field('Expiry date (MM / YY)').fill(FUTURE_EXPIRY);
    await button('Pay $18.00').click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(calls('/card').filter((call) => call.method() === 'POST')).toHaveLength(1);
    expect(calls('/initiate')).toEqual([]);

    // The number went to the companion once, from the card frame in the body of POST /card, and
    // nowhere else.
    const shapes = [CARDS.success, '4242 4242 4242 4242', '4242%204242', '4242+4242'];
    const carries = (text: string | null) => shapes.some((shape) => text?.includes(shape));
    const carrying = requests.filter(
      (request) => carries(request.url()) || carries(request.postData()),
    );
    expect(
      carrying.map((request) => `${request.method()} ${new URL(request.url()).pathname}`),
    ).toEqual(['POST /api/checkout/card']);
    expect(calls('/card')[0]?.frame()).not.toBe(page.mainFrame());
    expect(calls('/card')[0]?.url()).not.toContain('4242');
    const stored = (await page.evaluate(
      'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])',
    )) as string;
    expect(carries(stored)).toBe(false);
    expect(stored).not.toContain('424242');
    const cookies = JSON.stringify(await context.cookies());
    expect(carries(cookies)).toBe(false);
    await expectNoViolations();
  });
});

/**
 * Issuer markup that tries every way out of its frame it can think of, and forges the completion.
 * It knows the payment's reference (the strongest forger), and reports each attempt on the console.
 */
function hostileMarkup(reference: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Verify</title></head>
<body><h1>Totally your bank</h1><p id="results"></p><script>
const results = {};
const attempt = (name, run) => {
  try { results[name] = 'ok: ' + String(run()); } catch (error) { results[name] = 'threw ' + error.name; }
};
attempt('topNavigation', () => { top.location = 'https://evil.example/'; return 'assigned'; });
attempt('parentNavigation', () => { parent.location = 'https://evil.example/'; return 'assigned'; });
attempt('grandparentTitle', () => parent.parent.document.title);
attempt('topBody', () => window.top.document.body.innerHTML.length);
attempt('parentDocument', () => parent.document.body.innerHTML.length);
attempt('cookies', () => document.cookie);
attempt('storage', () => localStorage.length);
const reference = ${JSON.stringify(reference)};
// Straight to the merchant's page, as if the companion's relay had sent it.
top.postMessage({ type: 'paydrop:challenge-completed', reference, outcome: 'passed' }, '*');
top.postMessage({ type: 'paydrop:challenge-completed', reference: 'PAY_SOMEONE_ELSE', outcome: 'passed' }, '*');
// To the relay, for another payment.
parent.postMessage({ type: 'challenge.completed', reference: 'PAY_SOMEONE_ELSE', outcome: 'passed' }, '*');
parent.postMessage({ type: 'paydrop:challenge-completed', reference, outcome: 'passed' }, '*');
document.getElementById('results').textContent = JSON.stringify(results);
console.log('hostile-issuer ' + JSON.stringify(results));
</script></body></html>`;
}

describe('hostile challenge markup', () => {
  it('cannot leave its frame, reach the page, or complete the payment by forged messages', async () => {
    const consoleLines: string[] = [];
    page.on('console', (message) => {
      consoleLines.push(message.text());
    });
    const evil: string[] = [];
    await context.route('https://evil.example/**', (route) => {
      evil.push(route.request().url());
      return route.abort();
    });
    let frameHeaders: Record<string, string> | undefined;
    let served = 0;
    await page.route('**/api/checkout/challenge/frame*', async (route) => {
      const real = await route.fetch();
      frameHeaders = real.headers();
      const { reference } = await latest();
      served++;
      await route.fulfill({
        status: 200,
        headers: real.headers(),
        body: hostileMarkup(reference),
      });
    });

    await openCardForm();
    await fillCard(CARDS.challenge);
    await button('Pay $18.00').click();
    await heading('Verify it’s you').waitFor();
    const payment = await latest();
    await expect
      .poll(() => consoleLines.find((line) => line.startsWith('hostile-issuer ')))
      .toMatch(/^hostile-issuer /);
    expect(served).toBe(1);
    expect(frameHeaders?.['content-security-policy']).toContain(
      'sandbox allow-scripts allow-forms',
    );
    await issuer().getByText('Totally your bank').waitFor();

    const line = consoleLines.find((each) => each.startsWith('hostile-issuer ')) ?? '';
    const results = JSON.parse(line.slice('hostile-issuer '.length)) as Record<string, string>;
    // Every read of a page around it, and of the companion's cookies and storage, threw.
    expect(results).toMatchObject({
      grandparentTitle: 'threw SecurityError',
      topBody: 'threw SecurityError',
      parentDocument: 'threw SecurityError',
      cookies: 'threw SecurityError',
      storage: 'threw SecurityError',
    });
    // Navigating the page or the relay was refused.
    expect(results.topNavigation).toBe('threw SecurityError');
    expect(results.parentNavigation).toBe('threw SecurityError');
    expect(page.url()).toBe(`${shop.url}/`);
    expect(page.mainFrame().url()).toBe(`${shop.url}/`);
    expect(evil).toEqual([]);
    expect(page.frames().every((frame) => !frame.url().startsWith('https://evil.example'))).toBe(
      true,
    );

    // The forged completions reached the page (the recorder listens before the widget does)…
    await expect.poll(async () => (await heardMessages()).length).toBe(2);
    // …after one more turn of the page's event loop, the widget would have acted on them.
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
    expect((await heardMessages()).every((message) => message.origin === 'null')).toBe(true);
    // …and changed nothing: the challenge is still up, nothing was finalized, nothing reported.
    expect(await heading('Verify it’s you').isVisible()).toBe(true);
    expect(await challengeFrame().isVisible()).toBe(true);
    expect(await page.getByText('Processing your payment…').count()).toBe(0);
    expect(calls('/finalize')).toEqual([]);
    expect((await latest()).status).toBe('PENDING');
    expect(shop.outcomes).toEqual([]);
    expect(await events()).toEqual([]);

    // The real issuer's page, in the same frame, still completes the payment.
    await page.unroute('**/api/checkout/challenge/frame*');
    const issuerFrame = page.frames().find((frame) => frame.url().includes('/challenge/frame'));
    if (!issuerFrame) throw new Error('no issuer frame');
    await issuerFrame.goto(issuerFrame.url());
    await issuer().getByLabel('One-time code').fill('123456');
    await issuer().getByRole('button', { name: 'Verify' }).click();
    await heading('Payment received').waitFor({ timeout: 10_000 });
    expect(calls('/finalize')).toHaveLength(1);
    // The relay forwarded the one real completion and nothing it was sent before.
    expect((await heardMessages()).filter((message) => message.origin === shop.url)).toEqual([
      {
        origin: shop.url,
        data: {
          type: 'paydrop:challenge-completed',
          reference: payment.reference,
          outcome: 'passed',
        },
      },
    ]);
    await expect.poll(async () => (await events()).map((event) => event.type)).toEqual(['success']);
    expect(shop.outcomes.map((outcome) => [outcome.reference, outcome.status])).toEqual([
      [payment.reference, 'SUCCESSFUL'],
    ]);
    await expectNoViolations();
  });
});
