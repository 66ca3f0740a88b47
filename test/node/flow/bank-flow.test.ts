import { describe, expect, it } from 'vitest';
import type { BankPhase, CheckoutStep } from '../../../src/flow/checkout-model';
import {
  type ChannelChoice,
  CompanionFailure,
  type PaymentView,
} from '../../../src/flow/companion';
import { flush } from '../../helpers/fake-clock';
import {
  bankPayment,
  PENDING,
  paymentView,
  sessionView,
} from '../../helpers/fake-companion-answers';
import { type Harness, type HarnessOptions, harness } from './model-harness';

const RETURN_TO = 'https://shop.example/checkout?order=42';
const BANK_TOKEN = 'bank-payment-token';
const REFERENCE = 'PAY-BANK-1';

const BOTH: ChannelChoice[] = [
  { name: 'PayByTransfer', description: 'Bank transfer' },
  { name: 'PayByAccount', description: 'Pay from your bank' },
];

const BANK_SUMMARY = {
  reference: REFERENCE,
  channel: 'PayByAccount',
  amount: { amountMinor: 2_500_050, currency: 'NGN' },
};

function kinds(steps: readonly CheckoutStep[]): string[] {
  return steps.map((step) => (step.kind === 'paying' ? `paying:${step.channel}` : step.kind));
}

function expectNothingLeft(h: Harness): void {
  expect(h.clock.pending).toBe(0);
  expect(h.companion.active).toEqual([]);
}

function bankHarness(options: HarnessOptions = {}): Harness {
  return harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'], ...options });
}

/** Started, the session answered with both channels: the customer chooses. */
async function choosing(h: Harness): Promise<void> {
  void h.model.start();
  h.companion.lastSession().answer.resolve(sessionView({ channels: BOTH }));
  await flush();
  expect(h.model.step.value.kind).toBe('choosing');
}

/** PayByAccount chosen and initiated: the bank step, ready. */
async function inBank(h: Harness, payment: PaymentView = bankPayment()): Promise<void> {
  await choosing(h);
  h.model.choose('PayByAccount');
  h.companion.lastInitiation().answer.resolve({ token: BANK_TOKEN, payment });
  await flush();
  expect(h.model.step.value).toMatchObject({
    kind: 'paying',
    channel: 'PayByAccount',
    phase: 'ready',
  });
}

/** From `ready`, the way the widget gets to each phase; the status checks on the way say PENDING. */
async function toPhase(h: Harness, phase: BankPhase): Promise<void> {
  if (phase === 'processing') {
    h.model.bankReturned(REFERENCE);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
  } else if (phase !== 'ready') {
    h.model.bankOpened();
    if (phase === 'closed') {
      const closing = h.model.bankWindowClosed();
      h.companion.lastStatus().answer.resolve({ ...PENDING });
      await closing;
    }
  }
  expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByAccount', phase });
}

const PHASES: BankPhase[] = ['ready', 'opened', 'closed', 'processing'];

describe('initiation', () => {
  it('sends the page to come back to with a PayByAccount initiation', async () => {
    const h = bankHarness({ returnTo: RETURN_TO });
    await choosing(h);
    h.model.choose('PayByAccount');
    expect(h.companion.lastInitiation().args.token).toBe('session-token');
    expect(h.companion.lastInitiation().args.request).toMatchObject({
      channel: 'PayByAccount',
      returnTo: RETURN_TO,
    });
  });

  it('does not send it with a transfer', async () => {
    const h = bankHarness({ returnTo: RETURN_TO });
    await choosing(h);
    h.model.choose('PayByTransfer');
    const { request } = h.companion.lastInitiation().args;
    expect(request.channel).toBe('PayByTransfer');
    expect(request).not.toHaveProperty('returnTo');
  });

  it('sends none when the page gave none', async () => {
    const h = bankHarness();
    await choosing(h);
    h.model.choose('PayByAccount');
    expect(h.companion.lastInitiation().args.request).not.toHaveProperty('returnTo');
  });

  it('shows the bank step ready, watched and polled, with no countdown', async () => {
    const h = bankHarness();
    const payment = bankPayment();
    await inBank(h, payment);
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'PayByAccount',
      payment,
      phase: 'ready',
    });
    expect(kinds(h.steps)).toEqual(['loading', 'choosing', 'starting', 'paying:PayByAccount']);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual([BANK_TOKEN]);
    expect(h.model.paymentToken()).toBe(BANK_TOKEN);
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.model.secondsLeft.value).toBeNull();
    expect(h.clock.pendingOf('interval')).toBe(0);
    expect(h.companion.statuses).toHaveLength(0);

    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(2000);
    expect(h.companion.statuses.map((call) => call.args)).toEqual([BANK_TOKEN]);
    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
    await h.clock.advance(2000);
    expect(h.model.step.value.kind).toBe('succeeded');
  });

  it('settles at once a bank payment that comes back already paid', async () => {
    const h = bankHarness();
    await choosing(h);
    h.model.choose('PayByAccount');
    h.companion
      .lastInitiation()
      .answer.resolve({ token: BANK_TOKEN, payment: bankPayment({ status: 'SUCCESSFUL' }) });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: BANK_SUMMARY });
    expectNothingLeft(h);
  });
});

