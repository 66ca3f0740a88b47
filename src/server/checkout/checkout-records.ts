/**
 * Every kind of record the checkout keeps in the store, one declaration each: its key, its value's
 * type (checked when read back) and how long it is kept. The calls that write them build their
 * writes from these (store/records.ts) and commit them once per call.
 */
import { CHANNELS, type Channel, type Money, type PaymentStatus } from '../../protocol';
import type { PaymentFailureReason, VirtualAccountWire } from '../../protocol/contract';
import {
  checkFields,
  checkOneOf,
  checkString,
  checkStrings,
  checkTrue,
  isObject,
  recordKind,
  type WindowEntry,
  windowEntries,
} from '../store';

export const DAY_MS = 24 * 3600 * 1000;
/** How long what the companion knows about one payment is kept. */
export const PAYMENT_TTL_MS = 30 * DAY_MS;

/** What the store keeps per payment reference. */
export interface PaymentRecord {
  readonly reference: string;
  /** The checkout (session id) that initiated it. */
  readonly checkoutId: string;
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly channel: Channel;
  readonly amount: Money;
  readonly fees: Money;
  readonly virtualAccount: VirtualAccountWire | null;
  readonly bankAuthUrl: string | null;
  readonly returnTo: string | null;
  readonly createdAt: number;
}

export type FinalStatus = 'SUCCESSFUL' | 'FAILED';

/** Why a payment failed, as `/status` and the event stream carry it. */
/**
 * Why a payment failed, whole, as the merchant's outcome carries it; the browser's `/status` and
 * event stream get it through forBrowser (browser-reason.ts), which hides the revealing reasons.
 */
export interface FailureDetails {
  readonly reason?: PaymentFailureReason;
  readonly paid?: Money;
}

/** A finalize the provider refused outright (4xx): nothing was charged by it. */
export type FinalizeAnswer = PaymentStatus | 'REFUSED';

/** A checkout of an order (its id) or of a payment link (its checkout's id). */
export interface CheckoutOf {
  readonly orderId: string | null;
  readonly checkoutId: string;
}

const checkFinal = checkOneOf(['SUCCESSFUL', 'FAILED'] as const);
const checkRecordFields = checkFields<PaymentRecord>({
  reference: 'string',
  checkoutId: 'string',
  orderId: 'string|null',
  linkAlias: 'string|null',
  channel: 'string',
  amount: 'object',
  fees: 'object',
  virtualAccount: 'object|null',
  bankAuthUrl: 'string|null',
  returnTo: 'string|null',
  createdAt: 'number',
});

/** A payment the companion initiated. */
export const paymentKind = recordKind<PaymentRecord>({
  name: 'payment',
  ttlMs: PAYMENT_TTL_MS,
  check: (value) => {
    const record = checkRecordFields(value);
    return record && (CHANNELS as readonly string[]).includes(record.channel) ? record : undefined;
  },
});

/** The references initiated for an order (any checkout of it), oldest first. */
export const orderPaymentsKind = recordKind<string[]>({
  name: 'payments:order',
  ttlMs: PAYMENT_TTL_MS,
  check: checkStrings,
});
/** The references initiated by one checkout (a payment link's), oldest first. */
export const checkoutPaymentsKind = recordKind<string[]>({
  name: 'payments:checkout',
  ttlMs: PAYMENT_TTL_MS,
  check: checkStrings,
});

/** The final status the provider confirmed (whether or not the merchant heard yet). */
export const confirmedKind = recordKind<FinalStatus>({
  name: 'confirmed',
  ttlMs: PAYMENT_TTL_MS,
  check: checkFinal,
});
/** Why a confirmed FAILED payment failed. */
export const failureKind = recordKind<FailureDetails>({
  name: 'failure',
  ttlMs: PAYMENT_TTL_MS,
  check: (value) => (isObject(value) ? value : undefined),
});
/** The outcome reported to the merchant's hook and the browsers: once. */
export const outcomeKind = recordKind<FinalStatus>({
  name: 'outcome',
  ttlMs: PAYMENT_TTL_MS,
  check: checkFinal,
});
/** Finalize was sent: from then on the card may be charged. */
export const finalizeSentKind = recordKind<true>({
  name: 'finalize-sent',
  ttlMs: PAYMENT_TTL_MS,
  check: checkTrue,
});
export const finalizeAnswerKind = recordKind<FinalizeAnswer>({
  name: 'finalize-answer',
  ttlMs: PAYMENT_TTL_MS,
  check: checkOneOf(['PENDING', 'SUCCESSFUL', 'FAILED', 'REFUSED'] as const),
});
/** The bank sent the customer back. */
export const returnedKind = recordKind<true>({
  name: 'returned',
  ttlMs: PAYMENT_TTL_MS,
  check: checkTrue,
});

/** A one-time payment link the provider refused as paid already (by its alias). */
export const linkPaidKind = recordKind<true>({
  name: 'link-paid',
  ttlMs: 30 * DAY_MS,
  check: checkTrue,
});
/** The reference whose success paid a one-time link (by alias): the back office shows it Paid. */
export const linkSucceededKind = recordKind<string>({
  name: 'link-succeeded',
  ttlMs: PAYMENT_TTL_MS,
  check: checkString,
});
/** The first success of an order (or link checkout); a later one is a duplicate. */
export const firstSuccessKind = recordKind<string, CheckoutOf>({
  name: 'first-success',
  ttlMs: PAYMENT_TTL_MS,
  check: checkString,
  key: (of) =>
    of.orderId !== null
      ? `first-success:order:${of.orderId}`
      : `first-success:checkout:${of.checkoutId}`,
});
/** A card's challenge page, for the challenge route to serve. */
export const challengeKind = recordKind<string>({
  name: 'challenge',
  ttlMs: 15 * 60 * 1000,
  check: checkString,
});
/** One payment started at a time per order (or link checkout): the lock. */
export const initiatingKind = recordKind<true, CheckoutOf>({
  name: 'initiating',
  ttlMs: 30_000,
  check: checkTrue,
  key: (of) =>
    of.orderId !== null ? `initiating:order:${of.orderId}` : `initiating:checkout:${of.checkoutId}`,
});
/** Someone is reporting this outcome now (the hook is running). */
export const reportingKind = recordKind<true>({
  name: 'reporting',
  ttlMs: 60_000,
  check: checkTrue,
});
/** A reference nobody here initiated: being asked about, or known to be absent. */
export const lookupKind = recordKind<'asking' | 'absent'>({
  name: 'lookup',
  ttlMs: 60_000,
  check: checkOneOf(['asking', 'absent'] as const),
});
/**
 * A window of the attempt limits (issue 20): the places taken in it, `[end, id]` each, as the
 * store's `take` keeps them (issue 25 item 2). Kept as long as its newest place.
 */
export const limitWindowKind = recordKind<WindowEntry[]>({
  name: 'limit',
  ttlMs: 3600 * 1000,
  check: (value) => {
    if (!Array.isArray(value)) return undefined;
    const entries = windowEntries(value);
    return entries.length === value.length ? entries : undefined;
  },
  key: (window) => window,
});
