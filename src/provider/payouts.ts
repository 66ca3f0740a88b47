/**
 * Payouts read from the transaction list (endpoint 9), the only place the provider shows them:
 * an entry becomes a Payout with the protocol's status names (Pending, Completed, Failed,
 * Reversed), whatever case the list writes them in.
 */
import {
  type Money,
  normalizePayoutStatus,
  type PayoutStatus,
  type TransactionListItem,
} from '../protocol';

/** One payout as the provider lists it. */
export interface Payout {
  /** The provider's reference (the list's `id`). */
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly status: PayoutStatus;
  readonly amount: Money;
  readonly createdAt: string | null;
  /** Every field as the provider sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * Where payouts sit in the list, by reference and by tenantReference. The list keeps creation
 * order, so a position never changes; the companion keeps these in its store so a lookup weeks
 * later reads one page. Default: in memory, per client.
 */
export interface PayoutPositions {
  get(reference: string): Promise<number | undefined>;
  set(reference: string, position: number): Promise<void>;
}

export function memoryPayoutPositions(): PayoutPositions {
  const positions = new Map<string, number>();
  return {
    async get(reference) {
      return positions.get(reference);
    },
    async set(reference, position) {
      positions.set(reference, position);
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The list entry as a payout, or null when it is a payment (or anything else). */
export function toPayout(item: TransactionListItem): Payout | null {
  const { raw } = item;
  const kind = text(raw.type)?.toLowerCase();
  if (kind !== undefined && kind !== 'payout') return null;
  if (kind === undefined && text(raw.tenantReference) === null) return null;
  const status = normalizePayoutStatus(item.status);
  if (!status) return null;
  return {
    reference: item.id,
    tenantReference: text(raw.tenantReference),
    status,
    amount: item.amount,
    createdAt: text(raw.createdAt) ?? text(raw.createdDate),
    raw,
  };
}

/** Does this list entry stand for the payout known by `reference` (either of its references)? */
export function isPayoutNamed(item: TransactionListItem, reference: string): boolean {
  return (
    item.id === reference ||
    item.raw.reference === reference ||
    item.raw.tenantReference === reference
  );
}
