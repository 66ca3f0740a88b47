import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import {
  type CardDetails,
  CompanionFailure,
  type CustomerDetails,
  type PaymentStatus,
  type PaymentView,
} from '../../src/flow/companion';
import { cardCalls } from '../../src/widget/channels/card/card-calls';
import {
  type CardFlowState,
  CHALLENGE_TIMEOUT_MS,
  createCardFlow,
  FINALIZE_RETRY_MS,
} from '../../src/widget/channels/card/card-flow';
import { FakeClock, flush } from '../helpers/fake-clock';
import { COMPANION_ORIGIN, FakeCompanion } from '../helpers/fake-companion';
import { authentication, cardPayment } from '../helpers/fake-companion-answers';

const CARD: CardDetails = {
  number: '4000000000003220',
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: '123',
  holderName: 'Amina Bello',
};
const CUSTOMER: CustomerDetails = { email: 'amina@example.com' };
const TOKEN = 'card-payment-token';
const CHALLENGE_URL = `${COMPANION_ORIGIN}/challenge?token=abc`;

type HostCall =
  | ['started', PaymentView, string]
  | ['finished', PaymentView, string, PaymentStatus]
  | ['timedOut', PaymentView]
  | ['checking', PaymentView, string]
  | ['failed', unknown];

function setup() {
  const clock = new FakeClock(3_000);
  const companion = new FakeCompanion({ clock, answers: 'held' });
  const calls: HostCall[] = [];
  const states: CardFlowState[] = [];
  const flow = createCardFlow({
    // The card chunk's own calls, over the fake's POST: the companion's JSON, checked as in the page.
    companion: cardCalls(companion),
    clock,
    // The card frame's POST /card, as the fake companion's initiation (same answers, same errors).
    submitCard: () =>
      companion.initiate('session-token', { channel: 'Card', card: CARD, customer: CUSTOMER }),
    started: (payment, token) => calls.push(['started', payment, token]),
    finished: (payment, token, status) => calls.push(['finished', payment, token, status]),
    timedOut: (payment) => calls.push(['timedOut', payment]),
    checking: (payment, token) => calls.push(['checking', payment, token]),
    failed: (error) => calls.push(['failed', error]),
  });
  // Every state the view would be drawn in, the first included.
  effect(() => {
    states.push(flow.state.value);
  });
  /** Names of the host calls, in order. */
  const called = () => calls.map((call) => call[0]);
  return { clock, companion, calls, called, states, flow };
}

type Setup = ReturnType<typeof setup>;

/** Paid, initiated with a PENDING payment: the authentication check is out. */
async function initiated(s: Setup, payment: PaymentView = cardPayment()): Promise<PaymentView> {
  void s.flow.pay();
  s.companion.lastInitiation().answer.resolve({ token: TOKEN, payment });
  await flush();
  return payment;
}

/** The authentication check asked for a challenge. */
async function inChallenge(s: Setup): Promise<PaymentView> {
  const payment = await initiated(s);
  s.companion.lastAuthentication().answer.resolve(authentication(CHALLENGE_URL));
  await flush();
  expect(s.flow.state.value.kind).toBe('challenge');
  return payment;
}

