/**
 * Hand-written fakes for the checkout model's ports: a companion whose every answer the test
 * hands out (or refuses) when it chooses, and a clock that only moves when told. No DOM, no
 * network, no real timers.
 */
import { effect, untracked } from '@preact/signals';
import {
  type CheckoutModel,
  type CheckoutModelOptions,
  type CheckoutStep,
  createCheckoutModel,
} from '../../../src/flow/checkout-model';
import type {
  CompanionPort,
  InitiateRequest,
  PaymentStatus,
  PaymentView,
  SessionView,
  StatusAnswer,
} from '../../../src/flow/companion';
import { FakeClock, flush } from '../../helpers/fake-clock';

// ---------------------------------------------------------------------------------------------
// Promises the test settles
// ---------------------------------------------------------------------------------------------

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  readonly settled: boolean;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return {
    promise,
    resolve(value) {
      settled = true;
      resolve(value);
    },
    reject(error) {
      settled = true;
      reject(error);
    },
    get settled() {
      return settled;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The companion
// ---------------------------------------------------------------------------------------------

export type { StatusAnswer };
export type AuthenticationAnswer = { challengeUrl: string | null };
export type FinalizationAnswer = { status: PaymentStatus };
type Target = { order: string } | { link: string };

export interface Call<A, T> {
  readonly args: A;
  /** Monotonic time of the call, when the fake was given a clock. */
  readonly at: number;
  readonly answer: Deferred<T>;
}

export interface Watcher {
  readonly token: string;
  readonly onStatus: (status: PaymentStatus, answer?: StatusAnswer) => void;
  unsubscribed: boolean;
}

/**
 * Every call is recorded with a deferred answer the test settles. `autoStatus`, when set, makes
 * status calls answer at once (an Error rejects them), so polling can run through fake time.
 */
export class FakeCompanion implements CompanionPort {
  readonly sessions: Call<Target, SessionView>[] = [];
  readonly initiations: Call<
    { token: string; request: InitiateRequest },
    {
      token: string;
      payment: PaymentView;
    }
  >[] = [];
  readonly statuses: Call<string, StatusAnswer>[] = [];
  /** Card: authentication checks, by payment token. */
  readonly authentications: Call<string, AuthenticationAnswer>[] = [];
  /** Card: finalizations, by payment token. */
  readonly finalizations: Call<string, FinalizationAnswer>[] = [];
  readonly watchers: Watcher[] = [];
  autoStatus: StatusAnswer | Error | null = null;

  constructor(private readonly clock?: FakeClock) {}

  startSession(target: Target): Promise<SessionView> {
    return this.record(this.sessions, target);
  }

  initiate(token: string, request: InitiateRequest) {
    return this.record(this.initiations, { token, request });
  }

  authenticate(token: string): Promise<AuthenticationAnswer> {
    return this.record(this.authentications, token);
  }

  finalize(token: string): Promise<FinalizationAnswer> {
    return this.record(this.finalizations, token);
  }

  status(token: string): Promise<StatusAnswer> {
    const promise = this.record(this.statuses, token);
    const auto = this.autoStatus;
    const call = this.statuses.at(-1);
    if (!call || auto === null) return promise;
    if (auto instanceof Error) call.answer.reject(auto);
    else call.answer.resolve({ status: auto.status, serverTime: auto.serverTime });
    return promise;
  }

  watch(
    token: string,
    onStatus: (status: PaymentStatus, answer?: StatusAnswer) => void,
  ): () => void {
    const watcher: Watcher = { token, onStatus, unsubscribed: false };
    this.watchers.push(watcher);
    return () => {
      watcher.unsubscribed = true;
    };
  }

  /** Watchers still subscribed. */
  get active(): Watcher[] {
    return this.watchers.filter((watcher) => !watcher.unsubscribed);
  }

  /**
   * Pushes a status to every watcher ever handed out, like a stream whose unsubscribe was
   * ignored: the model must not act on pushes once it has stopped watching.
   */
  pushToAll(status: PaymentStatus): void {
    for (const watcher of this.watchers) watcher.onStatus(status);
  }

  /** Pushes a status to the subscribed watchers, as the server-sent events would. */
  push(status: PaymentStatus): void {
    for (const watcher of this.active) watcher.onStatus(status);
  }

  lastSession(): Call<Target, SessionView> {
    return last(this.sessions, 'startSession');
  }

  lastInitiation() {
    return last(this.initiations, 'initiate');
  }

  lastStatus(): Call<string, StatusAnswer> {
    return last(this.statuses, 'status');
  }

  lastAuthentication(): Call<string, AuthenticationAnswer> {
    return last(this.authentications, 'authenticate');
  }

  lastFinalization(): Call<string, FinalizationAnswer> {
    return last(this.finalizations, 'finalize');
  }

  private record<A, T>(calls: Call<A, T>[], args: A): Promise<T> {
    const answer = deferred<T>();
    calls.push({ args, at: this.clock?.monotonic() ?? 0, answer });
    return answer.promise;
  }
}

function last<T>(calls: readonly T[], name: string): T {
  const call = calls.at(-1);
  if (!call) throw new Error(`${name} was never called.`);
  return call;
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** The server's clock when the first answer is written: a fixed instant, far from any test's. */
export const SERVER_T0 = Date.parse('2031-05-04T10:00:00.000Z');
export const THIRTY_MINUTES = 30 * 60_000;

/** A status answer that is still pending, without the server's time. */
export const PENDING = { status: 'PENDING', serverTime: null } as const;

export function paymentView(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    reference: 'PAY-0001',
    channel: 'PayByTransfer',
    status: 'PENDING',
    amount: { amountMinor: 250_050, currency: 'NGN' },
    fees: { amountMinor: 0, currency: 'NGN' },
    virtualAccount: {
      bank: 'Sandbox Bank',
      accountNumber: '0123456789',
      accountName: 'Paydrop / Shop',
      note: 'Transfer the exact amount.',
      expiresAt: SERVER_T0 + THIRTY_MINUTES,
    },
    bankAuthUrl: null,
    serverTime: SERVER_T0,
    ...overrides,
  };
}

/** A PayByAccount payment: a link to the bank, no account to pay into. */
export function bankPayment(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView({
    reference: 'PAY-BANK-1',
    channel: 'PayByAccount',
    virtualAccount: null,
    bankAuthUrl: 'https://bank.example/authorize?request=abc',
    ...overrides,
  });
}

/** A card payment as initiation returns it. */
export function cardPayment(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView({
    reference: 'PAY-CARD-1',
    channel: 'Card',
    virtualAccount: null,
    bankAuthUrl: null,
    ...overrides,
  });
}

export function sessionView(overrides: Partial<SessionView> = {}): SessionView {
  return {
    token: 'session-token',
    amount: { amountMinor: 250_050, currency: 'NGN' },
    description: 'Order 42',
    channels: [{ name: 'PayByTransfer', description: 'Bank transfer' }],
    payment: null,
    ...overrides,
  };
}

// ---------------------------------------------------------------------------------------------
// A model wired to the fakes
// ---------------------------------------------------------------------------------------------

export interface HarnessOptions extends Partial<Omit<CheckoutModelOptions, 'companion' | 'clock'>> {
  /** Where monotonic time starts; deliberately not 0. */
  readonly startAt?: number;
}

export function harness(options: HarnessOptions = {}) {
  const { startAt = 7_000, ...rest } = options;
  const clock = new FakeClock(startAt);
  const companion = new FakeCompanion(clock);
  const steps: CheckoutStep[] = [];
  const model = createCheckoutModel({
    companion,
    clock,
    target: { order: 'order-42' },
    supportedChannels: ['PayByTransfer'],
    onStep: (step) => steps.push(step),
    ...rest,
  });
  return { clock, companion, model, steps };
}

export type Harness = ReturnType<typeof harness>;

export const PAYMENT_TOKEN = 'payment-token';

/** Start, one channel, initiated: the customer looks at the account to pay into. */
export async function inTransfer(h: Harness, payment: PaymentView = paymentView()): Promise<void> {
  void h.model.start();
  h.companion.lastSession().answer.resolve(sessionView());
  await flush();
  h.companion.lastInitiation().answer.resolve({ token: PAYMENT_TOKEN, payment });
  await flush();
  if (!(h.model.step.value.kind === 'paying' && h.model.step.value.channel === 'PayByTransfer')) {
    throw new Error(`Expected the transfer step, got ${h.model.step.value.kind}.`);
  }
}

/** Calls `listener` now and after every change of anything the model shows (one call per batch). */
export function onAnyChange(model: CheckoutModel, listener: () => void): () => void {
  return effect(() => {
    void [
      model.step.value,
      model.session.value,
      model.outcome.value,
      model.milestone.value,
      model.secondsLeft.value,
      model.paymentUnderWay.value,
    ];
    untracked(listener);
  });
}
