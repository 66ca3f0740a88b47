import { describe, expect, it } from 'vitest';
import { createCardActions } from '../../../src/flow/channels';
import type { CheckoutStep } from '../../../src/flow/checkout-model';
import { type ChannelChoice, CompanionFailure } from '../../../src/flow/companion';
import { flush } from '../../helpers/fake-clock';
import {
  cardPayment,
  PENDING,
  paymentView,
  SERVER_NOW,
  sessionView,
} from '../../helpers/fake-companion-answers';
import { type Harness, harness, inTransfer, onAnyChange } from './model-harness';

const CARD_TOKEN = 'card-payment-token';

/** The card's actions, as the card chunk makes them from the model. */
const card = (h: Harness) => createCardActions(h.model.paying);

const CHANNELS: ChannelChoice[] = [
  { name: 'PayByTransfer', description: 'Bank transfer' },
  { name: 'Card', description: 'Visa, Mastercard' },
];

const CARD_SUMMARY = {
  reference: 'PAY-CARD-1',
  channel: 'Card',
  amount: { amountMinor: 2_500_050, currency: 'NGN' },
};

function kinds(steps: readonly CheckoutStep[]): string[] {
  return steps.map((step) => (step.kind === 'paying' ? `paying:${step.channel}` : step.kind));
}

function expectNothingLeft(h: Harness): void {
  expect(h.clock.pending).toBe(0);
  expect(h.companion.active).toEqual([]);
}

async function choosing(h: Harness): Promise<void> {
  void h.model.start();
  h.companion.lastSession().answer.resolve(sessionView({ channels: CHANNELS }));
  await flush();
  expect(h.model.step.value.kind).toBe('choosing');
}

/** Card chosen: the card chunk has the form up. */
async function inCard(): Promise<Harness> {
  const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
  await choosing(h);
  h.model.choose('Card');
  expect(h.model.step.value).toEqual({
    kind: 'paying',
    channel: 'Card',
    phase: 'entry',
    payment: null,
  });
  return h;
}

/** The card was submitted and initiated by the card chunk. */
async function cardUnderWay() {
  const h = await inCard();
  const payment = cardPayment();
  card(h).cardStarted(payment, CARD_TOKEN);
  return { h, payment };
}

describe('entering the card step', () => {
  it("choose('Card') shows the card step without initiating anything", async () => {
    const h = await inCard();
    expect(kinds(h.steps)).toEqual(['loading', 'choosing', 'paying:Card']);
    expect(kinds(h.steps)).not.toContain('starting');
    await flush();
    expect(h.companion.initiations).toHaveLength(0);
    expect(h.companion.statuses).toHaveLength(0);
    expectNothingLeft(h);
    expect(h.model.paymentUnderWay.value).toBe(false);
    expect(h.model.resultIfClosed()).toEqual({ status: 'cancelled' });
  });

  it('goes straight to the card step when Card is the only channel', async () => {
    const h = harness({ supportedChannels: ['Card'] });
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView({ channels: CHANNELS }));
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'entry',
      payment: null,
    });
    expect(kinds(h.steps)).toEqual(['loading', 'paying:Card']);
    expect(h.companion.initiations).toHaveLength(0);
  });

  it('changeMethod() before the card is submitted goes back to choosing', async () => {
    const h = await inCard();
    h.model.changeMethod();
    expect(h.model.step.value).toEqual({ kind: 'choosing', channels: CHANNELS });
  });
});

describe('cardStarted', () => {
  it('holds the payment: under way, and pending if closed', async () => {
    const { h, payment } = await cardUnderWay();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'started',
      payment,
    });
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.model.resultIfClosed()).toEqual({ status: 'pending', payment: CARD_SUMMARY });
    expect(h.model.paymentToken()).toBe(CARD_TOKEN);
    expect(h.model.outcome.value).toBeNull();
  });

  it('keeps the customer on the card once it is submitted', async () => {
    const { h, payment } = await cardUnderWay();
    h.model.changeMethod();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'started',
      payment,
    });
  });
});

describe('track', () => {
  it('SUCCESSFUL: succeeded, with the outcome, nothing left running', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'SUCCESSFUL');
    expect(h.model.step.value).toEqual({
      kind: 'succeeded',
      payment: { ...payment, status: 'SUCCESSFUL' },
    });
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: CARD_SUMMARY });
    expect(h.model.resultIfClosed()).toBe(h.model.outcome.value);
    expect(h.model.paymentUnderWay.value).toBe(false);
    expectNothingLeft(h);
  });

  it('FAILED: failed with payment_failed', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'FAILED');
    expect(h.model.step.value).toEqual({
      kind: 'failed',
      payment: { ...payment, status: 'FAILED' },
      code: 'payment_failed',
    });
    expect(h.model.outcome.value).toMatchObject({
      status: 'failed',
      error: { code: 'payment_failed' },
      payment: CARD_SUMMARY,
    });
    expectNothingLeft(h);
  });

  it('PENDING: processing, watched and polled until the push decides', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'PENDING');
    expect(h.model.step.value).toEqual({ kind: 'processing', payment });
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.model.resultIfClosed()).toEqual({ status: 'pending', payment: CARD_SUMMARY });
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual([CARD_TOKEN]);

    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(2000);
    expect(h.companion.statuses.map((call) => call.args)).toEqual([CARD_TOKEN]);
    expect(h.model.step.value.kind).toBe('processing');

    h.companion.push('SUCCESSFUL');
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: CARD_SUMMARY });
    expectNothingLeft(h);
  });

  it('ignores a later timeout once the payment is settled', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'SUCCESSFUL');
    const outcome = h.model.outcome.value;
    card(h).cardTimedOut(payment);
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toBe(outcome);
  });
});

