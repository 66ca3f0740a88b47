/**
 * PayByTransfer in the sandbox: a one-time virtual account that takes money for 30 minutes, and
 * the customer's transfer into it (control `/transfer`).
 */

import type { PaymentRecord } from '../../records';
import { SandboxRefusal } from '../../refusal';
import type { PaymentMoves, SandboxChannel } from '../channel';

/** How long a virtual account takes money (DESIGN.md: 30 minutes). */
export const VIRTUAL_ACCOUNT_LIFETIME_MS = 30 * 60 * 1000;

const EXPIRED = 'The virtual account expired before any transfer arrived.';

/** Random-looking but unique digits, e.g. a 10-digit NUBAN account number. */
function digits(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  return Array.from(bytes, (byte) => String(byte % 10)).join('');
}

export const transfer: SandboxChannel = {
  id: '6a3e1c2b-0f4d-4b8e-9a51-2d7c3f9e1a01',
  currencies: ['NGN'],
  description: 'Pay by bank transfer into a one-time virtual account.',
  takesCard: false,
  refusals: () => [],
  open(record, accountName, moves) {
    record.stage = 'awaiting-transfer';
    record.virtualAccount = {
      bank: 'Paydrop Sandbox Bank',
      accountNumber: digits(10),
      accountName,
      note: `Transfer exactly the amount shown to this account before it expires. Reference ${record.reference}.`,
      expiresAt: moves.now() + VIRTUAL_ACCOUNT_LIFETIME_MS,
    };
    moves.schedule(record.virtualAccount.expiresAt, () => {
      if (record.status === 'PENDING') moves.settle(record, 'FAILED', EXPIRED);
    });
  },
  authUrl: () => null,
  initiated: () => ({
    paymentStatus: 'REQUIRE_USER_OFFLINE_ACTION',
    message: 'Transfer the amount to the account below.',
  }),
};

/** The customer pays into the virtual account: `amountMinor`, or exactly what is due. */
export function transferArrived(
  record: PaymentRecord,
  amountMinor: number | undefined,
  moves: PaymentMoves,
): PaymentRecord {
  const { reference } = record;
  if (record.channel !== 'PayByTransfer') {
    throw new SandboxRefusal(409, `Payment ${reference} is not a PayByTransfer payment.`);
  }
  const account = record.virtualAccount;
  if (record.status === 'PENDING' && account && moves.now() >= account.expiresAt) {
    moves.settle(record, 'FAILED', EXPIRED);
  }
  if (record.status !== 'PENDING') {
    throw new SandboxRefusal(
      409,
      `The transfer is refused: payment ${reference} is already ${record.status}` +
        (record.failureReason ? ` (${record.failureReason})` : '.'),
    );
  }
  const paid = amountMinor ?? record.amountMinor + record.feesMinor;
  record.paidMinor = paid;
  if (paid < record.amountMinor + record.feesMinor) {
    moves.settle(record, 'FAILED', 'Underpaid: less than the amount due arrived.');
  } else {
    moves.settle(record, 'SUCCESSFUL', null);
  }
  return record;
}
