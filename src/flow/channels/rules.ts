/**
 * What the checkout model must know of a channel beyond its actions: one object per channel,
 * listed in CHANNEL_RULES (index.ts beside this file), so that checkout-model.ts asks the
 * channel instead of naming it. Methods (not function-valued properties) so that one channel's
 * rules stand for every channel's where the model holds a step of any channel.
 */
import type { Channel } from '../../protocol';
import type { FailureCode, LiveStep, PayingStep } from '../checkout-step';
import type { PaymentView } from '../companion';
import type { BankPhase } from './phases';

export interface ChannelRules<C extends Channel> {
  /**
   * The step a payment of the channel is shown in when it arrives (initiated, resumed,
   * finalized); `resumed` is where a payment decided elsewhere (the bank) picks up.
   */
  liveStep(payment: PaymentView, resumed: BankPhase): LiveStep;
  /**
   * The step the channel opens on when its own panel starts the payment (the card, once the card
   * is submitted); null when the model initiates the payment at once.
   */
  readonly panelStart: PayingStep<C> | null;
  /** Whether initiating it sends the page to return to after a full-page redirect. */
  readonly returnsToPage: boolean;
  /** What a failure without a stated reason can only mean for it. */
  readonly unexplainedFailure: FailureCode;
  /**
   * Whether a pending payment of it stays open while the customer looks at another way to pay,
   * offered to continue beside the list (issue 12).
   */
  readonly staysOpen: boolean;
  /** When the payment shown at its paying step can no longer be paid, counted down; or null. */
  deadline(step: PayingStep<C>): number | null;
  /** Whether closing at its paying step would leave a payment half-done. */
  underWay(step: PayingStep<C>): boolean;
  /**
   * "Choose another way to pay" at its paying step: back to the list keeping the payment open
   * (`keep-open`), back to the list (`list`), or not now (null: it may still go through).
   */
  leaving(step: PayingStep<C>): 'keep-open' | 'list' | null;
}
