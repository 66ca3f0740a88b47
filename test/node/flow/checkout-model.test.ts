import { describe, expect, it } from 'vitest';
import { type CheckoutStep, pollDelayMs } from '../../../src/flow/checkout-model';
import { CompanionFailure } from '../../../src/flow/companion';
import { flush } from '../../helpers/fake-clock';
import {
  PENDING,
  paymentView,
  SERVER_NOW,
  sessionView,
} from '../../helpers/fake-companion-answers';
import { type Harness, harness, inTransfer, onAnyChange, PAYMENT_TOKEN } from './model-harness';

function kinds(steps: readonly CheckoutStep[]): string[] {
  return steps.map((step) => (step.kind === 'paying' ? `paying:${step.channel}` : step.kind));
}

function expectNothingLeft(h: Harness): void {
  expect(h.clock.pending).toBe(0);
  expect(h.companion.active).toEqual([]);
}

describe('start', () => {
  it('is loading until the session answers, and asks for the target it was given', async () => {
    const h = harness({ target: { link: 'summer-sale' } });
    expect(h.model.step.value).toEqual({ kind: 'loading' });
    void h.model.start();
    expect(h.model.step.value.kind).toBe('loading');
    expect(h.companion.sessions.map((call) => call.args)).toEqual([{ link: 'summer-sale' }]);
    await flush();
    expect(h.model.step.value.kind).toBe('loading');
    expect(h.companion.initiations).toHaveLength(0);
  });

  it('initiates the only supported channel at once, without a choosing step', async () => {
    const customer = { email: 'ada@example.com' };
    const h = harness({ supportedChannels: ['PayByTransfer'], customer });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'Card', description: null },
          { name: 'PayByTransfer', description: 'Bank transfer' },
        ],
      }),
    );
    await flush();
    expect(h.companion.initiations).toHaveLength(1);
    expect(h.companion.lastInitiation().args).toEqual({
      token: 'session-token',
      request: { channel: 'PayByTransfer', customer },
    });
    expect(h.model.step.value).toEqual({ kind: 'starting', channel: 'PayByTransfer' });
    expect(kinds(h.steps)).not.toContain('choosing');
    expect(h.model.session.value?.channels.map((channel) => channel.name)).toEqual([
      'PayByTransfer',
    ]);

    h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment: paymentView() });
    await flush();
    expect(kinds(h.steps)).toEqual(['loading', 'starting', 'paying:PayByTransfer']);
    const step = h.model.step.value;
    expect(step.kind === 'paying' && step.channel === 'PayByTransfer' && step.phase).toBe(
      'awaiting',
    );
    expect(
      step.kind === 'paying' &&
        step.channel === 'PayByTransfer' &&
        step.payment.virtualAccount?.accountNumber,
    ).toBe('0123456789');
  });

  it('lets the customer choose among several supported channels, and only those', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'PayByTransfer', description: 'Bank transfer' },
          { name: 'Card', description: 'Card' },
          { name: 'PayByAccount', description: null },
        ],
      }),
    );
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'choosing',
      channels: [
        { name: 'PayByTransfer', description: 'Bank transfer' },
        { name: 'PayByAccount', description: null },
      ],
    });
    expect(h.companion.initiations).toHaveLength(0);
  });

  it('ends in the no_channels error when no offered channel is supported', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer'] });
    void h.model.start();
    h.companion
      .lastSession()
      .answer.resolve(sessionView({ channels: [{ name: 'Card', description: null }] }));
    await flush();
    const step = h.model.step.value;
    expect(step).toMatchObject({ kind: 'error', code: 'no_channels', retry: 'session' });
    expect(step.kind === 'error' && step.message.length).toBeGreaterThan(0);
    expect(h.companion.initiations).toHaveLength(0);
  });

  it('ends in the no_channels error when the session offers no channel at all', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView({ channels: [] }));
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'error', code: 'no_channels' });
  });

  it('offers an open transfer the session brings back beside the channels, and resumes it without initiating again (issue 12)', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    const pending = paymentView({ reference: 'PAY-RESUMED' });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        token: 'resumed-token',
        channels: [
          { name: 'PayByTransfer', description: null },
          { name: 'PayByAccount', description: null },
        ],
        payment: pending,
      }),
    );
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'choosing',
      channels: [
        { name: 'PayByTransfer', description: null },
        { name: 'PayByAccount', description: null },
      ],
      resume: pending,
    });
    h.model.continueTransfer();
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'PayByTransfer',
      payment: pending,
      phase: 'awaiting',
    });
    expect(h.companion.initiations).toHaveLength(0);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual(['resumed-token']);
    expect(h.model.secondsLeft.value).toBe(1800);
    expect(h.model.outcome.value).toBeNull();
  });

  it('goes straight to succeeded when the session brings back a paid payment', async () => {
    const h = harness();
    const paid = paymentView({ status: 'SUCCESSFUL' });
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView({ payment: paid }));
    await flush();
    expect(h.model.step.value).toEqual({ kind: 'succeeded', payment: paid });
    expect(h.model.outcome.value).toEqual({
      status: 'succeeded',
      payment: { reference: 'ref_0001', channel: 'PayByTransfer', amount: paid.amount },
    });
    expect(h.companion.initiations).toHaveLength(0);
    expectNothingLeft(h);
    await h.clock.advance(120_000);
    expect(h.companion.statuses).toHaveLength(0);
  });

  it('shows the session failure by its code, retried by starting a new session', async () => {
    const h = harness();
    void h.model.start();
    h.companion
      .lastSession()
      .answer.reject(new CompanionFailure('order_not_found', 'This order cannot be paid.'));
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'error',
      code: 'order_not_found',
      message: 'This order cannot be paid.',
      retry: 'session',
    });

    h.model.retry();
    expect(h.model.step.value.kind).toBe('loading');
    expect(h.companion.sessions).toHaveLength(2);
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    expect(h.model.step.value.kind).toBe('starting');
    expect(h.companion.initiations).toHaveLength(1);
  });

  it('reports an unexpected session error as internal', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.reject(new TypeError('boom'));
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'error',
      code: 'internal',
      message: 'boom',
      retry: 'session',
    });
  });

  it('retries a failed initiation by initiating again, not by a new session', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    h.companion
      .lastInitiation()
      .answer.reject(new CompanionFailure('unavailable', 'The provider is down.'));
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'error',
      code: 'unavailable',
      message: 'The provider is down.',
      retry: 'initiate',
    });

    h.model.retry();
    expect(h.companion.sessions).toHaveLength(1);
    expect(h.companion.initiations).toHaveLength(2);
    expect(h.companion.lastInitiation().args.request.channel).toBe('PayByTransfer');
    expect(h.model.step.value).toEqual({ kind: 'starting', channel: 'PayByTransfer' });
    h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment: paymentView() });
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
  });

  it('retries the channel the customer chose', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'PayByAccount', description: null },
          { name: 'PayByTransfer', description: null },
        ],
      }),
    );
    await flush();
    h.model.choose('PayByTransfer');
    h.companion.lastInitiation().answer.reject(new CompanionFailure('timeout', 'Too slow.'));
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'error', retry: 'initiate' });
    h.model.retry();
    expect(h.companion.initiations.map((call) => call.args.request.channel)).toEqual([
      'PayByTransfer',
      'PayByTransfer',
    ]);
  });

  it('does nothing on retry() outside an error step', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.retry();
    expect(h.companion.sessions).toHaveLength(1);
    expect(h.companion.initiations).toHaveLength(1);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
  });
});

