/**
 * Hand-written fakes of the model's ports: a companion whose answers each test sets (or holds back)
 * (the clock is test/helpers/fake-clock.ts). Plus builders for the companion's answers, and a popup
 * window for the bank's.
 */
import {
  type ChannelChoice,
  CompanionFailure,
  type HttpCompanion,
  type InitiateRequest,
  type PaymentStatus,
  type PaymentView,
  type SessionView,
  type StatusAnswer,
  type VirtualAccountView,
} from '../../src/flow/companion';
import type { Channel } from '../../src/protocol';

type Pushed = (status: PaymentStatus, answer?: StatusAnswer) => void;

/** Server time of every fake answer: an arbitrary instant. */
export const SERVER_NOW = Date.parse('2025-03-01T10:00:00Z');
export const THIRTY_MINUTES = 30 * 60_000;

export function virtualAccount(overrides: Partial<VirtualAccountView> = {}): VirtualAccountView {
  return {
    bank: 'Wema Bank',
    accountNumber: '0123456789',
    accountName: 'Paydrop / Amina Stores',
    note: 'Pay exactly the amount shown',
    expiresAt: SERVER_NOW + THIRTY_MINUTES,
    ...overrides,
  };
}

export function paymentView(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    reference: 'ref_0001',
    channel: 'PayByTransfer',
    status: 'PENDING',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    fees: { amountMinor: 0, currency: 'NGN' },
    virtualAccount: virtualAccount(),
    bankAuthUrl: null,
    serverTime: SERVER_NOW,
    ...overrides,
  };
}

export function sessionView(overrides: Partial<SessionView> = {}): SessionView {
  return {
    token: 'session-token',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    description: 'Order 1042 — Amina Stores',
    channels: [{ name: 'PayByTransfer', description: null }],
    payment: null,
    ...overrides,
  };
}

export function channels(...names: Channel[]): ChannelChoice[] {
  return names.map((name) => ({ name, description: null }));
}

/** A promise the test resolves or rejects when it chooses. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

type Initiation = { token: string; payment: PaymentView };

/** The companion's origin as the fake reports it: challenge pages must come from here. */
export const COMPANION_ORIGIN = 'https://shop.example';

/**
 * The companion as the widget sees it (the model's port, plus the bare POST the card chunk makes
 * its own calls with): answers are set per test, every call is recorded. The methods are arrow
 * functions because the card step passes `initiate` on detached from this object.
 */
export class FakeCompanion implements HttpCompanion {
  readonly origin = COMPANION_ORIGIN;
  readonly base = `${COMPANION_ORIGIN}/api/checkout`;
  readonly sessionCalls: Array<{ order: string } | { link: string }> = [];
  readonly initiateCalls: Array<{ token: string } & InitiateRequest> = [];
  readonly statusCalls: string[] = [];
  /** Tokens the card chunk sent to /authenticate and /finalize. */
  readonly authenticateCalls: string[] = [];
  readonly finalizeCalls: string[] = [];
  private watchers = new Set<Pushed>();

  answerSession: () => Promise<SessionView> = async () => sessionView();
  answerInitiate: (channel: Channel) => Promise<Initiation> = async (channel) => ({
    token: 'payment-token',
    payment: paymentView({ channel }),
  });
  answerStatus: () => Promise<{ status: PaymentStatus; serverTime: number | null }> = async () => ({
    status: 'PENDING',
    serverTime: null,
  });
  /** The companion's JSON for POST /authenticate, as it is on the wire. */
  answerAuthenticate: () => Promise<unknown> = async () => ({
    authenticationRequired: false,
    challengeUrl: null,
  });
  /** The companion's JSON for POST /finalize. */
  answerFinalize: () => Promise<unknown> = async () => ({ status: 'SUCCESSFUL' });

  startSession = (target: { order: string } | { link: string }): Promise<SessionView> => {
    this.sessionCalls.push(target);
    return this.answerSession();
  };

  initiate = (token: string, request: InitiateRequest): Promise<Initiation> => {
    this.initiateCalls.push({ token, ...request });
    return this.answerInitiate(request.channel);
  };

  post = (path: string, token: string): Promise<unknown> => {
    if (path === '/authenticate') {
      this.authenticateCalls.push(token);
      return this.answerAuthenticate();
    }
    if (path === '/finalize') {
      this.finalizeCalls.push(token);
      return this.answerFinalize();
    }
    return Promise.reject(new CompanionFailure('internal', `No such companion path: ${path}`));
  };

  status = (token: string): Promise<{ status: PaymentStatus; serverTime: number | null }> => {
    this.statusCalls.push(token);
    return this.answerStatus();
  };

  watch = (_token: string, onStatus: Pushed): (() => void) => {
    this.watchers.add(onStatus);
    return () => this.watchers.delete(onStatus);
  };

  /** The webhook arrived: the companion pushes the status (and why it failed) to every watch. */
  push(status: PaymentStatus, answer?: StatusAnswer): void {
    for (const onStatus of [...this.watchers]) onStatus(status, answer);
  }

  get watching(): number {
    return this.watchers.size;
  }
}

/**
 * The bank's window as window.open returns it: records where it was sent and what its opener was
 * at that moment; a test closes it as the customer would.
 */
export class FakePopup {
  closed = false;
  opener: unknown = globalThis;
  focused = 0;
  readonly navigations: Array<{ url: string; opener: unknown }> = [];
  readonly location = {
    replace: (url: string) => {
      this.navigations.push({ url, opener: this.opener });
    },
  };
  focus(): void {
    this.focused++;
  }
  close(): void {
    this.closed = true;
  }
  /** As window.open's answer. */
  asWindow(): Window {
    return this as unknown as Window;
  }
}
