/**
 * PayByAccount in the sandbox: the customer approves or declines at the bank's page (pages.ts
 * here) or through control `/bank`; an approval settles a moment later, as banks do.
 */

import type { PaymentRecord } from '../../records';
import { SandboxRefusal } from '../../refusal';
import { SETTLEMENT_DELAY_MS } from '../../test-data';
import type { PaymentMoves, SandboxChannel } from '../channel';

export const bank: SandboxChannel = {
  id: '6a3e1c2b-0f4d-4b8e-9a51-2d7c3f9e1a02',
  currencies: ['GBP'],
  description: 'Pay from your bank account through your banking app.',
  takesCard: false,
  refusals: (input) =>
    input.metaData?.['return-url'] ? [] : ['metaData.return-url is required for PayByAccount.'],
  open(record) {
    record.stage = 'awaiting-bank';
  },
  authUrl: (record, baseUrl) => `${baseUrl}/pages/bank/${encodeURIComponent(record.reference)}`,
  initiated: () => ({
    paymentStatus: 'REQUIRE_BANK_AUTH',
    message: 'Authorise the payment at your bank.',
  }),
};

/** The customer approves or declines at the bank. */
export function bankDecided(
  record: PaymentRecord,
  approve: boolean,
  moves: PaymentMoves,
): PaymentRecord {
  const { reference } = record;
  if (record.channel !== 'PayByAccount') {
    throw new SandboxRefusal(409, `Payment ${reference} is not a PayByAccount payment.`);
  }
  if (record.stage !== 'awaiting-bank') {
    throw new SandboxRefusal(
      409,
      `Payment ${reference} has already been ${record.stage === 'authorised' ? 'authorised' : record.status}.`,
    );
  }
  if (!approve) {
    moves.settle(record, 'FAILED', 'The customer declined at the bank.');
    return record;
  }
  // Authorised but not settled: status says PENDING until the bank settles.
  record.stage = 'authorised';
  record.updatedAt = moves.now();
  moves.schedule(moves.now() + SETTLEMENT_DELAY_MS, () => moves.settle(record, 'SUCCESSFUL', null));
  return record;
}