describe('the bank window', () => {
  it('bankOpened() moves ready to opened, keeping the payment', async () => {
    const h = bankHarness();
    const payment = bankPayment();
    await inBank(h, payment);
    h.model.bankOpened();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'PayByAccount',
      payment,
      phase: 'opened',
    });
    expect(h.companion.statuses).toHaveLength(0);
  });

  it('bankOpened() does not undo processing', async () => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, 'processing');
    h.model.bankOpened();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });
  });

  it('bankReturned() for this payment: processing, and a status check at once', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    h.model.bankReturned(REFERENCE);
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.companion.statuses.map((call) => call.args)).toEqual([BANK_TOKEN]);

    h.companion.lastStatus().answer.resolve({ status: 'SUCCESSFUL', serverTime: null });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: BANK_SUMMARY });
    expectNothingLeft(h);
  });

  it('bankReturned() still PENDING: processing, watched until the push', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankReturned(REFERENCE);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });
    expect(h.model.outcome.value).toBeNull();
    expect(h.companion.active).toHaveLength(1);
    h.companion.push('SUCCESSFUL');
    expect(h.model.step.value.kind).toBe('succeeded');
  });

  it('bankReturned() for another payment is ignored', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const before = h.model.step.value;
    const stepsBefore = h.steps.length;
    h.model.bankReturned('PAY-SOMEONE-ELSE');
    h.model.bankReturned('');
    expect(h.model.step.value).toBe(before);
    expect(h.steps).toHaveLength(stepsBefore);
    expect(h.companion.statuses).toHaveLength(0);
  });

  it('bankWindowClosed() asks, and still PENDING, says closed and keeps watching', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const closing = h.model.bankWindowClosed();
    expect(h.companion.statuses.map((call) => call.args)).toEqual([BANK_TOKEN]);
    expect(h.model.step.value).toMatchObject({ phase: 'opened' });

    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await closing;
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'closed',
    });
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentUnderWay.value).toBe(true);
    expect(h.companion.active).toHaveLength(1);

    // The customer goes to the bank again.
    h.model.bankOpened();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'opened',
    });
    h.companion.push('SUCCESSFUL');
    expect(h.model.step.value.kind).toBe('succeeded');
  });

  it('bankWindowClosed() succeeds when the check says SUCCESSFUL, never showing closed', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const closing = h.model.bankWindowClosed();
    h.companion.lastStatus().answer.resolve({ status: 'SUCCESSFUL', serverTime: null });
    await closing;
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(
      h.steps.some(
        (step) =>
          step.kind === 'paying' && step.channel === 'PayByAccount' && step.phase === 'closed',
      ),
    ).toBe(false);
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: BANK_SUMMARY });
    expectNothingLeft(h);
  });

  it('bankWindowClosed() fails when the check says FAILED', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const closing = h.model.bankWindowClosed();
    h.companion.lastStatus().answer.resolve({ status: 'FAILED', serverTime: null });
    await closing;
    expect(h.model.step.value).toMatchObject({ kind: 'failed', code: 'bank_declined' });
    expect(h.model.outcome.value).toMatchObject({
      status: 'failed',
      error: { code: 'bank_declined' },
      payment: BANK_SUMMARY,
    });
  });

  it('bankWindowClosed() says closed when the check cannot be made', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const closing = h.model.bankWindowClosed();
    h.companion.lastStatus().answer.reject(new CompanionFailure('network', 'Offline.'));
    await closing;
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'closed',
    });
    expect(h.model.outcome.value).toBeNull();
  });

  it('bankWindowClosed() after the return leaves the payment processing', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    await toPhase(h, 'processing');
    const closing = h.model.bankWindowClosed();
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await closing;
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });
  });
});