describe('choose', () => {
  it('initiates the chosen channel from the choosing step', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'PayByTransfer', description: null },
          { name: 'PayByAccount', description: null },
        ],
      }),
    );
    await flush();
    h.model.choose('PayByTransfer');
    expect(h.model.step.value).toEqual({ kind: 'starting', channel: 'PayByTransfer' });
    expect(h.companion.initiations).toHaveLength(1);
    h.model.choose('PayByAccount');
    expect(h.companion.initiations).toHaveLength(1);
  });

  it('is ignored while loading', () => {
    const h = harness();
    void h.model.start();
    h.model.choose('PayByTransfer');
    expect(h.companion.initiations).toHaveLength(0);
    expect(h.model.step.value.kind).toBe('loading');
  });

  it('is ignored during a transfer and after an outcome', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.choose('PayByTransfer');
    expect(h.companion.initiations).toHaveLength(1);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    h.companion.push('SUCCESSFUL');
    h.model.choose('PayByTransfer');
    expect(h.companion.initiations).toHaveLength(1);
    expect(h.model.step.value.kind).toBe('succeeded');
  });
});

describe('transfer', () => {
  it('watches the payment it shows', async () => {
    const h = harness();
    await inTransfer(h);
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual([PAYMENT_TOKEN]);
  });

  it('sentMoney() moves to confirming, checks the status once, and never succeeds by itself', async () => {
    const h = harness();
    await inTransfer(h);
    const before = h.model.step.value;
    h.model.sentMoney();
    expect(h.model.step.value).toEqual({ ...before, phase: 'confirming' });
    expect(h.companion.statuses.map((call) => call.args)).toEqual([PAYMENT_TOKEN]);
    h.model.sentMoney();
    expect(h.companion.statuses).toHaveLength(1);

    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByTransfer',
      phase: 'confirming',
    });
    expect(h.model.outcome.value).toBeNull();
    expect(kinds(h.steps)).not.toContain('succeeded');
  });

  it('succeeds when SUCCESSFUL is pushed', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.sentMoney();
    h.companion.push('SUCCESSFUL');
    const step = h.model.step.value;
    expect(step.kind).toBe('succeeded');
    expect(step.kind === 'succeeded' && step.payment.status).toBe('SUCCESSFUL');
    expect(h.model.outcome.value).toEqual({
      status: 'succeeded',
      payment: {
        reference: 'ref_0001',
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
      },
    });
  });

  it('fails with payment_failed when FAILED is pushed', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.push('FAILED');
    const step = h.model.step.value;
    expect(step.kind).toBe('failed');
    expect(step.kind === 'failed' && step.payment.status).toBe('FAILED');
    expect(step.kind === 'failed' && step.code).toBe('payment_failed');
    const outcome = h.model.outcome.value;
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'payment_failed' },
      payment: { reference: 'ref_0001', channel: 'PayByTransfer' },
    });
    expect(outcome?.status === 'failed' && outcome.error.message.length).toBeGreaterThan(0);
  });

  it('changes nothing on PENDING pushes', async () => {
    const h = harness();
    await inTransfer(h);
    const before = h.model.step.value;
    const stepsBefore = h.steps.length;
    h.companion.push('PENDING');
    h.companion.push('PENDING');
    expect(h.model.step.value).toBe(before);
    expect(h.steps).toHaveLength(stepsBefore);
    expect(h.model.outcome.value).toBeNull();
  });

  it('settles on a status answer as well as on a push', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.sentMoney();
    h.companion.lastStatus().answer.resolve({ status: 'SUCCESSFUL', serverTime: null });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value?.status).toBe('succeeded');
  });

  it.each(['SUCCESSFUL', 'FAILED'] as const)(
    'after %s: no more status calls, the watch is closed, no timer is left',
    async (status) => {
      const h = harness();
      await inTransfer(h);
      h.companion.answerStatus = () => ({ ...PENDING });
      await h.clock.advance(10_000);
      const checks = h.companion.statuses.length;
      expect(checks).toBeGreaterThan(0);
      expect(h.clock.pending).toBeGreaterThan(0);

      h.companion.push(status);
      expect(h.companion.watchers).toHaveLength(1);
      expect(h.companion.watchers[0]?.unsubscribed).toBe(true);
      expectNothingLeft(h);
      await h.clock.advance(60 * 60_000);
      h.model.sentMoney();
      expect(h.companion.statuses).toHaveLength(checks);
      const settled = h.model.step.value;
      h.companion.pushToAll(status === 'SUCCESSFUL' ? 'FAILED' : 'SUCCESSFUL');
      expect(h.model.step.value).toBe(settled);
    },
  );

  it('ignores a late status answer that contradicts the outcome', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.sentMoney();
    h.companion.push('SUCCESSFUL');
    h.companion.lastStatus().answer.resolve({ status: 'FAILED', serverTime: null });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value?.status).toBe('succeeded');
  });
});

