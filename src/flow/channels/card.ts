/**
 * Card's actions: the card chunk runs the card journey (src/widget/channels/card/card-flow.ts)
 * and tells the model what became of it.
 */
import { isPaying } from '../checkout-step';
import type { PaymentStatus, PaymentView } from '../companion';
import type { PayingCore } from './paying-core';

export function createCardActions(core: PayingCore) {
  return {
    /** The card chunk initiated a card payment: it is under way, and closing must say so. */
    cardStarted(payment: PaymentView, token: string): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.watch.adopt(token);
      core.countdown.anchor(payment.serverTime);
      core.go({ kind: 'paying', channel: 'Card', phase: 'started', payment });
    },

    /** The card is finalized: follow the payment to its outcome. */
    track(payment: PaymentView, token: string, status: PaymentStatus): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.showPayment({ ...payment, status }, token);
    },

    /** The card's challenge was abandoned until it timed out. */
    cardTimedOut(payment: PaymentView): void {
      if (!isPaying(core.step.peek(), 'Card')) return;
      core.go({ kind: 'processing', payment });
      core.settle('FAILED', 'challenge_timeout');
    },

    /**
     * A step of the card chunk failed in a way the customer cannot fix (a network error on
     * finalize among them): the error step, whose "Try again" initiates the card again.
     */
    fail(error: unknown): void {
      if (isPaying(core.step.peek(), 'Card')) core.fail(error);
    },
  };
}

export type CardActions = ReturnType<typeof createCardActions>;