describe('pay', () => {
  it('initiates a Card payment with the card and the customer, locking the form', async () => {
    const s = setup();
    expect(s.flow.state.value).toEqual({ kind: 'entry', refused: false });
    void s.flow.pay();
    expect(s.flow.state.value).toEqual({ kind: 'busy' });
    expect(s.companion.initiations).toHaveLength(1);
    expect(s.companion.lastInitiation().args).toEqual({
      token: 'session-token',
      request: { channel: 'Card', card: CARD, customer: CUSTOMER },
    });
    expect(s.companion.authentications).toHaveLength(0);
    expect(s.calls).toEqual([]);
  });

  it('tells the host the payment started, then checks authentication with its token', async () => {
    const s = setup();
    const payment = await initiated(s);
    expect(s.calls).toEqual([['started', payment, TOKEN]]);
    expect(s.companion.authentications.map((call) => call.args)).toEqual([TOKEN]);
    expect(s.flow.state.value.kind).toBe('busy');
  });

  it('without a challenge: finalizes, then finished with the status', async () => {
    const s = setup();
    const payment = await initiated(s);
    s.companion.lastAuthentication().answer.resolve(authentication(null));
    await flush();
    expect(s.companion.finalizations.map((call) => call.args)).toEqual([TOKEN]);
    expect(s.flow.state.value.kind).toBe('busy');
    expect(s.called()).toEqual(['started']);

    s.companion.lastFinalization().answer.resolve({ status: 'SUCCESSFUL' });
    await flush();
    expect(s.calls).toEqual([
      ['started', payment, TOKEN],
      ['finished', payment, TOKEN, 'SUCCESSFUL'],
    ]);
    expect(s.states.map((state) => state.kind)).not.toContain('challenge');
    expect(s.clock.pending).toBe(0);
  });

  it.each(['PENDING', 'FAILED'] as const)('hands a finalized %s on as it is', async (status) => {
    const s = setup();
    const payment = await initiated(s);
    s.companion.lastAuthentication().answer.resolve(authentication(null));
    await flush();
    s.companion.lastFinalization().answer.resolve({ status });
    await flush();
    expect(s.calls.at(-1)).toEqual(['finished', payment, TOKEN, status]);
  });

  it.each(['SUCCESSFUL', 'FAILED'] as const)(
    'an initiation already %s is finished at once, without authentication',
    async (status) => {
      const s = setup();
      const payment = await initiated(s, cardPayment({ status }));
      expect(s.calls).toEqual([
        ['started', payment, TOKEN],
        ['finished', payment, TOKEN, status],
      ]);
      expect(s.companion.authentications).toHaveLength(0);
      expect(s.companion.finalizations).toHaveLength(0);
    },
  );

  it('is ignored while busy: a double submit sends one initiation', async () => {
    const s = setup();
    void s.flow.pay();
    void s.flow.pay();
    expect(s.companion.initiations).toHaveLength(1);
    s.companion.lastInitiation().answer.resolve({ token: TOKEN, payment: cardPayment() });
    await flush();
    void s.flow.pay();
    expect(s.companion.initiations).toHaveLength(1);
    expect(s.called()).toEqual(['started']);
  });
});

describe('the challenge', () => {
  it('shows the challenge page with the payment reference, and waits', async () => {
    const s = setup();
    const payment = await inChallenge(s);
    expect(s.flow.state.value).toEqual({
      kind: 'challenge',
      url: CHALLENGE_URL,
      reference: payment.reference,
    });
    expect(s.states.at(-1)).toEqual(s.flow.state.value);
    expect(s.companion.finalizations).toHaveLength(0);
    expect(s.clock.pendingOf('timeout')).toBe(1);
    expect(s.called()).toEqual(['started']);
  });

  it('challengeCompleted() finalizes, then finished; the timer is gone', async () => {
    const s = setup();
    const payment = await inChallenge(s);
    s.flow.challengeCompleted();
    expect(s.flow.state.value.kind).toBe('busy');
    expect(s.companion.finalizations.map((call) => call.args)).toEqual([TOKEN]);
    expect(s.clock.pending).toBe(0);
    s.flow.challengeCompleted();
    expect(s.companion.finalizations).toHaveLength(1);

    s.companion.lastFinalization().answer.resolve({ status: 'SUCCESSFUL' });
    await flush();
    expect(s.calls.at(-1)).toEqual(['finished', payment, TOKEN, 'SUCCESSFUL']);
    await s.clock.advance(CHALLENGE_TIMEOUT_MS * 2);
    expect(s.called()).not.toContain('timedOut');
  });

  it('challengeCompleted() outside a challenge does nothing', async () => {
    const s = setup();
    s.flow.challengeCompleted();
    await initiated(s);
    s.flow.challengeCompleted();
    expect(s.companion.finalizations).toHaveLength(0);
    expect(s.flow.state.value.kind).toBe('busy');
  });

  it('is given up after exactly CHALLENGE_TIMEOUT_MS', async () => {
    expect(CHALLENGE_TIMEOUT_MS).toBe(10 * 60_000);
    const s = setup();
    const payment = await inChallenge(s);
    await s.clock.advance(CHALLENGE_TIMEOUT_MS - 1);
    expect(s.called()).toEqual(['started']);
    await s.clock.advance(1);
    expect(s.calls).toEqual([
      ['started', payment, TOKEN],
      ['timedOut', payment],
    ]);
    expect(s.companion.finalizations).toHaveLength(0);

    s.flow.challengeCompleted();
    void s.flow.pay();
    await s.clock.advance(CHALLENGE_TIMEOUT_MS);
    expect(s.companion.finalizations).toHaveLength(0);
    expect(s.companion.initiations).toHaveLength(1);
    expect(s.called()).toEqual(['started', 'timedOut']);
  });

  it('a finalization after the challenge that keeps failing is sent again, then the payment is checked (issue 9)', async () => {
    const s = setup();
    const payment = await inChallenge(s);
    s.flow.challengeCompleted();
    const error = new CompanionFailure('unavailable', 'Down.');
    s.companion.lastFinalization().answer.reject(error);
    await flush();
    for (const pause of FINALIZE_RETRY_MS) {
      expect(s.called()).toEqual(['started']);
      await s.clock.advance(pause);
      s.companion.lastFinalization().answer.reject(error);
      await flush();
    }
    expect(s.companion.finalizations).toHaveLength(1 + FINALIZE_RETRY_MS.length);
    expect(s.calls.at(-1)).toEqual(['checking', payment, TOKEN]);
    expect(s.called()).not.toContain('finished');
    expect(s.called()).not.toContain('failed');
  });
});