describe('polling', () => {
  it('checks every 2 s for the first minute, then every 10 s', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.answerStatus = () => ({ ...PENDING });
    const started = h.clock.monotonic();

    await h.clock.advance(60_000);
    expect(h.companion.statuses).toHaveLength(30);
    await h.clock.advance(60_000);
    expect(h.companion.statuses).toHaveLength(36);

    const times = h.companion.statuses.map((call) => call.at - started);
    expect(times.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => (i + 1) * 2000));
    expect(times.slice(30)).toEqual([70_000, 80_000, 90_000, 100_000, 110_000, 120_000]);
    expect(h.companion.statuses.every((call) => call.args === PAYMENT_TOKEN)).toBe(true);
  });

  it('keeps only one poll timer and one tick waiting at a time', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.answerStatus = () => ({ ...PENDING });
    expect(h.clock.pendingOf('timeout')).toBe(1);
    expect(h.clock.pendingOf('interval')).toBe(1);
    await h.clock.advance(90_000);
    expect(h.clock.pendingOf('timeout')).toBe(1);
    expect(h.clock.pendingOf('interval')).toBe(1);
  });

  it('goes on polling when status calls fail, without changing the step', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.answerStatus = () => {
      throw new CompanionFailure('network', 'Offline.');
    };
    const before = h.model.step.value;
    await h.clock.advance(60_000);
    expect(h.companion.statuses).toHaveLength(30);
    await h.clock.advance(60_000);
    expect(h.companion.statuses).toHaveLength(36);
    expect(h.model.step.value).toBe(before);
    expect(h.model.outcome.value).toBeNull();

    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
    await h.clock.advance(10_000);
    expect(h.model.step.value.kind).toBe('succeeded');
  });

  it('waits for a slow status answer before the next check', async () => {
    const h = harness();
    await inTransfer(h);
    await h.clock.advance(2000);
    expect(h.companion.statuses).toHaveLength(1);
    await h.clock.advance(20_000);
    expect(h.companion.statuses).toHaveLength(1);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    await h.clock.advance(2000);
    expect(h.companion.statuses).toHaveLength(2);
  });

  it('a FAILED answer from a poll ends the payment as failed', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.answerStatus = () => ({ status: 'FAILED', serverTime: null });
    await h.clock.advance(2000);
    expect(h.model.step.value).toMatchObject({ kind: 'failed', code: 'payment_failed' });
    expect(h.model.outcome.value).toMatchObject({ error: { code: 'payment_failed' } });
    expectNothingLeft(h);
  });
});

