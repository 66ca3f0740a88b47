import type { ReadonlySignal } from '@preact/signals';
import type { Channel } from '../../protocol';
import type { CheckoutStep, FailureCode } from '../checkout-step';
import type { PaymentStatus, PaymentView } from '../companion';
import type { Countdown } from '../countdown';
import type { PaymentWatch } from '../payment-watch';

/** What a channel's actions may use of the checkout model around them. */
export interface PayingCore {
  readonly step: ReadonlySignal<CheckoutStep>;
  /** Moves to the next step (nothing once disposed). */
  go(next: CheckoutStep): void;
  readonly watch: PaymentWatch;
  readonly countdown: Countdown;
  /** The provider's word on the payment under way. */
  settle(status: PaymentStatus, why?: FailureCode | 'expired'): void;
  /** Stops the push, the polling and the countdown. */
  stopWatching(): void;
  /**
   * A payment arrived: show it in its step and follow it to its outcome. `checking`: its outcome
   * is unknown to us (a card whose finalize went unanswered): say so, and ask at once.
   */
  showPayment(payment: PaymentView, token: string, checking?: boolean): void;
  /** Initiates a payment by the channel for this checkout. */
  initiate(channel: Channel): Promise<void>;
  /** A failure the customer cannot fix here: the error step, with "try again" initiating again. */
  fail(error: unknown): void;
  /** True once the model was disposed. */
  disposed(): boolean;
}