describe('failures', () => {
  it("an 'invalid' refusal of the initiation returns to the form, refused, to correct", async () => {
    const s = setup();
    void s.flow.pay();
    s.companion
      .lastInitiation()
      .answer.reject(new CompanionFailure('invalid', 'The card number is not valid.'));
    await flush();
    expect(s.flow.state.value).toEqual({ kind: 'entry', refused: true });
    expect(s.calls).toEqual([]);

    // The corrected card (the frame holds it) goes through.
    void s.flow.pay();
    expect(s.companion.initiations).toHaveLength(2);
    const payment = cardPayment({ reference: 'PAY-CARD-2' });
    s.companion.lastInitiation().answer.resolve({ token: TOKEN, payment });
    await flush();
    expect(s.calls).toEqual([['started', payment, TOKEN]]);
  });

  it.each([
    ['a network failure', new CompanionFailure('network', 'Offline.')],
    ['a conflict', new CompanionFailure('conflict', 'Already under way.')],
    ['already paid', new CompanionFailure('already_paid', 'Paid.')],
    ['an unexpected error', new TypeError('boom')],
  ])('%s on initiation is failed(error), and the flow is over', async (_, error) => {
    const s = setup();
    void s.flow.pay();
    s.companion.lastInitiation().answer.reject(error);
    await flush();
    expect(s.calls).toEqual([['failed', error]]);
    expect(s.flow.state.value.kind).not.toBe('entry');
    void s.flow.pay();
    expect(s.companion.initiations).toHaveLength(1);
  });

  it("an 'invalid' refusal once the payment exists is failed(error), not a refused form", async () => {
    const s = setup();
    await initiated(s);
    const error = new CompanionFailure('invalid', 'Cannot authenticate.');
    s.companion.lastAuthentication().answer.reject(error);
    await flush();
    expect(s.calls.at(-1)).toEqual(['failed', error]);
    expect(s.flow.state.value).not.toEqual({ kind: 'entry', refused: true });
  });

  it.each([
    ['too slow', new CompanionFailure('timeout', 'Too slow.')],
    ['a lost answer', new CompanionFailure('network', 'Offline.')],
    ['a 5xx', new CompanionFailure('unavailable', 'Down.')],
  ])(
    'finalize %s: the card may be charged, so the payment is checked, never failed (issue 9)',
    async (_, error) => {
      const s = setup();
      const payment = await initiated(s);
      s.companion.lastAuthentication().answer.resolve(authentication(null));
      await flush();
      s.companion.lastFinalization().answer.reject(error);
      await flush();
      // Sent again after each pause (it may never have reached the companion), the form locked.
      for (const pause of FINALIZE_RETRY_MS) {
        expect(s.called()).toEqual(['started']);
        expect(s.flow.state.value).toEqual({ kind: 'busy' });
        const sent = s.companion.finalizations.length;
        await s.clock.advance(pause - 1);
        expect(s.companion.finalizations).toHaveLength(sent);
        await s.clock.advance(1);
        expect(s.companion.finalizations).toHaveLength(sent + 1);
        expect(s.companion.lastFinalization().args).toBe(TOKEN);
        s.companion.lastFinalization().answer.reject(error);
        await flush();
      }
      expect(s.called()).toEqual(['started', 'checking']);
      expect(s.calls.at(-1)).toEqual(['checking', payment, TOKEN]);
      expect(s.companion.finalizations).toHaveLength(1 + FINALIZE_RETRY_MS.length);
      expect(s.clock.pending).toBe(0);
      // Over: a second submit sends nothing.
      void s.flow.pay();
      expect(s.companion.initiations).toHaveLength(1);
    },
  );

  it('finalize sent again after a lost answer: its answer finishes the payment', async () => {
    const s = setup();
    const payment = await initiated(s);
    s.companion.lastAuthentication().answer.resolve(authentication(null));
    await flush();
    s.companion.lastFinalization().answer.reject(new CompanionFailure('network', 'Offline.'));
    await flush();
    await s.clock.advance(FINALIZE_RETRY_MS[0] as number);
    s.companion.lastFinalization().answer.resolve({ status: 'SUCCESSFUL' });
    await flush();
    expect(s.calls.at(-1)).toEqual(['finished', payment, TOKEN, 'SUCCESSFUL']);
    expect(s.companion.finalizations).toHaveLength(2);
  });

  it('an untrustworthy finalize answer is not sent again: the payment is checked', async () => {
    const s = setup();
    const payment = await initiated(s);
    s.companion.lastAuthentication().answer.resolve(authentication(null));
    await flush();
    s.companion.lastFinalization().answer.reject(new CompanionFailure('bad_response', 'Odd.'));
    await flush();
    expect(s.calls.at(-1)).toEqual(['checking', payment, TOKEN]);
    await s.clock.advance(60_000);
    expect(s.companion.finalizations).toHaveLength(1);
  });

  it('closed while waiting to send finalize again: nothing more is sent', async () => {
    const s = setup();
    await initiated(s);
    s.companion.lastAuthentication().answer.resolve(authentication(null));
    await flush();
    s.companion.lastFinalization().answer.reject(new CompanionFailure('timeout', 'Slow.'));
    await flush();
    s.flow.dispose();
    await s.clock.advance(60_000);
    expect(s.companion.finalizations).toHaveLength(1);
    expect(s.called()).toEqual(['started']);
  });

  it.each([
    ['payment_pending', 'PENDING'],
    ['already_paid', 'SUCCESSFUL'],
  ] as const)(
    'initiation refused with %s and an earlier payment: that payment is followed',
    async (code, status) => {
      const s = setup();
      void s.flow.pay();
      const earlier = cardPayment({ reference: 'PAY-CARD-0', status });
      s.companion.lastInitiation().answer.reject(
        new CompanionFailure(code, 'Earlier.', 'req-1', {
          payment: earlier,
          token: 'earlier-token',
        }),
      );
      await flush();
      expect(s.calls).toEqual([['checking', earlier, 'earlier-token']]);
      expect(s.companion.authentications).toHaveLength(0);
    },
  );
});