describe('pollDelayMs', () => {
  it.each([
    [0, 2000],
    [1, 2000],
    [59_999, 2000],
    [60_000, 10_000],
    [60_001, 10_000],
    [3_600_000, 10_000],
  ])('after %i ms waits %i ms', (since, delay) => {
    expect(pollDelayMs(since)).toBe(delay);
  });
});

describe('resultIfClosed', () => {
  it('is cancelled before any payment', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    expect(h.model.resultIfClosed()).toEqual({ status: 'cancelled' });
    void h.model.start();
    expect(h.model.resultIfClosed()).toEqual({ status: 'cancelled' });
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'PayByTransfer', description: null },
          { name: 'PayByAccount', description: null },
        ],
      }),
    );
    await flush();
    expect(h.model.step.value.kind).toBe('choosing');
    expect(h.model.resultIfClosed()).toEqual({ status: 'cancelled' });
  });

  it('is pending with the payment during the transfer', async () => {
    const h = harness();
    await inTransfer(h);
    const pending = {
      status: 'pending',
      payment: {
        reference: 'ref_0001',
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
      },
    };
    expect(h.model.resultIfClosed()).toEqual(pending);
    h.model.sentMoney();
    expect(h.model.resultIfClosed()).toEqual(pending);
  });

  it('is failed with the error during an error step', async () => {
    const h = harness();
    void h.model.start();
    h.companion
      .lastSession()
      .answer.reject(new CompanionFailure('order_not_found', 'This order cannot be paid.'));
    await flush();
    expect(h.model.step.value.kind).toBe('error');
    expect(h.model.resultIfClosed()).toMatchObject({
      status: 'failed',
      error: { code: 'order_not_found', message: 'This order cannot be paid.' },
    });
  });

  it('is failed with the error after a failed initiation', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    h.companion.lastInitiation().answer.reject(new CompanionFailure('unavailable', 'Down.'));
    await flush();
    expect(h.model.resultIfClosed()).toMatchObject({
      status: 'failed',
      error: { code: 'unavailable', message: 'Down.' },
    });
  });

  it('is the outcome once there is one', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.push('SUCCESSFUL');
    expect(h.model.resultIfClosed()).toBe(h.model.outcome.value);
    expect(h.model.resultIfClosed()).toMatchObject({
      status: 'succeeded',
      payment: { reference: 'ref_0001' },
    });

    const f = harness();
    await inTransfer(f);
    f.companion.push('FAILED');
    expect(f.model.resultIfClosed()).toMatchObject({
      status: 'failed',
      error: { code: 'payment_failed' },
      payment: { reference: 'ref_0001' },
    });
  });
});

