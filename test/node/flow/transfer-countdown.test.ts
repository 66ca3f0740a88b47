import { effect } from '@preact/signals';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentView } from '../../../src/flow/companion';
import { flush } from '../../helpers/fake-clock';
import {
  PENDING,
  paymentView,
  SERVER_NOW,
  THIRTY_MINUTES,
} from '../../helpers/fake-companion-answers';
import { type Harness, harness, inTransfer, PAYMENT_TOKEN } from './model-harness';

const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A payment whose account expires `ms` after the server wrote the answer. */
function expiringIn(ms: number, overrides: Partial<PaymentView> = {}): PaymentView {
  const base = paymentView(overrides);
  const account = base.virtualAccount;
  if (!account) throw new Error('The test payment has an account.');
  return {
    ...base,
    virtualAccount: { ...account, expiresAt: base.serverTime + ms },
  };
}

/**
 * Every non-null milestone, in the order the model announced it: an effect on the milestone
 * signal, recorded only when it differs from the last.
 */
function announcements(h: Harness): number[] {
  const seen: number[] = [];
  let last: number | null = null;
  effect(() => {
    const mark = h.model.milestone.value;
    if (mark === last) return;
    last = mark;
    if (mark !== null) seen.push(mark);
  });
  return seen;
}

/**
 * 30 minutes and half a second: the last tick before expiry falls at 1 800 000 ms, and the tick
 * that reaches 0 at 1 801 000 ms, a time no poll lands on (polls fall on whole 10 s from 60 s).
 */
const ACCOUNT_LIFE = THIRTY_MINUTES + 500;

/** Runs the countdown, polls answering PENDING, to one tick before zero; polls answer by hand after. */
async function toTheLastSecond(h: Harness): Promise<void> {
  await inTransfer(h, expiringIn(ACCOUNT_LIFE));
  h.companion.answerStatus = () => ({ ...PENDING });
  await h.clock.advance(1_800_000);
  expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
  expect(h.model.secondsLeft.value).toBe(1);
  h.companion.answerStatus = null;
}

describe('secondsLeft', () => {
  it('counts down to the account expiry on the server clock, a second at a time', async () => {
    const h = harness();
    await inTransfer(h, expiringIn(12 * MINUTE + 30_500));
    expect(h.model.secondsLeft.value).toBe(751);
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(1000);
    expect(h.model.secondsLeft.value).toBe(750);
    await h.clock.advance(9000);
    expect(h.model.secondsLeft.value).toBe(741);
  });

  it('does not depend on where monotonic time starts', async () => {
    for (const startAt of [0, 7_000, 98_765_432]) {
      const h = harness({ startAt });
      await inTransfer(h);
      expect(h.model.secondsLeft.value).toBe(1800);
      h.companion.answerStatus = () => ({ ...PENDING });
      await h.clock.advance(61_000);
      expect(h.model.secondsLeft.value).toBe(1739);
      h.model.dispose();
    }
  });

  it('is null outside the transfer', async () => {
    const h = harness();
    expect(h.model.secondsLeft.value).toBeNull();
    await inTransfer(h);
    expect(h.model.secondsLeft.value).toBe(1800);
    h.companion.push('SUCCESSFUL');
    expect(h.model.secondsLeft.value).toBeNull();
  });

  it("ignores the customer's wall clock", async () => {
    vi.setSystemTime(SERVER_NOW + 3 * 3600_000);
    const h = harness();
    await inTransfer(h);
    expect(h.model.secondsLeft.value).toBe(1800);

    vi.setSystemTime(Date.parse('1999-12-31T23:59:59Z'));
    h.model.resync();
    expect(h.companion.lastStatus().args).toBe(PAYMENT_TOKEN);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.secondsLeft.value).toBe(1800);

    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(1000);
    expect(h.model.secondsLeft.value).toBe(1799);

    vi.setSystemTime(SERVER_NOW + 29 * MINUTE);
    await h.clock.advance(1000);
    expect(h.model.secondsLeft.value).toBe(1798);
    vi.setSystemTime(SERVER_NOW + 365 * 24 * 3600_000);
    h.model.resync();
    await flush();
    expect(h.model.secondsLeft.value).toBe(1798);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    expect(h.model.milestone.value).toBeNull();
  });

  it('re-anchors on a status answer carrying the server time, as after a sleep', async () => {
    const h = harness();
    await inTransfer(h);
    expect(h.model.secondsLeft.value).toBe(1800);

    // The laptop slept: monotonic time stood still, the server's did not.
    h.model.resync();
    h.companion
      .lastStatus()
      .answer.resolve({ status: 'PENDING', serverTime: SERVER_NOW + 5 * MINUTE });
    await flush();
    expect(h.model.secondsLeft.value).toBe(1500);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });

    // The anchor holds as monotonic time moves on from there.
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(10_000);
    expect(h.model.secondsLeft.value).toBe(1490);
  });

  it('re-anchors on a poll answer too, and not on an answer without server time', async () => {
    const h = harness();
    await inTransfer(h);
    h.companion.answerStatus = () => ({
      status: 'PENDING',
      serverTime: SERVER_NOW + 2000 + 5 * MINUTE,
    });
    await h.clock.advance(2000);
    expect(h.model.secondsLeft.value).toBe(1498);
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(2000);
    expect(h.model.secondsLeft.value).toBe(1496);
  });

  it('reaches the end at once when the server says the time is past', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.resync();
    h.companion
      .lastStatus()
      .answer.resolve({ status: 'PENDING', serverTime: SERVER_NOW + 45 * MINUTE });
    await flush();
    expect(h.model.secondsLeft.value).toBe(0);
    await h.clock.advance(1000);
    expect(h.companion.statuses).toHaveLength(2);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value.kind).toBe('expired');
    expect(h.model.milestone.value).toBe(0);
  });
});