describe('the outcome pushed', () => {
  it.each(PHASES)('PENDING changes nothing in %s', async (phase) => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, phase);
    const before = h.model.step.value;
    const stepsBefore = h.steps.length;
    h.companion.push('PENDING');
    expect(h.model.step.value).toBe(before);
    expect(h.steps).toHaveLength(stepsBefore);
  });

  it.each(PHASES)('SUCCESSFUL in %s succeeds, once', async (phase) => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, phase);
    const checks = h.companion.statuses.length;
    h.companion.push('SUCCESSFUL');
    const step = h.model.step.value;
    expect(step.kind).toBe('succeeded');
    expect(step.kind === 'succeeded' && step.payment.status).toBe('SUCCESSFUL');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: BANK_SUMMARY });
    expect(h.model.paymentUnderWay.value).toBe(false);
    expectNothingLeft(h);

    h.companion.pushToAll('SUCCESSFUL');
    h.companion.pushToAll('FAILED');
    h.model.bankReturned(REFERENCE);
    await h.model.bankWindowClosed();
    h.companion.answerStatus = () => ({ status: 'FAILED', serverTime: null });
    await h.clock.advance(10 * 60_000);
    expect(h.model.step.value).toBe(step);
    expect(kinds(h.steps).filter((kind) => kind === 'succeeded')).toHaveLength(1);
    expect(h.companion.statuses).toHaveLength(checks);
  });

  it.each(PHASES)('FAILED in %s fails as declined by the bank, once', async (phase) => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, phase);
    h.companion.push('FAILED');
    const step = h.model.step.value;
    expect(step).toMatchObject({ kind: 'failed', code: 'bank_declined' });
    expect(h.model.outcome.value).toMatchObject({
      status: 'failed',
      error: { code: 'bank_declined' },
      payment: BANK_SUMMARY,
    });
    expectNothingLeft(h);

    h.companion.pushToAll('SUCCESSFUL');
    expect(h.model.step.value).toBe(step);
    expect(kinds(h.steps).filter((kind) => kind === 'failed')).toHaveLength(1);
  });
});

describe('changeMethod', () => {
  it.each(['ready', 'closed'] as const)(
    'from %s: back to choosing, no longer watching or polling',
    async (phase) => {
      const h = bankHarness();
      await inBank(h);
      await toPhase(h, phase);
      h.model.changeMethod();
      expect(h.model.step.value).toEqual({ kind: 'choosing', channels: BOTH });
      expectNothingLeft(h);
      expect(h.companion.watchers[0]?.unsubscribed).toBe(true);
      expect(h.model.paymentUnderWay.value).toBe(false);
      expect(h.model.resultIfClosed()).toEqual({ status: 'cancelled' });

      const checks = h.companion.statuses.length;
      h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
      await h.clock.advance(10 * 60_000);
      expect(h.companion.statuses).toHaveLength(checks);
      h.companion.pushToAll('SUCCESSFUL');
      expect(h.model.step.value.kind).toBe('choosing');
      expect(h.model.outcome.value).toBeNull();
    },
  );

  it('lets the customer go on with another channel', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.changeMethod();
    h.model.choose('PayByTransfer');
    h.companion
      .lastInitiation()
      .answer.resolve({ token: 'transfer-token', payment: paymentView({ reference: 'PAY-T' }) });
    await flush();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByTransfer',
      phase: 'awaiting',
    });
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual(['transfer-token']);
    expect(h.model.paymentToken()).toBe('transfer-token');
  });

  it('is ignored while the bank’s window is up: that payment may still be approved', async () => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, 'opened');
    const before = h.model.step.value;
    h.model.changeMethod();
    expect(h.model.step.value).toBe(before);
    expect(h.companion.active).toHaveLength(1);
  });

  it('is ignored while the payment is processing', async () => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, 'processing');
    const before = h.model.step.value;
    h.model.changeMethod();
    expect(h.model.step.value).toBe(before);
    expect(h.companion.active).toHaveLength(1);
    h.companion.answerStatus = () => ({ ...PENDING });
    const checks = h.companion.statuses.length;
    await h.clock.advance(2000);
    expect(h.companion.statuses).toHaveLength(checks + 1);
  });

  it('is ignored when the bank is the only channel', async () => {
    const h = harness({ supportedChannels: ['PayByAccount'] });
    void h.model.start();
    h.companion
      .lastSession()
      .answer.resolve(sessionView({ channels: [{ name: 'PayByAccount', description: null }] }));
    await flush();
    expect(kinds(h.steps)).not.toContain('choosing');
    h.companion.lastInitiation().answer.resolve({ token: BANK_TOKEN, payment: bankPayment() });
    await flush();
    const before = h.model.step.value;
    expect(before).toMatchObject({ kind: 'paying', channel: 'PayByAccount', phase: 'ready' });
    h.model.changeMethod();
    expect(h.model.step.value).toBe(before);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual([BANK_TOKEN]);
  });
});

