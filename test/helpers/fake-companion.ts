/**
 * The one fake companion of the widget's tests: the companion as the widget sees it (the model's
 * port, plus the bare POST the card chunk makes its own calls with). Every call is recorded with
 * its arguments, its time and a deferred answer. A test either settles that answer itself, when
 * it chooses (`lastInitiation().answer.resolve(...)`), or sets a canned answer for the call
 * (`answerInitiate = ...`), from which every such call is settled at once. The answers'
 * builders are beside it (fake-companion-answers.ts); the clock is fake-clock.ts.
 */
import {
  CompanionFailure,
  type HttpCompanion,
  type InitiateRequest,
  type PaymentStatus,
  type PaymentView,
  type SessionView,
  type StatusAnswer,
} from '../../src/flow/companion';
import { type Deferred, deferred } from './deferred';
import type { FakeClock } from './fake-clock';
import { PENDING, paymentView, sessionView } from './fake-companion-answers';

/** The companion's origin as the fake reports it: challenge pages must come from here. */
export const COMPANION_ORIGIN = 'https://shop.example';

type Target = { order: string } | { link: string };
export type Initiation = { token: string; payment: PaymentView };

export interface Call<A, T> {
  readonly args: A;
  /** Monotonic time of the call, when the fake was given a clock; 0 without one. */
  readonly at: number;
  readonly answer: Deferred<T>;
}

/**
 * A canned answer: the value (or a thrown error) settles the call at once; a promise settles it
 * when it does. `null`: the call waits for the test to settle it.
 */
export type Canned<A, T> = ((args: A) => T | Promise<T>) | null;

export interface Watcher {
  readonly token: string;
  readonly onStatus: (status: PaymentStatus, answer?: StatusAnswer) => void;
  unsubscribed: boolean;
}

export interface FakeCompanionOptions {
  /** Gives each call its time (`Call.at`). */
  readonly clock?: FakeClock;
  /**
   * `canned` (the default): every call is answered at once with an ordinary answer (a pending
   * transfer, no challenge, finalized SUCCESSFUL) that a test replaces where its case differs.
   * `held`: no canned answers; every call waits until the test settles it.
   */
  readonly answers?: 'canned' | 'held';
}

/**
 * The methods are arrow functions because the card step passes `initiate` on detached from this
 * object.
 */
export class FakeCompanion implements HttpCompanion {
  readonly origin = COMPANION_ORIGIN;
  readonly base = `${COMPANION_ORIGIN}/api/checkout`;

  readonly sessions: Call<Target, SessionView>[] = [];
  readonly initiations: Call<{ token: string; request: InitiateRequest }, Initiation>[] = [];
  readonly statuses: Call<string, StatusAnswer>[] = [];
  /** Card: POST /authenticate, by payment token; the answer is the companion's JSON. */
  readonly authentications: Call<string, unknown>[] = [];
  /** Card: POST /finalize, by payment token; the answer is the companion's JSON. */
  readonly finalizations: Call<string, unknown>[] = [];
  /** Every watch ever handed out, unsubscribed ones included. */
  readonly watchers: Watcher[] = [];

  answerSession: Canned<Target, SessionView>;
  answerInitiate: Canned<{ token: string; request: InitiateRequest }, Initiation>;
  answerStatus: Canned<string, StatusAnswer>;
  answerAuthenticate: Canned<string, unknown>;
  answerFinalize: Canned<string, unknown>;

  private readonly clock: FakeClock | undefined;

  constructor(options: FakeCompanionOptions = {}) {
    this.clock = options.clock;
    const canned = (options.answers ?? 'canned') === 'canned';
    this.answerSession = canned ? () => sessionView() : null;
    this.answerInitiate = canned
      ? ({ request }) => ({
          token: 'payment-token',
          payment: paymentView({ channel: request.channel }),
        })
      : null;
    this.answerStatus = canned ? () => ({ ...PENDING }) : null;
    this.answerAuthenticate = canned
      ? () => ({ authenticationRequired: false, challengeUrl: null })
      : null;
    this.answerFinalize = canned ? () => ({ status: 'SUCCESSFUL' }) : null;
  }

  startSession = (target: Target): Promise<SessionView> =>
    this.record(this.sessions, target, this.answerSession);

  initiate = (token: string, request: InitiateRequest): Promise<Initiation> =>
    this.record(this.initiations, { token, request }, this.answerInitiate);

  status = (token: string): Promise<StatusAnswer> =>
    this.record(this.statuses, token, this.answerStatus);

  post = (path: string, token: string): Promise<unknown> => {
    if (path === '/authenticate') {
      return this.record(this.authentications, token, this.answerAuthenticate);
    }
    if (path === '/finalize') return this.record(this.finalizations, token, this.answerFinalize);
    return Promise.reject(new CompanionFailure('internal', `No such companion path: ${path}`));
  };

  watch = (
    token: string,
    onStatus: (status: PaymentStatus, answer?: StatusAnswer) => void,
  ): (() => void) => {
    const watcher: Watcher = { token, onStatus, unsubscribed: false };
    this.watchers.push(watcher);
    return () => {
      watcher.unsubscribed = true;
    };
  };

  /** Watchers still subscribed. */
  get active(): Watcher[] {
    return this.watchers.filter((watcher) => !watcher.unsubscribed);
  }

  /** The webhook arrived: the companion pushes the status (and why it failed) to every watch. */
  push(status: PaymentStatus, answer?: StatusAnswer): void {
    for (const watcher of this.active) watcher.onStatus(status, answer);
  }

  /**
   * Pushes a status to every watcher ever handed out, like a stream whose unsubscribe was
   * ignored: the model must not act on pushes once it has stopped watching.
   */
  pushToAll(status: PaymentStatus, answer?: StatusAnswer): void {
    for (const watcher of this.watchers) watcher.onStatus(status, answer);
  }

  lastSession(): Call<Target, SessionView> {
    return last(this.sessions, 'startSession');
  }

  lastInitiation(): Call<{ token: string; request: InitiateRequest }, Initiation> {
    return last(this.initiations, 'initiate');
  }

  lastStatus(): Call<string, StatusAnswer> {
    return last(this.statuses, 'status');
  }

  lastAuthentication(): Call<string, unknown> {
    return last(this.authentications, 'authenticate');
  }

  lastFinalization(): Call<string, unknown> {
    return last(this.finalizations, 'finalize');
  }

  private record<A, T>(calls: Call<A, T>[], args: A, canned: Canned<A, T>): Promise<T> {
    const answer = deferred<T>();
    calls.push({ args, at: this.clock?.monotonic() ?? 0, answer });
    if (canned) {
      try {
        const given = canned(args);
        if (given instanceof Promise) given.then(answer.resolve, answer.reject);
        else answer.resolve(given);
      } catch (error) {
        answer.reject(error);
      }
    }
    return answer.promise;
  }
}

/** The arguments of every call, in order. */
export function argsOf<A>(calls: readonly Call<A, unknown>[]): A[] {
  return calls.map((call) => call.args);
}

function last<T>(calls: readonly T[], name: string): T {
  const call = calls.at(-1);
  if (!call) throw new Error(`${name} was never called.`);
  return call;
}