describe('milestones', () => {
  it('announces 10, 5 and 1 minutes left, each once, as the countdown crosses them', async () => {
    const h = harness();
    const seen = announcements(h);
    await inTransfer(h);
    h.companion.answerStatus = () => ({ ...PENDING });

    await h.clock.advance(20 * MINUTE - 1000);
    expect(h.model.secondsLeft.value).toBe(601);
    expect(seen).toEqual([]);
    await h.clock.advance(1000);
    expect(seen).toEqual([10]);
    expect(h.model.milestone.value).toBe(10);

    await h.clock.advance(5 * MINUTE - 1000);
    expect(seen).toEqual([10]);
    await h.clock.advance(1000);
    expect(seen).toEqual([10, 5]);

    await h.clock.advance(4 * MINUTE);
    expect(seen).toEqual([10, 5, 1]);
    expect(h.model.milestone.value).toBe(1);
    await h.clock.advance(30_000);
    expect(seen).toEqual([10, 5, 1]);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
  });

  it('announces nothing for marks already behind when the payment is shown', async () => {
    const h = harness();
    const seen = announcements(h);
    await inTransfer(h, expiringIn(4 * MINUTE));
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(2 * MINUTE);
    expect(seen).toEqual([]);
    await h.clock.advance(MINUTE);
    expect(seen).toEqual([1]);
  });
});

