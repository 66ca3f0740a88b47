/**
 * What the companion remembers about the payments it initiated, all in the store as plain JSON:
 * each payment's record, every reference initiated per order and per checkout (so a new payment
 * is never started before the previous one is settled, issue 9), how far a card's finalize got,
 * the provider-confirmed status and the outcome reported to the merchant.
 */
import type { PaymentStatus } from '../../protocol';
import type { PaymentViewWire } from '../../protocol/contract';
import {
  type CheckoutStore,
  createRecords,
  put,
  type Records,
  type StoreWrite,
  stillHolds,
} from '../store';
import { serverChannel } from './channels';
import {
  type CheckoutOf,
  checkoutPaymentsKind,
  confirmedKind,
  type FailureDetails,
  type FinalizeAnswer,
  type FinalStatus,
  failureKind,
  finalizeAnswerKind,
  finalizeSentKind,
  orderPaymentsKind,
  outcomeKind,
  PAYMENT_TTL_MS,
  type PaymentRecord,
  paymentKind,
  returnedKind,
} from './checkout-records';

export {
  DAY_MS,
  type FailureDetails,
  type FinalizeAnswer,
  type FinalStatus,
  PAYMENT_TTL_MS,
  type PaymentRecord,
} from './checkout-records';

/** An order's and a checkout's references, oldest first, as one read found them. */
export interface PaymentLists {
  readonly byOrder: string[] | undefined;
  readonly byCheckout: string[] | undefined;
}

/** References remembered per order or checkout; older ones are settled or long abandoned. */
const MAX_REFERENCES = 20;