describe('cardTimedOut', () => {
  it('fails with challenge_timeout, in the step and in the outcome', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).cardTimedOut(payment);
    expect(h.model.step.value).toMatchObject({
      kind: 'failed',
      code: 'challenge_timeout',
      payment: { reference: payment.reference, channel: 'Card' },
    });
    const outcome = h.model.outcome.value;
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'challenge_timeout' },
      payment: CARD_SUMMARY,
    });
    expect(outcome?.status === 'failed' && outcome.error.message.length).toBeGreaterThan(0);
    expect(h.model.resultIfClosed()).toBe(outcome);
    expect(h.model.paymentUnderWay.value).toBe(false);
    expect(kinds(h.steps).filter((kind) => kind === 'failed')).toHaveLength(1);
  });
});

describe('fail', () => {
  it('shows the error, and retry() brings the card form back without initiating', async () => {
    const { h } = await cardUnderWay();
    h.model.fail(new CompanionFailure('unavailable', 'The provider is down.'));
    expect(h.model.step.value).toEqual({
      kind: 'error',
      code: 'unavailable',
      message: 'The provider is down.',
      retry: 'initiate',
    });
    h.model.retry();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'entry',
      payment: null,
    });
    expect(h.companion.sessions).toHaveLength(1);
    expect(h.companion.initiations).toHaveLength(0);
  });
});

describe('fail outside the card step', () => {
  it('is ignored during a transfer, which keeps its watcher and countdown', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer'] });
    await inTransfer(h);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    h.model.fail(new Error('not for this step'));
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    expect(h.companion.active).toHaveLength(1);
  });
});

describe('card calls outside the card step', () => {
  it('are ignored while choosing', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
    await choosing(h);
    const before = h.model.step.value;
    const payment = cardPayment();
    card(h).cardStarted(payment, CARD_TOKEN);
    card(h).track(payment, CARD_TOKEN, 'SUCCESSFUL');
    card(h).track(payment, CARD_TOKEN, 'PENDING');
    card(h).cardTimedOut(payment);
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentToken()).toBeNull();
    expectNothingLeft(h);
  });

  it('are ignored during a transfer', async () => {
    const h = harness();
    await inTransfer(h);
    const before = h.model.step.value;
    const seconds = h.model.secondsLeft.value;
    const payment = cardPayment({ serverTime: SERVER_NOW + 20 * 60_000 });
    card(h).cardStarted(payment, CARD_TOKEN);
    card(h).track(payment, CARD_TOKEN, 'FAILED');
    card(h).cardTimedOut(payment);
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentToken()).toBe('payment-token');
    // Not re-anchored on the card's server time (that would leave 600 s).
    expect(h.model.secondsLeft.value).toBe(seconds);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual(['payment-token']);
  });

  it('are ignored once processing', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'PENDING');
    const before = h.model.step.value;
    card(h).cardStarted(cardPayment({ reference: 'PAY-CARD-2' }), 'other-token');
    card(h).track(payment, CARD_TOKEN, 'FAILED');
    card(h).cardTimedOut(payment);
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentToken()).toBe(CARD_TOKEN);
  });
});

describe('dispose', () => {
  it('in the card step: a late timeout changes nothing and tells no one', async () => {
    const { h, payment } = await cardUnderWay();
    const before = h.model.step.value;
    h.model.dispose();
    let notified = 0;
    onAnyChange(h.model, () => notified++);
    notified = 0;
    card(h).cardTimedOut(payment);
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.resultIfClosed()).toEqual({ status: 'pending', payment: CARD_SUMMARY });
    expect(notified).toBe(0);
  });

  it('in the card step: a late finish starts no watch and no timer', async () => {
    const { h, payment } = await cardUnderWay();
    const before = h.model.step.value;
    h.model.dispose();
    card(h).track(payment, CARD_TOKEN, 'PENDING');
    card(h).track(payment, CARD_TOKEN, 'SUCCESSFUL');
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();
    expect(h.companion.watchers).toHaveLength(0);
    expectNothingLeft(h);
  });
});

