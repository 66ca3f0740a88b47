/**
 * Payout states as provider-api.md draws them: Pending → Completed or Failed; Completed →
 * Reversed. Nothing else moves. Webhooks may arrive late, twice or out of order, so given what we
 * knew and what the provider now confirms, this returns the moves to report, in order.
 */
import type { PayoutStatus } from '../protocol';

/**
 * @example payoutMoves('Pending', 'Reversed') // ['Completed', 'Reversed']: reversed implies it had completed
 * @example payoutMoves('Reversed', 'Completed') // []: a late success never moves a payout back
 */
export function payoutMoves(known: PayoutStatus | null, confirmed: PayoutStatus): PayoutStatus[] {
  const current = known ?? 'Pending';
  if (current === confirmed) return [];
  switch (current) {
    case 'Pending':
      if (confirmed === 'Completed' || confirmed === 'Failed') return [confirmed];
      if (confirmed === 'Reversed') return ['Completed', 'Reversed'];
      return [];
    case 'Completed':
      return confirmed === 'Reversed' ? ['Reversed'] : [];
    default:
      // Failed and Reversed are final.
      return [];
  }
}
