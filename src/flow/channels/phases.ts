/**
 * Each channel's steps while the customer pays by it, and what its paying step holds: the types
 * the one `paying` step of checkout-step.ts is built from. Kept apart from the channels' actions
 * (which import checkout-step.ts) so that the step's types import nothing that imports them back.
 * A channel of the protocol's CHANNELS missing a line in PayingPhases, PaymentsWhilePaying or
 * WATCHED_WHILE_PAYING is a compile error in checkout-step.ts or here.
 */
import type { Channel } from '../../protocol';
import type { PaymentView } from '../companion';

/** PayByTransfer: the account is shown; after "I've sent the money", being confirmed. */
export type TransferPhase = 'awaiting' | 'confirming';

/**
 * PayByAccount: `ready` has the bank link but no bank window (the customer continues with a
 * click); `opened` while the bank's window is up; `closed` when it closed with nothing decided;
 * `processing` once the bank sent the customer back and the payment is being confirmed.
 */
export type BankPhase = 'ready' | 'opened' | 'closed' | 'processing';

/** Card: the form (no payment yet), then a payment initiated by the card chunk. */
export type CardPhase = 'entry' | 'started';

/** Each channel's phases while the customer pays by it. */
export interface PayingPhases {
  readonly PayByTransfer: TransferPhase;
  readonly PayByAccount: BankPhase;
  readonly Card: CardPhase;
}

/** The payment of each channel's paying step: a card has none until the card is submitted. */
export interface PaymentsWhilePaying {
  readonly PayByTransfer: PaymentView;
  readonly PayByAccount: PaymentView;
  readonly Card: PaymentView | null;
}

/**
 * Whether the model watches for the payment's outcome (push, polling) while the customer is at
 * the channel's paying step. A card is watched only once finalized, from the processing step.
 */
export const WATCHED_WHILE_PAYING = {
  PayByTransfer: true,
  PayByAccount: true,
  Card: false,
} as const satisfies Record<Channel, boolean>;

/** The channels whose paying step is watched. */
export type WatchedChannel = {
  [C in Channel]: (typeof WATCHED_WHILE_PAYING)[C] extends true ? C : never;
}[Channel];
