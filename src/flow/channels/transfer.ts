/** PayByTransfer's actions: "I've sent the money", expiry, and a fresh account after it. */
import { isPaying } from '../checkout-step';
import type { PayingCore } from './paying-core';
import type { ChannelRules } from './rules';

/**
 * A transfer is shown with its account at once, and counts down to the account's expiry; while
 * it waits for the money the customer may look at another way to pay and come back to it. Failed
 * without a reason it says no more than that it failed (expiry and a short arrival have theirs).
 */
export const transferRules: ChannelRules<'PayByTransfer'> = {
  liveStep: (payment) => ({ kind: 'paying', channel: 'PayByTransfer', phase: 'awaiting', payment }),
  panelStart: null,
  returnsToPage: false,
  unexplainedFailure: 'payment_failed',
  staysOpen: true,
  deadline: (step) => step.payment.virtualAccount?.expiresAt ?? null,
  underWay: () => true,
  leaving: (step) => (step.phase === 'awaiting' ? 'keep-open' : null),
};

export function createTransferActions(core: PayingCore) {
  let expiring = false;
  return {
    /** The account's time is up: one last look, in case the money arrived at the last second. */
    async expire(): Promise<void> {
      if (!isPaying(core.step.peek(), 'PayByTransfer') || expiring) return;
      expiring = true;
      await core.watch.check().finally(() => {
        expiring = false;
      });
      const after = core.step.peek();
      if (core.disposed() || !isPaying(after, 'PayByTransfer')) return;
      core.stopWatching();
      core.go({ kind: 'expired', payment: after.payment });
      core.countdown.milestone.value = 0;
    },

    /** "I've sent the money": confirming, never success, until the provider says so. */
    sentMoney(): void {
      const current = core.step.peek();
      if (!isPaying(current, 'PayByTransfer') || current.phase !== 'awaiting') return;
      core.go({ ...current, phase: 'confirming' });
      void core.watch.check();
    },

    /** After expiry: a fresh account for the same order. */
    newAccount(): void {
      if (core.step.peek().kind !== 'expired') return;
      void core.initiate('PayByTransfer');
    },
  };
}

export type TransferActions = ReturnType<typeof createTransferActions>;