describe('a card whose finalize went unanswered (issue 9)', () => {
  it('checks the payment at once, "checking", keeps checking while PENDING, and shows the success', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).checkPayment(payment, CARD_TOKEN);
    expect(h.model.step.value).toEqual({ kind: 'processing', payment, checking: true });
    // Asked at once, and pushed to.
    expect(h.companion.statuses.map((call) => call.args)).toEqual([CARD_TOKEN]);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual([CARD_TOKEN]);
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.model.resultIfClosed()).toEqual({ status: 'pending', payment: CARD_SUMMARY });

    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toEqual({ kind: 'processing', payment, checking: true });
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(2000);
    expect(h.companion.statuses).toHaveLength(2);
    expect(h.model.step.value.kind).toBe('processing');

    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: SERVER_NOW + 3000 });
    await h.clock.advance(2000);
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: CARD_SUMMARY });
    expect(h.companion.initiations).toHaveLength(0);
    expectNothingLeft(h);
  });

  it('FAILED: the failure, whose "Try again" is the card form again', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).checkPayment(payment, CARD_TOKEN);
    h.companion.lastStatus().answer.resolve({ status: 'FAILED', serverTime: SERVER_NOW });
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'failed', payment: { status: 'FAILED' } });
    expectNothingLeft(h);

    h.model.tryAgain();
    h.companion.lastSession().answer.resolve(sessionView({ channels: CHANNELS }));
    await flush();
    // Straight back to the card, not the list, and nothing initiated until it is submitted.
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'Card',
      phase: 'entry',
      payment: null,
    });
    expect(h.companion.initiations).toHaveLength(0);
  });

  it('an /initiate answered payment_pending with an earlier card payment follows that one', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
    await choosing(h);
    h.model.choose('PayByTransfer');
    const earlier = cardPayment({ reference: 'PAY-CARD-0' });
    h.companion.lastInitiation().answer.reject(
      new CompanionFailure('payment_pending', 'An earlier payment may still succeed.', 'req', {
        payment: earlier,
        token: 'earlier-token',
      }),
    );
    await flush();
    expect(h.model.step.value).toEqual({ kind: 'processing', payment: earlier, checking: true });
    expect(h.companion.lastStatus().args).toBe('earlier-token');
    h.companion.push('SUCCESSFUL');
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toMatchObject({
      status: 'succeeded',
      payment: { reference: 'PAY-CARD-0', channel: 'Card' },
    });
  });

  it('an /initiate answered already_paid with the payment shows that success, not an error', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
    await choosing(h);
    h.model.choose('PayByTransfer');
    const earlier = cardPayment({ reference: 'PAY-CARD-0', status: 'SUCCESSFUL' });
    h.companion
      .lastInitiation()
      .answer.reject(
        new CompanionFailure('already_paid', 'Paid.', 'req', { payment: earlier, token: 'tok' }),
      );
    await flush();
    expect(h.model.step.value).toEqual({ kind: 'succeeded', payment: earlier });
    expectNothingLeft(h);
  });

  it('already_paid without a payment is still the error it was', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
    await choosing(h);
    h.model.choose('PayByTransfer');
    h.companion.lastInitiation().answer.reject(new CompanionFailure('already_paid', 'Paid.'));
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'error', code: 'already_paid' });
  });
});

describe('failures that say why (issue 12)', () => {
  // The causes a browser hears (issue 20: insufficient funds, an expired card are declines).
  it.each(['card_declined', 'verification_failed'] as const)(
    'a card finalized FAILED for %s fails with that code, for the customer and the merchant',
    async (reason) => {
      const { h, payment } = await cardUnderWay();
      card(h).track(payment, CARD_TOKEN, 'FAILED', reason);
      expect(h.model.step.value).toMatchObject({ kind: 'failed', code: reason });
      expect(h.model.outcome.value).toMatchObject({
        status: 'failed',
        error: { code: reason },
        payment: CARD_SUMMARY,
      });
      expectNothingLeft(h);
    },
  );

  it('a card FAILED without a reason is payment_failed', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'FAILED');
    expect(h.model.step.value).toMatchObject({ kind: 'failed', code: 'payment_failed' });
  });
});

describe('another way to pay (issue 12)', () => {
  it('from the transfer account: the list, with the transfer offered to continue, and Card taken', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'Card'] });
    await choosing(h);
    h.model.choose('PayByTransfer');
    const transfer = paymentViewFor('ref_0001');
    h.companion.lastInitiation().answer.resolve({ token: 'transfer-token', payment: transfer });
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });

    h.model.changeMethod();
    expect(h.model.step.value).toEqual({ kind: 'choosing', channels: CHANNELS, resume: transfer });
    // Nothing watches the transfer while the customer looks elsewhere; nothing was cancelled.
    expect(h.companion.active).toEqual([]);

    h.model.continueTransfer();
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    h.model.changeMethod();
    h.model.choose('Card');
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'Card', phase: 'entry' });
  });

  it('from a failure: a fresh session and the list', async () => {
    const { h, payment } = await cardUnderWay();
    card(h).track(payment, CARD_TOKEN, 'FAILED', 'card_declined');
    h.model.changeMethod();
    h.companion.lastSession().answer.resolve(sessionView({ channels: CHANNELS }));
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'choosing', channels: CHANNELS });
  });
});

function paymentViewFor(reference: string) {
  return paymentView({ reference });
}
