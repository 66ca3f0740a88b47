/**
 * The checkout as a model of signals and actions, with no DOM and no fetch: the widget renders
 * `step` and calls the actions; tests drive it with fake ports in Node. One union-typed `step`
 * says where the customer is; everything else is derived from it.
 */

import { batch, computed, type ReadonlySignal, signal } from '@preact/signals';
import type { Channel, Money } from '../protocol';
import type { Clock } from './clock';
import {
  type ChannelChoice,
  CompanionFailure,
  type CompanionFailureCode,
  type CompanionPort,
  type CustomerDetails,
  type PaymentStatus,
  type PaymentView,
} from './companion';

/** What the merchant's page learns when the checkout ends. */
export type CheckoutResult =
  | { readonly status: 'succeeded'; readonly payment: PaymentSummary }
  | {
      readonly status: 'failed';
      readonly error: CheckoutFailure;
      readonly payment: PaymentSummary | null;
    }
  | { readonly status: 'pending'; readonly payment: PaymentSummary }
  | { readonly status: 'cancelled' };

export interface PaymentSummary {
  readonly reference: string;
  readonly channel: Channel;
  readonly amount: Money;
}

/**
 * Stable codes a merchant can branch on. Named apart from the companion's `CheckoutError` class
 * and its `CheckoutErrorCode` (paydrop/server): one name per idea across the public entries.
 */
export type CheckoutFailureCode =
  | 'payment_failed'
  | 'expired'
  | 'challenge_timeout'
  | 'no_channels'
  | CompanionFailureCode;

/** Why a checkout failed, as the merchant's `onFailure` and `result` receive it. */
export interface CheckoutFailure {
  readonly code: CheckoutFailureCode;
  readonly message: string;
}

export type TransferPhase = 'awaiting' | 'confirming';

/** Why a payment failed: the provider said so, or the card's challenge was abandoned. */
export type FailureCode = 'payment_failed' | 'challenge_timeout';

/**
 * PayByAccount: `ready` has the bank link but no bank window (the customer continues with a
 * click); `opened` while the bank's window is up; `closed` when it closed with nothing decided;
 * `processing` once the bank sent the customer back and the payment is being confirmed.
 */
export type BankPhase = 'ready' | 'opened' | 'closed' | 'processing';

export type CheckoutStep =
  | { readonly kind: 'loading' }
  | { readonly kind: 'choosing'; readonly channels: readonly ChannelChoice[] }
  | { readonly kind: 'starting'; readonly channel: Channel }
  | { readonly kind: 'transfer'; readonly payment: PaymentView; readonly phase: TransferPhase }
  | { readonly kind: 'bank'; readonly payment: PaymentView; readonly phase: BankPhase }
  /** The card chunk is in charge; `payment` once the card was submitted and initiated. */
  | { readonly kind: 'card'; readonly payment: PaymentView | null }
  /** Waiting for the provider's final word (a card once finalized). */
  | { readonly kind: 'processing'; readonly payment: PaymentView }
  | { readonly kind: 'succeeded'; readonly payment: PaymentView }
  | {
      readonly kind: 'failed';
      readonly payment: PaymentView;
      readonly code: FailureCode;
    }
  | { readonly kind: 'expired'; readonly payment: PaymentView }
  | {
      readonly kind: 'error';
      readonly code: CheckoutFailureCode;
      readonly message: string;
      /** What "try again" repeats. */
      readonly retry: 'session' | 'initiate';
    };

/** Milestones of the countdown worth announcing to a screen reader, in minutes left. */
const MILESTONES = [10, 5, 1] as const;

/** Steps where a payment is under way and its outcome is awaited. */
const LIVE: readonly string[] = ['transfer', 'bank', 'processing'];

/** Status checks: every 2 s for the first minute, then every 10 s (DESIGN.md). */
export function pollDelayMs(sinceStartMs: number): number {
  return sinceStartMs < 60_000 ? 2000 : 10_000;
}

export interface CheckoutModelOptions {
  readonly companion: CompanionPort;
  readonly clock: Clock;
  readonly target: { readonly order: string } | { readonly link: string };
  readonly customer?: CustomerDetails | undefined;
  /** Channels this build of the widget can take the customer through. */
  readonly supportedChannels: readonly Channel[];
  /** Every step change, for the merchant's onEvent. */
  readonly onStep?: ((step: CheckoutStep) => void) | undefined;
  /** The merchant page a full-page bank redirect comes back to. */
  readonly returnTo?: string | undefined;
  /** A bank payment this page was sent back to after a full-page redirect: pick it up. */
  readonly resumed?: { readonly token: string; readonly payment: PaymentView } | undefined;
}