describe('expiry', () => {
  it('checks the status once more at 0, then, still PENDING, expires', async () => {
    const h = harness();
    const seen = announcements(h);
    await toTheLastSecond(h);
    const before = h.companion.statuses.length;

    await h.clock.advance(1000);
    expect(h.model.secondsLeft.value).toBe(0);
    expect(h.companion.statuses).toHaveLength(before + 1);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });

    await h.clock.advance(3000);
    expect(h.companion.statuses).toHaveLength(before + 1);

    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    const step = h.model.step.value;
    expect(step.kind).toBe('expired');
    expect(step.kind === 'expired' && step.payment.reference).toBe('ref_0001');
    expect(h.model.milestone.value).toBe(0);
    expect(seen).toEqual([10, 5, 1, 0]);
    expect(h.model.outcome.value).toBeNull();
    expect(h.model.paymentUnderWay.value).toBe(false);
    expect(h.clock.pending).toBe(0);
    expect(h.companion.active).toEqual([]);

    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(30 * MINUTE);
    expect(h.companion.statuses).toHaveLength(before + 1);
    expect(h.model.step.value.kind).toBe('expired');
  });

  it('succeeds instead when that last check says SUCCESSFUL', async () => {
    const h = harness();
    await toTheLastSecond(h);
    await h.clock.advance(1000);
    h.companion.lastStatus().answer.resolve({ status: 'SUCCESSFUL', serverTime: null });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value).toMatchObject({
      status: 'succeeded',
      payment: { reference: 'ref_0001' },
    });
    expect(h.model.milestone.value).not.toBe(0);
    expect(h.clock.pending).toBe(0);
    expect(h.companion.active).toEqual([]);
  });

  it('succeeds when the push arrives while the last check is out', async () => {
    const h = harness();
    await toTheLastSecond(h);
    await h.clock.advance(1000);
    h.companion.push('SUCCESSFUL');
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value.kind).toBe('succeeded');
    expect(h.model.outcome.value?.status).toBe('succeeded');
  });

  it('expires when the last check fails to answer', async () => {
    const h = harness();
    await toTheLastSecond(h);
    await h.clock.advance(1000);
    h.companion.lastStatus().answer.reject(new Error('offline'));
    await flush();
    expect(h.model.step.value.kind).toBe('expired');
  });

  it('newAccount() initiates again and shows the new account, counting from 30 minutes', async () => {
    const h = harness();
    const seen = announcements(h);
    await toTheLastSecond(h);
    await h.clock.advance(1000);
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value.kind).toBe('expired');

    h.model.newAccount();
    expect(h.companion.initiations).toHaveLength(2);
    expect(h.companion.lastInitiation().args).toMatchObject({
      token: 'session-token',
      request: { channel: 'PayByTransfer' },
    });
    expect(h.model.step.value).toEqual({ kind: 'starting', channel: 'PayByTransfer' });
    h.model.newAccount();
    expect(h.companion.initiations).toHaveLength(2);

    const serverNow = SERVER_NOW + 31 * MINUTE;
    const fresh = paymentView({
      reference: 'PAY-0002',
      serverTime: serverNow,
      virtualAccount: {
        bank: 'Other Bank',
        accountNumber: '9876543210',
        accountName: 'Paydrop / Shop',
        note: 'Transfer the exact amount.',
        expiresAt: serverNow + THIRTY_MINUTES,
      },
    });
    h.companion.lastInitiation().answer.resolve({ token: 'payment-token-2', payment: fresh });
    await flush();
    expect(h.model.step.value).toEqual({
      kind: 'paying',
      channel: 'PayByTransfer',
      payment: fresh,
      phase: 'awaiting',
    });
    expect(h.model.secondsLeft.value).toBe(1800);
    expect(h.model.milestone.value).toBeNull();
    // The new account says which one it replaces (issue 12).
    expect(h.model.replacedAccount.value).toBe('0123456789');
    expect(h.companion.active.map((watcher) => watcher.token)).toEqual(['payment-token-2']);
    expect(h.model.resultIfClosed()).toMatchObject({
      status: 'pending',
      payment: { reference: 'PAY-0002' },
    });

    // The new countdown announces its own milestones, and the new account is the one polled.
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(20 * MINUTE);
    expect(seen).toEqual([10, 5, 1, 0, 10]);
    expect(h.companion.lastStatus().args).toBe('payment-token-2');
  });

  it('newAccount() does nothing before expiry', async () => {
    const h = harness();
    await inTransfer(h);
    h.model.newAccount();
    expect(h.companion.initiations).toHaveLength(1);
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
  });

  it('a poll still out at expiry does not start a second polling loop for the new account', async () => {
    const h = harness();
    await inTransfer(h, expiringIn(ACCOUNT_LIFE));
    h.companion.answerStatus = () => ({ ...PENDING });
    await h.clock.advance(1_799_999);
    h.companion.answerStatus = null;
    await h.clock.advance(1); // the poll at 1 800 000 ms goes out and hangs
    const slowPoll = h.companion.lastStatus();
    await h.clock.advance(1000); // 0 left: the last check
    const lastCheck = h.companion.lastStatus();
    expect(lastCheck).not.toBe(slowPoll);
    lastCheck.answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value.kind).toBe('expired');

    h.model.newAccount();
    h.companion.lastInitiation().answer.resolve({
      token: 'payment-token-2',
      payment: expiringIn(THIRTY_MINUTES, {
        reference: 'PAY-0002',
        serverTime: SERVER_NOW + 31 * MINUTE,
      }),
    });
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });

    slowPoll.answer.resolve({ ...PENDING });
    await flush();
    expect(h.clock.pendingOf('timeout')).toBe(1);

    h.companion.push('SUCCESSFUL');
    expect(h.clock.pending).toBe(0);
    const checks = h.companion.statuses.length;
    await h.clock.advance(10 * MINUTE);
    expect(h.companion.statuses).toHaveLength(checks);
  });

  it('dispose() while the last check is out: its answer changes nothing', async () => {
    const h = harness();
    await toTheLastSecond(h);
    const milestoneBefore = h.model.milestone.value;
    await h.clock.advance(1000);
    h.model.dispose();
    h.companion.lastStatus().answer.resolve({ ...PENDING });
    await flush();
    expect(h.model.step.value).toMatchObject({ kind: 'paying', channel: 'PayByTransfer' });
    expect(h.model.milestone.value).toBe(milestoneBefore);
    expect(h.clock.pending).toBe(0);
  });
});
