/**
 * Where the customer is: one union-typed step (CONVENTIONS 2), and what the merchant's page
 * learns when the checkout ends.
 */
import type { Channel, Money } from '../protocol';
import {
  type PayingPhases,
  type PaymentsWhilePaying,
  WATCHED_WHILE_PAYING,
  type WatchedChannel,
} from './channels/phases';
import type {
  BrowserFailureReason,
  ChannelChoice,
  CompanionFailureCode,
  PaymentView,
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
 * Every code a merchant's `onFailure` and `result` can receive, and no other: a `switch` on one
 * the widget never sends is a type error. Why a payment failed (`FailureCode`, from the
 * protocol's one list of reasons), an account that expired unpaid, no payment method, a second
 * `open()` for another order while one is open, and why the companion could not be reached or
 * refused. test/browser/failure-codes.test.ts makes each one happen. Named apart from the
 * companion's `CheckoutError` class and its `CheckoutErrorCode` (paydrop/server).
 */
export type CheckoutFailureCode =
  | FailureCode
  | 'expired'
  | 'no_channels'
  | 'already_open'
  | CompanionFailureCode;

/** Why a checkout failed, as the merchant's `onFailure` and `result` receive it. */
export interface CheckoutFailure {
  readonly code: CheckoutFailureCode;
  readonly message: string;
}

/**
 * Why a payment failed, one code per cause the customer is told apart (issue 12): the reason the
 * companion tells the browser (`BrowserFailureReason`, the protocol's list less the reasons that
 * would reveal a live card), or what the channel implies (a bank payment can only fail at the
 * bank, a transfer before its expiry only by arriving short), `challenge_timeout` when the card's
 * check was abandoned, and `payment_failed` when nothing says more. An expired account is a step
 * of its own (`expired`), not a failed payment.
 */
export type FailureCode =
  | 'payment_failed'
  | 'challenge_timeout'
  | Exclude<BrowserFailureReason, 'expired'>;

/**
 * What the customer typed into the card form, as typed, kept in memory only while the checkout is
 * open so that a failed attempt does not empty the form (issue 12). Never the security code.
 */
export interface CardDraft {
  readonly number: string;
  readonly expiry: string;
  readonly name: string;
}

export type { BankPhase, CardPhase, PayingPhases, TransferPhase } from './channels/phases';

/** The one step of paying, parametrised by the channel, its phase and its payment. */
export type PayingStep<C extends Channel = Channel> = {
  readonly [K in C]: {
    readonly kind: 'paying';
    readonly channel: K;
    readonly phase: PayingPhases[K];
    readonly payment: PaymentsWhilePaying[K];
  };
}[C];

export type CheckoutStep =
  | { readonly kind: 'loading' }
  | {
      readonly kind: 'choosing';
      readonly channels: readonly ChannelChoice[];
      /** A transfer still open for this order, offered to continue beside the channels. */
      readonly resume?: PaymentView | undefined;
    }
  | { readonly kind: 'starting'; readonly channel: Channel }
  | PayingStep
  /**
   * Waiting for the provider's final word (a card once finalized). `checking` when the card's
   * finalize went unanswered (lost, slow, a network error): the payment may still succeed, so
   * the customer is told we are checking it, never offered the card form again meanwhile (issue 9).
   */
  | { readonly kind: 'processing'; readonly payment: PaymentView; readonly checking?: boolean }
  | { readonly kind: 'succeeded'; readonly payment: PaymentView }
  | {
      readonly kind: 'failed';
      readonly payment: PaymentView;
      readonly code: FailureCode;
      /** `transfer_short`: what arrived, when the provider said (the rest is missing). */
      readonly paid?: Money;
    }
  | { readonly kind: 'expired'; readonly payment: PaymentView }
  | {
      readonly kind: 'error';
      readonly code: CheckoutFailureCode;
      readonly message: string;
      /** What "try again" repeats. */
      readonly retry: 'session' | 'initiate';
    };

/** A step whose payment's outcome is awaited, pushed or polled. */
export type LiveStep = PayingStep<WatchedChannel> | Extract<CheckoutStep, { kind: 'processing' }>;

/** True where a payment is under way and the model watches for its outcome. */
export function isLive(step: CheckoutStep): step is LiveStep {
  return (
    step.kind === 'processing' || (step.kind === 'paying' && WATCHED_WHILE_PAYING[step.channel])
  );
}

/** True at the paying step of this channel. */
export function isPaying<C extends Channel>(
  step: CheckoutStep,
  channel: C,
): step is Extract<CheckoutStep, { readonly kind: 'paying'; readonly channel: C }> {
  return step.kind === 'paying' && step.channel === channel;
}

export function summary(payment: PaymentView): PaymentSummary {
  return { reference: payment.reference, channel: payment.channel, amount: payment.amount };
}