type LiveStep = Extract<CheckoutStep, { kind: 'transfer' | 'bank' | 'processing' }>;

function isLive(step: CheckoutStep): step is LiveStep {
  return LIVE.includes(step.kind);
}

function summary(payment: PaymentView): PaymentSummary {
  return { reference: payment.reference, channel: payment.channel, amount: payment.amount };
}

export function createCheckoutModel(options: CheckoutModelOptions) {
  const { companion, clock } = options;
  const step = signal<CheckoutStep>({ kind: 'loading' });
  const session = signal<{
    token: string;
    amount: Money;
    description: string;
    channels: readonly ChannelChoice[];
  } | null>(null);
  const outcome = signal<CheckoutResult | null>(null);
  /** Server time minus monotonic time: serverNow = monotonic() + serverOffset. */
  const serverOffset = signal<number | null>(null);
  const tick = signal(0);
  const milestone = signal<number | null>(null);

  let paymentToken: string | null = null;
  let watching: (() => void) | null = null;
  let pollTimer: unknown = null;
  let tickTimer: unknown = null;
  let pollStartedAt = 0;
  let disposed = false;
  let generation = 0;

  function go(next: CheckoutStep): void {
    if (disposed) return;
    batch(() => {
      // A countdown warning belongs to the step it was made in.
      milestone.value = null;
      step.value = next;
    });
    options.onStep?.(next);
  }

  function failWith(error: unknown, retry: 'session' | 'initiate'): void {
    const failure =
      error instanceof CompanionFailure
        ? error
        : new CompanionFailure('internal', error instanceof Error ? error.message : String(error));
    go({ kind: 'error', code: failure.code, message: failure.message, retry });
  }

  function anchorServerTime(serverTime: number): void {
    serverOffset.value = serverTime - clock.monotonic();
  }

  /** Milliseconds until the virtual account expires, on the server's clock; null when none. */
  const msLeft = computed(() => {
    void tick.value;
    const current = step.value;
    if (
      current.kind !== 'transfer' ||
      !current.payment.virtualAccount ||
      serverOffset.value === null
    )
      return null;
    return Math.max(
      0,
      current.payment.virtualAccount.expiresAt - (clock.monotonic() + serverOffset.value),
    );
  });

  /** True once the account's expiry has passed on the server's clock. */
  function accountExpired(payment: PaymentView): boolean {
    const account = payment.virtualAccount;
    const offset = serverOffset.peek();
    return account !== null && offset !== null && clock.monotonic() + offset >= account.expiresAt;
  }

  const secondsLeft = computed(() =>
    msLeft.value === null ? null : Math.ceil(msLeft.value / 1000),
  );

  function stopWatching(): void {
    watching?.();
    watching = null;
    if (pollTimer !== null) clock.clearTimeout(pollTimer);
    pollTimer = null;
    if (tickTimer !== null) clock.clearInterval(tickTimer);
    tickTimer = null;
  }

  function settle(status: PaymentStatus, why: FailureCode = 'payment_failed'): void {
    const current = step.value;
    if (disposed || !isLive(current) || status === 'PENDING') return;
    stopWatching();
    const payment = { ...current.payment, status };
    batch(() => {
      if (status === 'FAILED' && accountExpired(current.payment)) {
        // The provider fails an account nobody paid into in time: say so, and offer a new one.
        outcome.value = {
          status: 'failed',
          error: { code: 'expired', message: 'The account expired unpaid.' },
          payment: summary(payment),
        };
        go({ kind: 'expired', payment });
        milestone.value = 0;
      } else if (status === 'SUCCESSFUL') {
        outcome.value = { status: 'succeeded', payment: summary(payment) };
        go({ kind: 'succeeded', payment });
      } else {
        outcome.value = {
          status: 'failed',
          error: { code: why, message: 'The payment did not go through.' },
          payment: summary(payment),
        };
        go({ kind: 'failed', payment, code: why });
      }
    });
  }

  async function checkStatus(): Promise<void> {
    if (disposed || !paymentToken) return;
    const mine = generation;
    try {
      const answer = await companion.status(paymentToken);
      if (mine !== generation) return;
      if (answer.serverTime !== null) anchorServerTime(answer.serverTime);
      settle(answer.status);
    } catch {
      // A failed check is not an outcome; the next one, or the push, will tell.
    }
  }

  function schedulePoll(): void {
    if (disposed || !isLive(step.value)) return;
    const mine = generation;
    const delay = pollDelayMs(clock.monotonic() - pollStartedAt);
    pollTimer = clock.setTimeout(async () => {
      pollTimer = null;
      await checkStatus();
      // A newer payment (a fresh account) runs its own loop; this one ends here.
      if (mine === generation) schedulePoll();
    }, delay);
  }

  let previousLeft: number | null = null;

  function onTick(): void {
    tick.value++;
    const left = msLeft.value;
    if (left === null) return;
    for (const mark of MILESTONES) {
      const edge = mark * 60_000;
      if (previousLeft !== null && previousLeft > edge && left <= edge) milestone.value = mark;
    }
    previousLeft = left;
    if (left === 0) void expire();
  }

  /** The account's time is up: one last look, in case the money arrived at the last second. */
  let expiring = false;
  async function expire(): Promise<void> {
    const current = step.value;
    if (current.kind !== 'transfer' || expiring) return;
    expiring = true;
    await checkStatus().finally(() => {
      expiring = false;
    });
    const after = step.value;
    if (disposed || after.kind !== 'transfer') return;
    stopWatching();
    go({ kind: 'expired', payment: after.payment });
    milestone.value = 0;
  }

  /** Push first, polling as the fallback, until the outcome. */
  function watch(token: string): void {
    stopWatching();
    watching = companion.watch(token, settle);
    pollStartedAt = clock.monotonic();
    schedulePoll();
  }

  function showPayment(payment: PaymentView, token: string, bankPhase: BankPhase = 'ready'): void {
    if (disposed) return;
    paymentToken = token;
    generation++;
    anchorServerTime(payment.serverTime);
    const first: LiveStep =
      payment.channel === 'PayByTransfer'
        ? { kind: 'transfer', payment, phase: 'awaiting' }
        : payment.channel === 'PayByAccount'
          ? { kind: 'bank', payment, phase: bankPhase }
          : { kind: 'processing', payment };
    if (payment.status !== 'PENDING') {
      go(first);
      settle(payment.status);
      return;
    }
    milestone.value = null;
    previousLeft = null;
    go(first);
    watch(token);
    if (first.kind === 'transfer') tickTimer = clock.setInterval(onTick, 1000);
    else if (bankPhase === 'processing') void checkStatus();
  }

  async function initiate(channel: Channel): Promise<void> {
    const current = session.value;
    if (!current) return;
    if (channel === 'Card') {
      // A card payment starts when the customer submits the card (the card chunk's flow).
      stopWatching();
      generation++;
      go({ kind: 'card', payment: null });
      return;
    }
    go({ kind: 'starting', channel });
    try {
      const { token, payment } = await companion.initiate(current.token, {
        channel,
        customer: options.customer,
        ...(channel === 'PayByAccount' && options.returnTo ? { returnTo: options.returnTo } : {}),
      });
      showPayment(payment, token);
    } catch (error) {
      if (!disposed) failWith(error, 'initiate');
    }
  }

  let lastChannel: Channel | null = null;

  async function start(): Promise<void> {
    go({ kind: 'loading' });
    try {
      const answer = await companion.startSession(options.target);
      if (disposed) return;
      const channels = answer.channels.filter((channel) =>
        options.supportedChannels.includes(channel.name),
      );
      session.value = {
        token: answer.token,
        amount: answer.amount,
        description: answer.description,
        channels,
      };
      if (options.resumed) {
        // Back from the bank after a full-page redirect: confirm where that payment stands.
        lastChannel = 'PayByAccount';
        showPayment(options.resumed.payment, options.resumed.token, 'processing');
        return;
      }
      if (answer.payment) {
        // The same order again: the payment already under way (or already paid) comes back.
        lastChannel = answer.payment.channel;
        showPayment(answer.payment, answer.token);
        return;
      }
      if (channels.length === 0) {
        go({
          kind: 'error',
          code: 'no_channels',
          message: 'No payment method is available for this order.',
          retry: 'session',
        });
      } else if (channels.length === 1 && channels[0]) {
        lastChannel = channels[0].name;
        await initiate(channels[0].name);
      } else {
        go({ kind: 'choosing', channels });
      }
    } catch (error) {
      if (!disposed) failWith(error, 'session');
    }
  }

  return {
    step: step as ReadonlySignal<CheckoutStep>,
    session: session as ReadonlySignal<typeof session.value>,
    outcome: outcome as ReadonlySignal<CheckoutResult | null>,
    secondsLeft,
    /** The last countdown milestone reached (minutes left; 0 at expiry), for the live region. */
    milestone: milestone as ReadonlySignal<number | null>,
    /** True while closing would leave a payment half-done. */
    paymentUnderWay: computed(() => {
      const current = step.value;
      return (
        isLive(current) ||
        current.kind === 'starting' ||
        (current.kind === 'card' && !!current.payment)
      );
    }),

    start,

    /** The token of the payment under way, for picking it up after a full-page redirect. */
    paymentToken: () => paymentToken,

    choose(channel: Channel): void {
      if (step.value.kind !== 'choosing') return;
      lastChannel = channel;
      void initiate(channel);
    },

    /** "I've sent the money": confirming, never success, until the provider says so. */
    sentMoney(): void {
      const current = step.value;
      if (current.kind !== 'transfer' || current.phase !== 'awaiting') return;
      go({ ...current, phase: 'confirming' });
      void checkStatus();
    },

    /** The card chunk initiated a card payment: it is under way, and closing must say so. */
    cardStarted(payment: PaymentView, token: string): void {
      if (step.value.kind !== 'card') return;
      paymentToken = token;
      anchorServerTime(payment.serverTime);
      go({ kind: 'card', payment });
    },

    /** The card is finalized: follow the payment to its outcome. */
    track(payment: PaymentView, token: string, status: PaymentStatus): void {
      if (step.value.kind !== 'card') return;
      showPayment({ ...payment, status }, token);
    },

    /** The card's challenge was abandoned until it timed out. */
    cardTimedOut(payment: PaymentView): void {
      if (step.value.kind !== 'card') return;
      go({ kind: 'processing', payment });
      settle('FAILED', 'challenge_timeout');
    },

    /** A step outside the model (the card chunk's) failed in a way the customer cannot fix. */
    fail(error: unknown): void {
      if (step.value.kind === 'card') failWith(error, 'initiate');
    },

    /** The bank's window is showing the bank. */
    bankOpened(): void {
      const current = step.value;
      if (current.kind === 'bank' && current.phase !== 'processing') {
        go({ ...current, phase: 'opened' });
      }
    },

    /** The bank sent the customer back (the return page said so): confirm the payment now. */
    bankReturned(reference: string): void {
      const current = step.value;
      if (current.kind !== 'bank' || current.payment.reference !== reference) return;
      if (current.phase !== 'processing') go({ ...current, phase: 'processing' });
      void checkStatus();
    },

    /** The bank's window closed: the payment may be done, or abandoned. Ask. */
    async bankWindowClosed(): Promise<void> {
      if (step.value.kind !== 'bank') return;
      await checkStatus();
      const after = step.value;
      if (after.kind === 'bank' && after.phase === 'opened') go({ ...after, phase: 'closed' });
    },

    /** Back to the list of payment methods, from a payment not yet made. */
    changeMethod(): void {
      const current = step.value;
      const channels = session.value?.channels ?? [];
      if (channels.length < 2) return;
      if (
        // Not while the bank's window is up or the bank is settling: that payment may go through.
        (current.kind === 'bank' && (current.phase === 'ready' || current.phase === 'closed')) ||
        (current.kind === 'card' && !current.payment)
      ) {
        stopWatching();
        generation++;
        go({ kind: 'choosing', channels });
      }
    },

    /** After expiry: a fresh account for the same order. */
    newAccount(): void {
      if (step.value.kind !== 'expired' || !session.value) return;
      void initiate('PayByTransfer');
    },

    retry(): void {
      const current = step.value;
      if (current.kind !== 'error') return;
      if (current.retry === 'initiate' && lastChannel && session.value) void initiate(lastChannel);
      else void start();
    },

    /** The tab came back from sleep, or the clock may have jumped: check again now. */
    resync(): void {
      tick.value++;
      void checkStatus();
    },

    /** What closing now means for the merchant. */
    resultIfClosed(): CheckoutResult {
      if (outcome.value) return outcome.value;
      const current = step.value;
      const under = isLive(current) || current.kind === 'card' ? current.payment : null;
      if (under) return { status: 'pending', payment: summary(under) };
      if (current.kind === 'error') {
        return {
          status: 'failed',
          error: { code: current.code, message: current.message },
          payment: null,
        };
      }
      return { status: 'cancelled' };
    },

    /** Stops every timer and subscription; the model does nothing afterwards. */
    dispose(): void {
      stopWatching();
      disposed = true;
      generation++;
    },
  };
}

export type CheckoutModel = ReturnType<typeof createCheckoutModel>;
