// @vitest-environment jsdom
// The card step the card chunk brings, over a real model and the fake companion: the card handed to
// the companion once, the form locked while it works, a refused card said so, the issuer's challenge
// framed from the companion's origin and finished only by the one message that may finish it, the
// card's styles adopted into the dialog's shadow root, and no axe violations.
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CheckoutModel, createCheckoutModel } from '../../src/flow/checkout-model';
import { CompanionFailure, type CustomerDetails } from '../../src/flow/companion';
import { CardStep, CHALLENGE_TIMEOUT_MS } from '../../src/widget/channels/card/chunk';
import { axeViolations } from './axe';
import { andRedraw, dialog, renderCheckout } from './checkout-harness';
import {
  COMPANION_ORIGIN,
  channels,
  deferred,
  FakeClock,
  FakeCompanion,
  paymentView,
  sessionView,
} from './fakes';
import { settle } from './setup-dom';

// Vitest does not process CSS, so `?inline` would be empty: the chunk gets card.css as it is.
vi.mock('../../src/widget/channels/card/card.css?inline', async () => {
  const { readFile } = await import('node:fs/promises');
  const path = `${import.meta.dirname}/../../src/widget/channels/card/card.css`;
  return { default: await readFile(path, 'utf8') };
});

const CHALLENGE_URL = `${COMPANION_ORIGIN}/api/checkout/challenge?token=payment-token`;
const YEAR = new Date().getUTCFullYear() + 3;
const CARD = {
  number: '4242424242424242',
  expiryMonth: 12,
  expiryYear: YEAR,
  cvv: '123',
  holderName: 'Amina Bello',
};
const cardPayment = () =>
  paymentView({
    channel: 'Card',
    virtualAccount: null,
    amount: { amountMinor: 1_800, currency: 'USD' },
    fees: { amountMinor: 0, currency: 'USD' },
  });

afterEach(() => {
  vi.useRealTimers();
});

/** A companion for a USD order payable by card or transfer; card initiations answer PENDING. */
function cardCompanion(): FakeCompanion {
  const companion = new FakeCompanion();
  companion.answerSession = async () =>
    sessionView({
      amount: { amountMinor: 1_800, currency: 'USD' },
      description: 'Enamel mug',
      channels: channels('Card', 'PayByTransfer'),
    });
  companion.answerInitiate = async () => ({ token: 'payment-token', payment: cardPayment() });
  return companion;
}

/** A model at the card step, and the card step rendered for it. */
async function renderCard(
  options: {
    companion?: FakeCompanion;
    customer?: CustomerDetails;
    container?: HTMLElement;
    messages?: Record<string, string>;
    locale?: string;
  } = {},
) {
  const companion = options.companion ?? cardCompanion();
  const model: CheckoutModel = createCheckoutModel({
    companion,
    clock: new FakeClock(),
    target: { order: 'order_1042' },
    supportedChannels: ['Card', 'PayByTransfer'],
  });
  await model.start();
  model.choose('Card');
  expect(model.step.peek()).toEqual({
    kind: 'paying',
    channel: 'Card',
    phase: 'entry',
    payment: null,
  });
  const view = render(
    h(CardStep, {
      model,
      companion,
      customer: options.customer,
      locale: options.locale ?? 'en-US',
      messages: options.messages ?? {},
      amountText: '$18.00',
      other: h('button', { type: 'button' }, 'Choose another way to pay'),
    }),
    options.container ? { container: options.container } : {},
  );
  return { ...view, model, companion };
}

const payButton = () => screen.getByRole('button', { name: 'Pay $18.00' }) as HTMLButtonElement;

/** Fills the four fields as a customer (or autofill) would. */
function fillCard(scope: Pick<typeof screen, 'getByRole'> = screen): void {
  const fill = (name: string, value: string) =>
    fireEvent.input(scope.getByRole('textbox', { name }), { target: { value } });
  fill('Card number', '4242 4242 4242 4242');
  fill('Expiry date (MM / YY)', `12 / ${String(YEAR).slice(2)}`);
  fill('Security code', '123');
  fill('Name on card', 'Amina Bello');
}

/**
 * Fills the card and presses Pay. The click is rendered at once, as a browser would before the
 * companion answers; act() around the answer alone, so the busy form is drawn on its own.
 */