describe('dispose', () => {
  it('during the challenge: the timer stops and nothing is called afterwards', async () => {
    const s = setup();
    await inChallenge(s);
    const statesBefore = s.states.length;
    s.flow.dispose();
    expect(s.clock.pending).toBe(0);
    await s.clock.advance(CHALLENGE_TIMEOUT_MS * 2);
    s.flow.challengeCompleted();
    void s.flow.pay();
    await flush();
    expect(s.called()).toEqual(['started']);
    expect(s.companion.finalizations).toHaveLength(0);
    expect(s.companion.initiations).toHaveLength(1);
    expect(s.states).toHaveLength(statesBefore);
  });

  it('while initiating: the answer reaches no one', async () => {
    const s = setup();
    void s.flow.pay();
    s.flow.dispose();
    s.companion.lastInitiation().answer.resolve({ token: TOKEN, payment: cardPayment() });
    await flush();
    expect(s.calls).toEqual([]);
    expect(s.companion.authentications).toHaveLength(0);
  });

  it('while initiating: a refusal reaches no one, and the form does not come back', async () => {
    const s = setup();
    void s.flow.pay();
    s.flow.dispose();
    s.companion.lastInitiation().answer.reject(new CompanionFailure('invalid', 'Bad card.'));
    await flush();
    expect(s.calls).toEqual([]);
    expect(s.flow.state.value).toEqual({ kind: 'busy' });
  });

  it('while checking authentication: a challenge answer starts no timer', async () => {
    const s = setup();
    await initiated(s);
    s.flow.dispose();
    s.companion.lastAuthentication().answer.resolve(authentication(CHALLENGE_URL));
    await flush();
    expect(s.flow.state.value.kind).toBe('busy');
    expect(s.clock.pending).toBe(0);
    expect(s.called()).toEqual(['started']);
  });

  it('while finalizing: the answer reaches no one', async () => {
    const s = setup();
    await inChallenge(s);
    s.flow.challengeCompleted();
    s.flow.dispose();
    s.companion.lastFinalization().answer.resolve({ status: 'SUCCESSFUL' });
    await flush();
    expect(s.called()).toEqual(['started']);
  });
});