describe('paymentUnderWay', () => {
  it('is true while starting and during the transfer only', async () => {
    const h = harness();
    const seen: [string, boolean][] = [];
    const note = () => seen.push([h.model.step.value.kind, h.model.paymentUnderWay.value]);
    note();
    void h.model.start();
    note();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    note();
    h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment: paymentView() });
    await flush();
    note();
    h.model.sentMoney();
    note();
    h.companion.push('SUCCESSFUL');
    note();
    expect(seen).toEqual([
      ['loading', false],
      ['loading', false],
      ['starting', true],
      ['paying', true],
      ['paying', true],
      ['succeeded', false],
    ]);
  });

  it('is false when choosing, failed or in error', async () => {
    const h = harness({ supportedChannels: ['PayByTransfer', 'PayByAccount'] });
    void h.model.start();
    h.companion.lastSession().answer.resolve(
      sessionView({
        channels: [
          { name: 'PayByTransfer', description: null },
          { name: 'PayByAccount', description: null },
        ],
      }),
    );
    await flush();
    expect(h.model.step.value.kind).toBe('choosing');
    expect(h.model.paymentUnderWay.value).toBe(false);
    h.model.choose('PayByTransfer');
    expect(h.model.paymentUnderWay.value).toBe(true);
    h.companion.lastInitiation().answer.reject(new CompanionFailure('conflict', 'Twice.'));
    await flush();
    expect(h.model.step.value.kind).toBe('error');
    expect(h.model.paymentUnderWay.value).toBe(false);

    const f = harness();
    await inTransfer(f);
    f.companion.push('FAILED');
    expect(f.model.paymentUnderWay.value).toBe(false);
  });
});

describe('dispose', () => {
  it('stops every timer and the watch during a transfer; later answers change nothing', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.sentMoney();
    const inFlight = h.companion.lastStatus();
    const before = h.model.step.value;
    const stepsBefore = h.steps.length;
    const secondsBefore = h.model.secondsLeft.value;

    h.model.dispose();
    expectNothingLeft(h);
    let notified = 0;
    onAnyChange(h.model, () => notified++);
    notified = 0;

    inFlight.answer.resolve({ status: 'SUCCESSFUL', serverTime: SERVER_NOW + 600_000 });
    await flush();
    // Its server time re-anchors nothing (it would leave 1200 s).
    expect(h.model.secondsLeft.value).toBe(secondsBefore);
    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
    await h.clock.advance(40 * 60_000);

    expect(h.model.step.value).toBe(before);
    expect(h.steps).toHaveLength(stepsBefore);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.milestone.value).toBeNull();
    expect(notified).toBe(0);
    expect(h.companion.statuses).toHaveLength(1);
    expectNothingLeft(h);
  });

  it('makes no companion call for actions after dispose', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.dispose();
    h.companion.answerStatus = () => ({ status: 'SUCCESSFUL', serverTime: null });
    h.model.sentMoney();
    h.model.resync();
    await flush();
    expect(h.companion.statuses).toHaveLength(0);
    expect(h.model.step.value).toMatchObject({
      kind: 'paying',
      channel: 'PayByTransfer',
      phase: 'awaiting',
    });
    expect(h.model.outcome.value).toBeNull();
  });

  it.each(['SUCCESSFUL', 'FAILED'] as const)(
    'ignores a %s push that still reaches its callback after dispose',
    async (status) => {
      const h = harness();
      await inTransfer(h);
      const before = h.model.step.value;
      h.model.dispose();
      h.companion.pushToAll(status);
      expect(h.model.step.value).toBe(before);
      expect(h.model.outcome.value).toBeNull();
      expect(h.model.resultIfClosed()).toMatchObject({ status: 'pending' });
    },
  );

  it('is harmless twice and after an outcome', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.push('SUCCESSFUL');
    h.model.dispose();
    h.model.dispose();
    expectNothingLeft(h);
    expect(h.model.step.value.kind).toBe('succeeded');
  });

  it('while loading: a session answering afterwards starts nothing', async () => {
    const h = harness();
    void h.model.start();
    h.model.dispose();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    expect(h.companion.initiations).toHaveLength(0);
    expect(h.model.step.value.kind).toBe('loading');
    expectNothingLeft(h);
  });

  it('while starting: an initiation answering afterwards leaves no timer and no watch', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    expect(h.model.step.value.kind).toBe('starting');
    h.model.dispose();
    h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment: paymentView() });
    await flush();
    expect(h.model.step.value.kind).toBe('starting');
    expectNothingLeft(h);
    await h.clock.advance(60_000);
    expect(h.companion.statuses).toHaveLength(0);
  });

  it('while starting: a failed initiation afterwards changes nothing', async () => {
    const h = harness();
    void h.model.start();
    h.companion.lastSession().answer.resolve(sessionView());
    await flush();
    h.model.dispose();
    h.companion.lastInitiation().answer.reject(new CompanionFailure('unavailable', 'Down.'));
    await flush();
    expect(h.model.step.value.kind).toBe('starting');
    expect(h.steps.map((step) => step.kind)).toEqual(['loading', 'starting']);
  });
});
