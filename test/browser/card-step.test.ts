// @vitest-environment jsdom
// The card step the card chunk brings, over a real model and the fake companion: the card frame
// (its document is the companion's and does not run in jsdom, so a stand-in answers for it, as the
// real one does, by messages), the card sent once, the form locked while it works, a refused card said so, the issuer's challenge
// framed from the companion's origin and finished only by the one message that may finish it, the
// card's styles adopted into the dialog's shadow root, and no axe violations.
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CheckoutModel, createCheckoutModel } from '../../src/flow/checkout-model';
import { CompanionFailure, type CustomerDetails } from '../../src/flow/companion';
import { CARD_FRAME_TAG } from '../../src/protocol/card-frame';
import { CardStep, CHALLENGE_TIMEOUT_MS } from '../../src/widget/channels/card/chunk';
import { deferred } from '../helpers/deferred';
import { FakeClock } from '../helpers/fake-clock';
import {
  argsOf,
  COMPANION_ORIGIN,
  FakeCompanion,
  type Initiation,
} from '../helpers/fake-companion';
import { channels, paymentView, sessionView } from '../helpers/fake-companion-answers';
import { axeViolations } from './axe';
import { andRedraw, dialog, renderCheckout } from './checkout-harness';
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

const cardFrame = (scope: ParentNode = document) =>
  scope.querySelector('iframe.card-frame') as HTMLIFrameElement;

/** The frame's fragment: what the widget told it (token, secret, origin, locale). */
const fragmentOf = (frame: HTMLIFrameElement) =>
  new URLSearchParams(new URL(frame.src).hash.slice(1));

/** A message from the card frame as the page receives it: origin "null", the frame's window. */
function fromFrame(
  event: Record<string, unknown>,
  init: { frame?: HTMLIFrameElement; secret?: string; source?: Window | null } = {},
): void {
  const frame = init.frame ?? cardFrame();
  const secret = init.secret ?? fragmentOf(frame).get('secret') ?? '';
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { ...event, tag: CARD_FRAME_TAG, secret },
      origin: 'null',
      source: init.source === undefined ? frame.contentWindow : init.source,
    }),
  );
}

/** What the page told the frame, in order. */
let commands: Array<Record<string, unknown>> = [];

/**
 * Plays the card frame: a valid card typed in it, and on the page's `submit` the frame's POST
 * /card, answered by the fake companion's initiation (the same answers and refusals).
 */
function playFrame(companion: FakeCompanion, scope: ParentNode = document): void {
  const frame = cardFrame(scope);
  const target = frame.contentWindow as Window;
  commands = [];
  target.postMessage = ((data: Record<string, unknown>) => {
    commands.push(data);
    if (data.type !== 'submit' || data.secret !== fragmentOf(frame).get('secret')) return;
    const customer = data.customer as CustomerDetails | undefined;
    companion.initiate('session-token', { channel: 'Card', card: CARD, customer }).then(
      // On the wire, as the companion answered the frame: times as ISO strings.
      ({ token, payment }) =>
        fromFrame(
          {
            type: 'result',
            result: {
              kind: 'started',
              body: {
                token,
                payment: { ...payment, serverTime: new Date(payment.serverTime).toISOString() },
              },
            },
          },
          { frame },
        ),
      (error: CompanionFailure) =>
        fromFrame(
          {
            type: 'result',
            result: {
              kind: 'refused',
              refusal: {
                status: error.code === 'invalid' ? 400 : 503,
                body: {
                  error: {
                    code: error.code === 'invalid' ? 'invalid_request' : error.code,
                    message: error.message,
                  },
                },
              },
            },
          },
          { frame },
        ),
    );
  }) as Window['postMessage'];
}

/**
 * Presses Pay with a valid card in the frame. The click is rendered at once, as a browser would
 * before the companion answers; act() around the answer alone, so the busy form is drawn alone.
 */
