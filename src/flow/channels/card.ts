/**
 * Card's actions: the card chunk runs the card journey (src/widget/channels/card/card-flow.ts)
 * and tells the model what became of it.
 */
import { isPaying } from '../checkout-step';
import type { BrowserFailureReason, PaymentStatus, PaymentView } from '../companion';
import type { PayingCore } from './paying-core';
import type { ChannelRules } from './rules';

/**
 * The card's own panel starts the payment once the card is submitted; the card chunk finalizes
 * it, after which only the provider's word is awaited. Under way once initiated; left for another
 * way to pay only while the form has no payment yet.
 */
export const cardRules: ChannelRules<'Card'> = {
  liveStep: (payment) => ({ kind: 'processing', payment }),
  panelStart: { kind: 'paying', channel: 'Card', phase: 'entry', payment: null },
  returnsToPage: false,
  unexplainedFailure: 'payment_failed',
  staysOpen: false,
  deadline: () => null,
  underWay: (step) => step.payment !== null,
  leaving: (step) => (step.payment ? null : 'list'),
};

export function createCardActions(core: PayingCore) {
  return {
    /** The card chunk initiated a card payment: it is under way, and closing must say so. */
    cardStarted(payment: PaymentView, token: string): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.watch.adopt(token);
      core.countdown.anchor(payment.serverTime);
      core.go({ kind: 'paying', channel: 'Card', phase: 'started', payment });
    },

    /** The card is finalized: follow the payment to its outcome, failed for `reason` if given. */
    track(
      payment: PaymentView,
      token: string,
      status: PaymentStatus,
      reason?: BrowserFailureReason,
    ): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      if (status === 'FAILED' && reason && reason !== 'expired') {
        core.watch.adopt(token);
        core.go({ kind: 'processing', payment: { ...payment, status } });
        core.settle('FAILED', reason);
        return;
      }
      core.showPayment({ ...payment, status }, token);
    },

    /** The card's challenge was abandoned until it timed out. */
    cardTimedOut(payment: PaymentView): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.go({ kind: 'processing', payment });
      core.settle('FAILED', 'challenge_timeout');
    },

    /**
     * The card may have been charged and we do not know (finalize's answer was lost, slow or an
     * error), or the companion answered a new initiation with an earlier payment still settling
     * or already paid: follow that payment, "Checking your payment…", never the form (issue 9).
     */
    checkPayment(payment: PaymentView, token: string): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.showPayment(payment, token, true);
    },

    /**
     * A step of the card chunk failed before anything could be charged (the card form could not
     * load, the authentication check failed): the error step, whose "Try again" comes back to
     * the card form with what was typed (the security code aside).
     */
    fail(error: unknown): void {
      if (isPaying(core.step.peek(), 'Card')) core.fail(error);
    },
  };
}

export type CardActions = ReturnType<typeof createCardActions>;
