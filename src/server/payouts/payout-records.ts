/**
 * Every kind of record the payouts side keeps in the store, one declaration each: its key, its
 * value's type (checked when read back) and how long it is kept (store/records.ts).
 */
import type { PayoutStatus } from '../../protocol';
import type { PayoutView } from '../../protocol/back-office';
import { DAY_MS } from '../checkout';
import { checkFields, checkNumber, checkOneOf, checkTrue, isObject, recordKind } from '../store';

export const PAYOUT_TTL_MS = 90 * DAY_MS;
export const HINT_TTL_MS = 3 * DAY_MS;
/** What the back office shows of a payout is kept about a year (and a bit). */
export const BACK_OFFICE_TTL_MS = 400 * DAY_MS;

const checkPayoutStatus = checkOneOf(['Pending', 'Completed', 'Failed', 'Reversed'] as const);

/** What one webhook said about a payout's move: kept small, per announced status. */
export interface PayoutHint {
  readonly status: PayoutStatus;
  readonly reason: string | null;
  readonly occurredAt: string | null;
}

/** Where a payout is in the provider's transaction list (its creation order never changes). */
export const payoutPositionKind = recordKind<number>({
  name: 'payout-position',
  ttlMs: PAYOUT_TTL_MS,
  check: checkNumber,
});
/** The moves webhooks announced for a payout, not yet confirmed. */
export const payoutHintsKind = recordKind<PayoutHint[]>({
  name: 'payout-hints',
  ttlMs: HINT_TTL_MS,
  check: (value) =>
    Array.isArray(value) &&
    value.every((hint) => isObject(hint) && checkPayoutStatus(hint.status) !== undefined)
      ? (value as PayoutHint[])
      : undefined,
});
/** A move of a payout reported to `onPayoutOutcome`: once. */
export const payoutOutcomeKind = recordKind<true, { reference: string; status: PayoutStatus }>({
  name: 'payout-outcome',
  ttlMs: PAYOUT_TTL_MS,
  check: checkTrue,
  key: ({ reference, status }) => `payout-outcome:${reference}:${status}`,
});
/** The last move reported of a payout. */
export const payoutKind = recordKind<PayoutStatus>({
  name: 'payout',
  ttlMs: PAYOUT_TTL_MS,
  check: checkPayoutStatus,
});
/** Someone is reporting this move now (the hook is running). */
export const payoutReportingKind = recordKind<true, { reference: string; status: PayoutStatus }>({
  name: 'payout-reporting',
  ttlMs: 60_000,
  check: checkTrue,
  key: ({ reference, status }) => `payout-reporting:${reference}:${status}`,
});
/** Where the next sweep of the transaction list starts (one record: its id is ignored). */
export const sweepPositionKind = recordKind<number, null>({
  name: 'sweep:payouts:position',
  ttlMs: PAYOUT_TTL_MS,
  check: checkNumber,
  key: () => 'sweep:payouts:position',
});
/** When the companion first started watching payouts (one record). */
export const sweepSinceKind = recordKind<number, null>({
  name: 'sweep:payouts:since',
  ttlMs: PAYOUT_TTL_MS,
  check: checkNumber,
  key: () => 'sweep:payouts:since',
});
/** A payout as the back office shows it, by its reference and by its tenant reference. */
export const backOfficePayoutKind = recordKind<PayoutView>({
  name: 'back-office:payout',
  ttlMs: BACK_OFFICE_TTL_MS,
  check: (value) => {
    const view = checkFields<PayoutView>({
      reference: 'string',
      tenantReference: 'string|null',
      status: 'string',
      amount: 'object|null',
    })(value);
    return view && checkPayoutStatus(view.status) ? view : undefined;
  },
});
