/** PayByAccount's actions: the bank's window opened, closed, and the bank's return. */
import { isPaying } from '../checkout-step';
import type { PayingCore } from './paying-core';
import type { ChannelRules } from './rules';

/**
 * A bank payment is decided at the bank, so it can only fail there; the customer comes back to
 * the merchant's page after a full-page redirect, and may leave it only before the bank's window
 * is up or after it closed undecided.
 */
export const bankRules: ChannelRules<'PayByAccount'> = {
  liveStep: (payment, resumed) => ({
    kind: 'paying',
    channel: 'PayByAccount',
    phase: resumed,
    payment,
  }),
  panelStart: null,
  returnsToPage: true,
  unexplainedFailure: 'bank_declined',
  staysOpen: false,
  deadline: () => null,
  underWay: () => true,
  leaving: (step) => (step.phase === 'ready' || step.phase === 'closed' ? 'list' : null),
};

export function createBankActions(core: PayingCore) {
  return {
    /** The bank's window is showing the bank. */
    bankOpened(): void {
      const current = core.step.peek();
      if (isPaying(current, 'PayByAccount') && current.phase !== 'processing') {
        core.go({ ...current, phase: 'opened' });
      }
    },

    /** The bank sent the customer back (the return page said so): confirm the payment now. */
    bankReturned(reference: string): void {
      const current = core.step.peek();
      if (!isPaying(current, 'PayByAccount') || current.payment.reference !== reference) return;
      if (current.phase !== 'processing') core.go({ ...current, phase: 'processing' });
      void core.watch.check();
    },

    /** The bank's window closed: the payment may be done, or abandoned. Ask. */
    async bankWindowClosed(): Promise<void> {
      if (!isPaying(core.step.peek(), 'PayByAccount')) return;
      await core.watch.check();
      const after = core.step.peek();
      if (isPaying(after, 'PayByAccount') && after.phase === 'opened') {
        core.go({ ...after, phase: 'closed' });
      }
    },
  };
}

export type BankActions = ReturnType<typeof createBankActions>;