async function pay(companion?: FakeCompanion, scope: ParentNode = document): Promise<void> {
  if (companion) playFrame(companion, scope);
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
  await pay(companion);
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

describe('the card frame', () => {
  it('is sandboxed without same-origin, framed from the companion with the token, a secret, the page origin and the locale in its fragment', async () => {
    await renderCard({ locale: 'fr-CA' });
    const frame = cardFrame();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    const url = new URL(frame.src);
    expect(url.origin + url.pathname).toBe(`${COMPANION_ORIGIN}/api/checkout/card-frame`);
    expect(url.search).toBe('');
    const fragment = fragmentOf(frame);
    expect(fragment.get('token')).toBe('session-token');
    expect(fragment.get('secret')).toMatch(/^[\da-f]{36}$/);
    expect(fragment.get('origin')).toBe(location.origin);
    expect(fragment.get('locale')).toBe('fr-CA');
    // Its title and the Pay button are the page's, in the page's language.
    expect(frame.title).toBe('Données de la carte');
    expect(screen.getAllByRole('button', { name: 'Payer $18.00' })).toHaveLength(1);
  });

  it('gets a secret of its own in every card step', async () => {
    await renderCard();
    const first = fragmentOf(cardFrame()).get('secret');
    document.body.replaceChildren();
    await renderCard();
    expect(fragmentOf(cardFrame()).get('secret')).not.toBe(first);
  });

  it('is sized by the height it reports, only from its own window with its secret', async () => {
    await renderCard();
    const frame = cardFrame();
    fromFrame({ type: 'height', height: 333 });
    expect(frame.style.height).toBe('333px');
    fromFrame({ type: 'height', height: 900 }, { secret: 'f'.repeat(36) });
    fromFrame({ type: 'height', height: 901 }, { source: window });
    fromFrame({ type: 'height', height: 902 }, { source: null });
    expect(frame.style.height).toBe('333px');
    // A height past all reason is capped.
    fromFrame({ type: 'height', height: 1e9 });
    expect(frame.style.height).toBe('2000px');
  });

  it('take the merchant’s overrides of the step’s texts', async () => {
    await renderCard({ messages: { pay: 'Buy now for {amount}', close: 'Shut' } });
    expect(screen.getAllByRole('button', { name: 'Buy now for $18.00' })).toHaveLength(1);
  });
});

describe('paying by card', () => {
  it('has the frame send the card (with the customer), then authenticates and finalizes', async () => {
    const customer = { email: 'amina@example.com' };
    const { companion, model } = await renderCard({ customer });
    await pay(companion);
    expect(commands.map((command) => [command.type, command.customer])).toEqual([
      ['submit', customer],
    ]);
    expect(argsOf(companion.initiations)).toEqual([
      { token: 'session-token', request: { channel: 'Card', card: CARD, customer } },
    ]);
    // No challenge asked: the card is charged at once, and the checkout follows it to its outcome.
    expect(argsOf(companion.authentications)).toEqual(['payment-token']);
    expect(argsOf(companion.finalizations)).toEqual(['payment-token']);
    expect(model.step.peek().kind).toBe('succeeded');
  });

  it('while busy, disables Pay, moves focus to "Processing your payment…", and ignores resubmits', async () => {
    const companion = cardCompanion();
    const initiation = deferred<Initiation>();
    companion.answerInitiate = () => initiation.promise;
    const { container, model } = await renderCard({ companion });
    await pay(companion);

    expect(payButton().disabled).toBe(true);
    const processing = screen.getByText('Processing your payment…');
    expect(document.activeElement).toBe(processing);
    expect(screen.queryByRole('button', { name: 'Choose another way to pay' })).toBeNull();
    expect(await axeViolations(container, { iframes: false })).toEqual([]);

    // Enter in the frame, and Pay again: nothing more is sent.
    fromFrame({ type: 'submit-request' });
    fireEvent.click(payButton());
    expect(companion.initiations).toHaveLength(1);
    // Nothing exists yet that closing would leave half-done.
    expect(model.paymentUnderWay.peek()).toBe(false);

    await andRedraw(() => initiation.resolve({ token: 'payment-token', payment: cardPayment() }));
    expect(argsOf(companion.finalizations)).toEqual(['payment-token']);
  });

  it('a card the companion refuses (invalid) is said so, and can be corrected and sent again', async () => {
    const companion = cardCompanion();
    companion.answerInitiate = async () => {
      throw new CompanionFailure('invalid', 'The provider refused the payment details.');
    };
    const { model, container } = await renderCard({ companion });
    await pay(companion);

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
    expect(screen.getAllByRole('button', { name: 'Choose another way to pay' })).toHaveLength(1);
    expect(await axeViolations(container, { iframes: false })).toEqual([]);

    companion.answerInitiate = async () => ({ token: 'payment-token', payment: cardPayment() });
    fireEvent.click(payButton());
    await act(() => settle());
    expect(companion.initiations).toHaveLength(2);
    expect(model.step.peek().kind).toBe('succeeded');
  });

  it('any other failure is the checkout’s error, not a refused card', async () => {
    const companion = cardCompanion();
    companion.answerInitiate = async () => {
      throw new CompanionFailure('unavailable', 'down');
    };
    const { model } = await renderCard({ companion });
    await pay(companion);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(model.step.peek()).toMatchObject({ kind: 'error', code: 'unavailable' });
  });

  it('a card the frame’s own checks stop goes nowhere: the form stays, Pay works again', async () => {
    const { companion, model } = await renderCard();
    fireEvent.click(payButton());
    expect(payButton().disabled).toBe(true);
    await andRedraw(() => fromFrame({ type: 'result', result: { kind: 'invalid' } }));
    expect(payButton().disabled).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(companion.initiations).toEqual([]);
    expect(model.step.peek()).toMatchObject({ kind: 'paying', phase: 'entry' });
  });

  it('ignores a result that is not the frame’s: another window, or without its secret', async () => {
    const { model } = await renderCard();
    fireEvent.click(payButton());
    const started = { kind: 'started', body: { token: 'payment-token', payment: cardPayment() } };
    await andRedraw(() => {
      fromFrame({ type: 'result', result: started }, { source: window });
      fromFrame({ type: 'result', result: started }, { secret: 'a'.repeat(36) });
    });
    expect(payButton().disabled).toBe(true);
    expect(model.step.peek()).toMatchObject({ kind: 'paying', phase: 'entry' });
  });

  it('no answer from the frame’s call is the checkout’s network error', async () => {
    const { model } = await renderCard();
    fireEvent.click(payButton());
    await andRedraw(() => fromFrame({ type: 'result', result: { kind: 'network' } }));
    expect(model.step.peek()).toMatchObject({ kind: 'error', code: 'network' });
  });

  it('passes axe on the empty form', async () => {
    const { container } = await renderCard();
    expect(await axeViolations(container, { iframes: false })).toEqual([]);
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
    expect(container.querySelector('iframe.card-frame')).toBeNull();
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
    await pay(companion);
    expect(container.querySelector('iframe.challenge-frame')).toBeNull();
    expect(model.step.peek()).toMatchObject({ kind: 'error', code: 'bad_response' });
    expect(companion.finalizations).toEqual([]);
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
      expect(companion.finalizations, what).toEqual([]);
    }
    await act(() => settle());
    expect(companion.finalizations).toEqual([]);
    expect(screen.getByTitle('Verification by your card issuer')).toBe(frame);

    await andRedraw(() => post(completion('passed'), { source }));
    expect(argsOf(companion.finalizations)).toEqual(['payment-token']);
    // Finalized as PENDING: the checkout follows the payment from here.
    expect(model.step.peek()).toMatchObject({ kind: 'processing' });

    // Once only.
    await andRedraw(() => post(completion('passed'), { source }));
    expect(argsOf(companion.finalizations)).toEqual(['payment-token']);
  });

  it('finalizes on a "failed" outcome too: the provider’s answer decides, not the message', async () => {
    const companion = cardCompanion();
    companion.answerFinalize = async () => ({ status: 'FAILED' });
    const { frame, model } = await toChallenge({ companion });
    await andRedraw(() => post(completion('failed'), { source: frame.contentWindow }));
    expect(argsOf(companion.finalizations)).toEqual(['payment-token']);
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
    expect(companion.finalizations).toEqual([]);
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
      expect.arrayContaining(['.card-step', '.card-frame', '.challenge-frame']),
    );

    // A second card step in the same dialog: still one copy.
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
    await pay(companion, dialog());
    const frame = screen.getByTitle('Verification by your card issuer');

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    expect(screen.getAllByRole('heading', { name: 'Leave the checkout?' })).toHaveLength(1);
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