async function pay(): Promise<void> {
  fillCard();
  fireEvent.click(payButton());
  await act(() => settle());
}

/** Pays with a card whose issuer asks for a challenge; returns the challenge frame. */
async function toChallenge(setup: Parameters<typeof renderCard>[0] = {}) {
  const companion = setup.companion ?? cardCompanion();
  companion.answerAuthenticate = async () => ({
    authenticationRequired: true,
    challengeUrl: CHALLENGE_URL,
  });
  const view = await renderCard({ ...setup, companion });
  await pay();
  const frame = screen.getByTitle('Verification by your card issuer') as HTMLIFrameElement;
  return { ...view, frame };
}

function post(data: unknown, init: { origin?: string; source?: Window | null } = {}): void {
  window.dispatchEvent(
    new MessageEvent('message', {
      data,
      origin: init.origin ?? COMPANION_ORIGIN,
      source: init.source === undefined ? null : init.source,
    }),
  );
}

const completion = (outcome: string, reference = 'ref_0001') => ({
  type: 'paydrop:challenge-completed',
  reference,
  outcome,
});

describe('the card form’s texts', () => {
  it('are French for a French locale, as the dialog is', async () => {
    await renderCard({ locale: 'fr-CA' });
    expect(screen.getByRole('textbox', { name: 'Numéro de carte' })).toBeTruthy();
  });

  it('stay English for a language that only starts with "fr" (Frisian), as the dialog does', async () => {
    await renderCard({ locale: 'fry' });
    expect(screen.getByRole('textbox', { name: 'Card number' })).toBeTruthy();
  });

  it('take the merchant’s overrides of card texts, and only those', async () => {
    await renderCard({ messages: { numberLabel: 'Long number', close: 'Shut' } });
    expect(screen.getByRole('textbox', { name: 'Long number' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Security code' })).toBeTruthy();
  });
});

describe('paying by card', () => {
  it('hands the card to companion.initiate with the session token, then authenticates and finalizes', async () => {
    const customer = { email: 'amina@example.com' };
    const { companion, model } = await renderCard({ customer });
    await pay();
    expect(companion.initiateCalls).toEqual([
      { token: 'session-token', channel: 'Card', card: CARD, customer },
    ]);
    // No challenge asked: the card is charged at once, and the checkout follows it to its outcome.
    expect(companion.authenticateCalls).toEqual(['payment-token']);
    expect(companion.finalizeCalls).toEqual(['payment-token']);
    expect(model.step.peek().kind).toBe('succeeded');
  });

  it('while busy, disables Pay, moves focus to "Processing your payment…", and ignores resubmits', async () => {
    const companion = cardCompanion();
    const initiation = deferred<Awaited<ReturnType<FakeCompanion['answerInitiate']>>>();
    companion.answerInitiate = () => initiation.promise;
    const { container, model } = await renderCard({ companion });
    await pay();

    expect(payButton().disabled).toBe(true);
    const processing = screen.getByText('Processing your payment…');
    expect(document.activeElement).toBe(processing);
    expect(screen.queryByRole('button', { name: 'Choose another way to pay' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);

    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    fireEvent.click(payButton());
    expect(companion.initiateCalls).toHaveLength(1);
    // Nothing exists yet that closing would leave half-done.
    expect(model.paymentUnderWay.peek()).toBe(false);

    await andRedraw(() => initiation.resolve({ token: 'payment-token', payment: cardPayment() }));
    expect(companion.finalizeCalls).toEqual(['payment-token']);
  });

  it('a card the companion refuses (invalid) is said so, and can be corrected and sent again', async () => {
    const companion = cardCompanion();
    companion.answerInitiate = async () => {
      throw new CompanionFailure('invalid', 'The provider refused the payment details.');
    };
    const { model, container } = await renderCard({ companion });
    await pay();

    expect(screen.getByRole('alert').textContent).toBe(
      'Your card details were refused. Check them and try again.',
    );
    expect(payButton().disabled).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Pay by card' }));
    expect(model.step.peek()).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'entry',
      payment: null,
    });
    expect(screen.getByRole('button', { name: 'Choose another way to pay' })).toBeTruthy();
    expect(await axeViolations(container)).toEqual([]);

    companion.answerInitiate = async () => ({ token: 'payment-token', payment: cardPayment() });
    fireEvent.click(payButton());
    await act(() => settle());
    expect(companion.initiateCalls).toHaveLength(2);
    expect(model.step.peek().kind).toBe('succeeded');
  });

  it('any other failure is the checkout’s error, not a refused card', async () => {
    const companion = cardCompanion();
    companion.answerInitiate = async () => {
      throw new CompanionFailure('unavailable', 'down');
    };
    const { model } = await renderCard({ companion });
    await pay();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(model.step.peek()).toMatchObject({ kind: 'error', code: 'unavailable' });
  });

  it('passes axe on the empty form', async () => {
    const { container } = await renderCard();
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('the issuer’s challenge', () => {
  it('is framed from the challengeUrl, titled, not sandboxed, sending no referrer', async () => {
    const { frame, model, container } = await toChallenge();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Verify it’s you' }));
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(CHALLENGE_URL);
    // The companion's own page: a sandbox here would protect nothing (see ChallengeFrame.ts).
    expect(frame.hasAttribute('sandbox')).toBe(false);
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    // The payment exists now: closing the checkout must ask first.
    expect(model.step.peek()).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'started',
      payment: cardPayment(),
    });
    expect(model.paymentUnderWay.peek()).toBe(true);
    expect(await axeViolations(container, { iframes: false })).toEqual([]);
  });

  it('from another origin than the companion’s is refused: nothing is framed', async () => {
    const companion = cardCompanion();
    companion.answerAuthenticate = async () => ({
      authenticationRequired: true,
      challengeUrl: 'https://issuer.example/acs?token=payment-token',
    });
    const { model, container } = await renderCard({ companion });
    await pay();
    expect(container.querySelector('iframe')).toBeNull();
    expect(model.step.peek()).toMatchObject({ kind: 'error', code: 'bad_response' });
    expect(companion.finalizeCalls).toEqual([]);
  });

  it('ends only on the completion message from its own frame, origin, payment and shape', async () => {
    const companion = cardCompanion();
    companion.answerFinalize = async () => ({ status: 'PENDING' });
    const { frame, model } = await toChallenge({ companion });
    const other = document.body.appendChild(document.createElement('iframe'));
    const source = frame.contentWindow;
    expect(source).not.toBeNull();

    const ignored: Array<[string, unknown, { origin?: string; source?: Window | null }]> = [
      ['another origin', completion('passed'), { origin: 'https://evil.example', source }],
      ['the page itself', completion('passed'), { source: window }],
      ['another frame', completion('passed'), { source: other.contentWindow }],
      ['no source', completion('passed'), { source: null }],
      ['another payment', completion('passed', 'ref_9999'), { source }],
      ['another type', { ...completion('passed'), type: 'challenge.completed' }, { source }],
      ['an unknown outcome', completion('maybe'), { source }],
      ['a string', 'paydrop:challenge-completed', { source }],
      ['an array', [completion('passed')], { source }],
      ['null', null, { source }],
    ];
    for (const [what, data, init] of ignored) {
      post(data, init);
      expect(companion.finalizeCalls, what).toEqual([]);
    }
    await act(() => settle());
    expect(companion.finalizeCalls).toEqual([]);
    expect(screen.getByTitle('Verification by your card issuer')).toBe(frame);

    await andRedraw(() => post(completion('passed'), { source }));
    expect(companion.finalizeCalls).toEqual(['payment-token']);
    // Finalized as PENDING: the checkout follows the payment from here.
    expect(model.step.peek()).toMatchObject({ kind: 'processing' });

    // Once only.
    await andRedraw(() => post(completion('passed'), { source }));
    expect(companion.finalizeCalls).toEqual(['payment-token']);
  });

  it('finalizes on a "failed" outcome too: the provider’s answer decides, not the message', async () => {
    const companion = cardCompanion();
    companion.answerFinalize = async () => ({ status: 'FAILED' });
    const { frame, model } = await toChallenge({ companion });
    await andRedraw(() => post(completion('failed'), { source: frame.contentWindow }));
    expect(companion.finalizeCalls).toEqual(['payment-token']);
    expect(model.step.peek()).toMatchObject({ kind: 'failed', code: 'payment_failed' });
  });

  it('is given up after 10 minutes without an answer, and a late message charges nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { frame, model, companion } = await toChallenge();
    await act(async () => {
      vi.advanceTimersByTime(CHALLENGE_TIMEOUT_MS - 1_000);
      await settle();
    });
    expect(model.step.peek()).toMatchObject({ kind: 'paying', channel: 'Card' });
    await act(async () => {
      vi.advanceTimersByTime(1_000);
      await settle();
    });
    expect(model.step.peek()).toMatchObject({ kind: 'failed', code: 'challenge_timeout' });
    await andRedraw(() => post(completion('passed'), { source: frame.contentWindow }));
    expect(companion.finalizeCalls).toEqual([]);
  });
});

describe('the card’s styles', () => {
  /** A shadow root holding the dialog's own sheet, as open() builds it. */
  function shadowContainer() {
    const host = document.body.appendChild(document.createElement('paydrop-checkout'));
    const shadow = host.attachShadow({ mode: 'open' });
    const dialogSheet = new CSSStyleSheet();
    dialogSheet.replaceSync('dialog { color: black; }');
    // jsdom has constructable sheets but no adoptedStyleSheets: a plain array stands in for it.
    Object.defineProperty(shadow, 'adoptedStyleSheets', {
      value: [dialogSheet],
      writable: true,
      configurable: true,
    });
    const container = shadow.appendChild(document.createElement('div'));
    return { shadow, container, dialogSheet };
  }

  const selectors = (sheet: CSSStyleSheet | undefined) =>
    [...(sheet?.cssRules ?? [])].map((rule) => (rule as CSSStyleRule).selectorText);

  it('adopts card.css into the shadow root it is rendered in, once, after the dialog’s sheet', async () => {
    const { shadow, container, dialogSheet } = shadowContainer();
    const companion = cardCompanion();
    companion.answerAuthenticate = async () => ({
      authenticationRequired: true,
      challengeUrl: CHALLENGE_URL,
    });
    await renderCard({ companion, container });
    expect(shadow.adoptedStyleSheets).toHaveLength(2);
    expect(shadow.adoptedStyleSheets[0]).toBe(dialogSheet);
    expect(selectors(shadow.adoptedStyleSheets[1])).toEqual(
      expect.arrayContaining(['.card-step', '.card-fields', '.challenge-frame']),
    );

    // Into the challenge, and a second card step in the same dialog: still one copy.
    fillCard(within(container));
    fireEvent.click(within(container).getByRole('button', { name: 'Pay $18.00' }));
    await act(() => settle());
    expect(shadow.querySelector('iframe')).not.toBeNull();
    const second = shadow.appendChild(document.createElement('div'));
    await renderCard({ container: second });
    expect(shadow.adoptedStyleSheets).toHaveLength(2);
  });
});

describe('in the checkout', () => {
  it('keeps the challenge (the same frame) while "Leave the checkout?" is asked, and after Stay', async () => {
    const companion = cardCompanion();
    companion.answerSession = async () =>
      sessionView({
        amount: { amountMinor: 1_800, currency: 'USD' },
        description: 'Enamel mug',
        channels: channels('Card'),
        // The card typed in the checkout (the direct path), whose challenge frame this is about.
        cardEntry: 'direct',
      });
    companion.answerAuthenticate = async () => ({
      authenticationRequired: true,
      challengeUrl: CHALLENGE_URL,
    });
    const { onDone } = await renderCheckout({
      companion,
      supportedChannels: ['Card'],
      locale: 'en-US',
    });
    await screen.findByRole('button', { name: 'Pay $18.00' });
    await pay();
    const frame = screen.getByTitle('Verification by your card issuer');

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    expect(screen.getByRole('heading', { name: 'Leave the checkout?' })).toBeTruthy();
    // Hidden, not gone: the issuer's page is not loaded again, nor the flow restarted.
    expect(frame.isConnected).toBe(true);
    expect(frame.closest('[hidden]')).not.toBeNull();
    expect(await axeViolations(dialog(), { iframes: false })).toEqual([]);

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Stay' })));
    expect(screen.getByTitle('Verification by your card issuer')).toBe(frame);
    expect(frame.closest('[hidden]')).toBeNull();
    expect(onDone).not.toHaveBeenCalled();

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(onDone).toHaveBeenCalledWith({
      status: 'pending',
      payment: {
        reference: 'ref_0001',
        channel: 'Card',
        amount: { amountMinor: 1_800, currency: 'USD' },
      },
    });
  });
});