/** `now`: the provider's clock as the companion measures it (a transfer's expiry is on it). */
export function createPaymentRecords(store: CheckoutStore, now: () => number) {
  const records: Records = createRecords(store);
  return {
    /** The typed store these records live in (for the calls that read or commit beside them). */
    records,

    async get(reference: string): Promise<PaymentRecord | undefined> {
      return records.get(paymentKind, reference);
    },

    /**
     * The order's and the checkout's lists of references, in one read: what `earlierIn` looks
     * through and `addWrites` adds to.
     */
    async lists(of: CheckoutOf): Promise<PaymentLists> {
      const [byOrder, byCheckout] = await records.getMany([
        [orderPaymentsKind, of.orderId ?? ''],
        [checkoutPaymentsKind, of.checkoutId],
      ] as const);
      return { byOrder, byCheckout };
    },

    /**
     * Every payment initiated for this order (by any checkout of it), or for this checkout of a
     * payment link, newest first, as `lists` read them.
     */
    earlierIn(lists: PaymentLists, of: CheckoutOf): string[] {
      return [...((of.orderId !== null ? lists.byOrder : lists.byCheckout) ?? [])].reverse();
    },

    /**
     * The writes that save a new payment and remember it under its order and its checkout, for
     * the initiating call's one commit, from the lists as the call read them. `guarded`: the
     * commit also expects the lists to be still as read (the store's `expect`), so a payment
     * remembered meanwhile by a call outside the order's lock (a hosted card page's, adopted on
     * its return) is never dropped from them: the commit fails, and the lists are read again.
     */
    addWrites(
      record: PaymentRecord,
      lists: PaymentLists,
      options: { readonly ttlMs?: number | undefined; readonly guarded?: boolean } = {},
    ): StoreWrite[] {
      const withThis = (known: readonly string[] | undefined) =>
        [...(known ?? []).filter((item) => item !== record.reference), record.reference].slice(
          -MAX_REFERENCES,
        );
      const byOrder = record.orderId !== null;
      return [
        ...(options.guarded
          ? [
              ...(byOrder
                ? [stillHolds(orderPaymentsKind, record.orderId as string, lists.byOrder)]
                : []),
              stillHolds(checkoutPaymentsKind, record.checkoutId, lists.byCheckout),
            ]
          : []),
        // A card not yet finalized is kept for hours only (issue 20); finalize keeps it 30 days.
        put(paymentKind, record.reference, record, options.ttlMs || PAYMENT_TTL_MS),
        ...(byOrder
          ? [put(orderPaymentsKind, record.orderId as string, withThis(lists.byOrder))]
          : []),
        put(checkoutPaymentsKind, record.checkoutId, withThis(lists.byCheckout)),
      ];
    },

    /** `addWrites` with the lists read now (one read), unguarded: for a commit guarded otherwise. */
    async add(record: PaymentRecord, ttlMs?: number | undefined): Promise<StoreWrite[]> {
      return this.addWrites(record, await this.lists(record), { ttlMs });
    },

    /** What is known for sure, in one read: the outcome reported, else the confirmed status. */
    async known(reference: string): Promise<FinalStatus | undefined> {
      const { reported, confirmed } = await this.finalStatuses(reference);
      return reported ?? confirmed;
    },

    /** The outcome reported and the status confirmed, in one read. */
    async finalStatuses(
      reference: string,
    ): Promise<{ reported: FinalStatus | undefined; confirmed: FinalStatus | undefined }> {
      const [reported, confirmed] = await records.getMany([
        [outcomeKind, reference],
        [confirmedKind, reference],
      ] as const);
      return { reported, confirmed };
    },

    /** The status the provider confirmed as final (whether or not the merchant heard yet). */
    async confirmed(reference: string): Promise<FinalStatus | undefined> {
      return records.get(confirmedKind, reference);
    },
    /** `failure`, when given, keeps why a FAILED payment failed (issue 12), for `/status`. */
    confirmedWrites(
      reference: string,
      status: FinalStatus,
      failure: FailureDetails = {},
    ): StoreWrite[] {
      return [
        ...(failure.reason ? [put(failureKind, reference, failure)] : []),
        put(confirmedKind, reference, status),
      ];
    },

    /** Why a confirmed FAILED payment failed, as far as the provider said; {} when it did not. */
    async failure(reference: string): Promise<FailureDetails> {
      return (await records.get(failureKind, reference)) ?? {};
    },

    /** Now on the provider's clock (as measured), the clock of every instant the browser gets. */
    now,

    /** The outcome reported to the merchant's hook (and the browsers), once. */
    async reported(reference: string): Promise<FinalStatus | undefined> {
      return records.get(outcomeKind, reference);
    },

    /**
     * Set before finalize is sent: from then on the card may be charged, so its record (`record`,
     * as the call read it) is kept as long as any payment's.
     */
    finalizeSentWrites(reference: string, record: PaymentRecord | undefined): StoreWrite[] {
      return [
        put(finalizeSentKind, reference, true),
        ...(record ? [put(paymentKind, reference, record)] : []),
      ];
    },
    async finalizeSent(reference: string): Promise<boolean> {
      return (await records.get(finalizeSentKind, reference)) === true;
    },
    /** Whether finalize was sent, and what it answered, in one read. */
    async finalizing(
      reference: string,
    ): Promise<{ sent: boolean; answer: FinalizeAnswer | undefined }> {
      const [sent, answer] = await records.getMany([
        [finalizeSentKind, reference],
        [finalizeAnswerKind, reference],
      ] as const);
      return { sent: sent === true, answer };
    },
    finalizeAnswerWrite(reference: string, answer: FinalizeAnswer): StoreWrite {
      return put(finalizeAnswerKind, reference, answer);
    },
    async setFinalizeAnswer(reference: string, answer: FinalizeAnswer): Promise<void> {
      await records.commit([put(finalizeAnswerKind, reference, answer)]);
    },
    async finalizeAnswer(reference: string): Promise<FinalizeAnswer | undefined> {
      return records.get(finalizeAnswerKind, reference);
    },

    /** The bank sent the customer back: a PENDING bank payment is now settling. */
    returnedWrite(reference: string): StoreWrite {
      return put(returnedKind, reference, true);
    },

    /**
     * True when the payment may still succeed without the customer doing anything more: a card
     * whose finalize was sent and not refused, a bank payment the customer came back from. A
     * transfer nobody has paid into is not: the customer may choose another way (and should both
     * arrive, the second is reported as a duplicate).
     */
    async committed(record: PaymentRecord): Promise<boolean> {
      return serverChannel(record.channel).committed({
        finalizedUnrefused: async () => {
          const { sent, answer } = await this.finalizing(record.reference);
          return sent && answer !== 'REFUSED';
        },
        returned: async () => (await records.get(returnedKind, record.reference)) === true,
      });
    },

    /** A transfer's account is past its expiry on the provider's clock (it fails it then). */
    expired(record: PaymentRecord): boolean {
      const expiresAt = record.virtualAccount
        ? Date.parse(record.virtualAccount.expiresAt)
        : undefined;
      return expiresAt !== undefined && expiresAt <= now();
    },

    view(record: PaymentRecord, status: PaymentStatus): PaymentViewWire {
      return {
        reference: record.reference,
        channel: record.channel,
        status,
        amount: record.amount,
        fees: record.fees,
        virtualAccount: record.virtualAccount,
        bankAuthUrl: record.bankAuthUrl,
        serverTime: new Date(now()).toISOString(),
      };
    },
  };
}

export type PaymentRecords = ReturnType<typeof createPaymentRecords>;