describe('resumed after a full-page redirect', () => {
  const resumed = { token: 'resumed-token', payment: bankPayment() };

  it('picks the payment up as processing and checks its status at once', async () => {
    const h = bankHarness({ resumed });
    void h.model.start();
    expect(h.companion.statuses).toHaveLength(0);
    h.companion.lastSession().answer.resolve(sessionView({ channels: BOTH }));
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'PayByAccount',
      payment: resumed.payment,
      phase: 'processing',
    });
    expect(kinds(h.steps)).toEqual(['loading', 'paying:PayByAccount']);
    expect(h.companion.initiations).toHaveLength(0);
    expect(h.companion.statuses.map((call) => call.args)).toEqual(['resumed-token']);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual(['resumed-token']);
    expect(h.model.paymentToken()).toBe('resumed-token');

    h.companion.lastStatus().answer.resolve({ status: 'SUCCESSFUL', serverTime: null });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toEqual({ status: 'succeeded', payment: BANK_SUMMARY });
  });

  it('still PENDING: keeps polling until the outcome', async () => {
    const h = bankHarness({ resumed });
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView({ channels: BOTH }));
    await flush();
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });
    h.model.changeMethod();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByAccount',
      phase: 'processing',
    });

    h.companion.answerStatus = () => ({ status: 'FAILED', serverTime: null });
    await h.clock.advance(2000);
    expect(h.companion.statuses).toHaveLength(2);
    expect(h.model.step.value).toMatchObject({ kind: 'failed', code: 'bank_declined' });
  });
});

describe('resultIfClosed', () => {
  it.each(PHASES)('is pending with the bank payment in %s', async (phase) => {
    const h = bankHarness();
    await inBank(h);
    await toPhase(h, phase);
    expect(h.model.resultIfClosed()).toEqual({ status: 'pending', payment: BANK_SUMMARY });
  });
});

describe('dispose', () => {
  it('stops everything; the window and the bank are not heard afterwards', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const before = h.model.step.value;
    const stepsBefore = h.steps.length;
    h.model.dispose();
    expectNothingLeft(h);

    h.model.bankReturned(REFERENCE);
    await h.model.bankWindowClosed();
    h.model.changeMethod();
    h.companion.pushToAll('SUCCESSFUL');
    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
    await h.clock.advance(10 * 60_000);

    expect(h.companion.statuses).toHaveLength(0);
    expect(h.model.step.value).toBe(before);
    expect(h.steps).toHaveLength(stepsBefore);
    expect(h.model.outcome.value).toBeNull();
    expectNothingLeft(h);
  });

  it('while the closed window is being checked: the answer changes nothing', async () => {
    const h = bankHarness();
    await inBank(h);
    h.model.bankOpened();
    const closing = h.model.bankWindowClosed();
    const before = h.model.step.value;
    h.model.dispose();
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await closing;
    expect(h.model.step.value).toBe(before);
    expectNothingLeft(h);
  });
});
