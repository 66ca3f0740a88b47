/** PayByTransfer's actions: "I've sent the money", expiry, and a fresh account after it. */
import { isPaying } from '../checkout-step';
import type { PayingCore } from './paying-core';

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
