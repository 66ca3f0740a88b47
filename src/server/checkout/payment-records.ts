/**
 * What the companion remembers about the payments it initiated, all in the store as plain JSON:
 * each payment's record, every reference initiated per order and per checkout (so a new payment
 * is never started before the previous one is settled, issue 9), how far a card's finalize got,
 * the provider-confirmed status and the outcome reported to the merchant.
 */
import type { PaymentStatus } from '../../protocol';
import type { PaymentViewWire } from '../../protocol/contract';
import { type CheckoutStore, createRecords, put, type Records, type StoreWrite } from '../store';
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

/** References remembered per order or checkout; older ones are settled or long abandoned. */
const MAX_REFERENCES = 20;

/** `now`: the provider's clock as the companion measures it (a transfer's expiry is on it). */
export function createPaymentRecords(store: CheckoutStore, now: () => number) {
  const records: Records = createRecords(store);
  /** The list a checkout's earlier payments are looked up in: its order's, else its own. */
  const earlierList = (of: CheckoutOf) =>
    of.orderId !== null
      ? records.get(orderPaymentsKind, of.orderId)
      : records.get(checkoutPaymentsKind, of.checkoutId);

  return {
    /** The typed store these records live in (for the calls that read or commit beside them). */
    records,

    async get(reference: string): Promise<PaymentRecord | undefined> {
      return records.get(paymentKind, reference);
    },

    /**
     * The writes that save a new payment and remember it under its order and its checkout, for
     * the initiating call's one commit (its lists read here in one round trip).
     */
    async add(record: PaymentRecord, ttlMs?: number | undefined): Promise<StoreWrite[]> {
      const [byOrder, byCheckout] = await records.getMany([
        [orderPaymentsKind, record.orderId ?? ''],
        [checkoutPaymentsKind, record.checkoutId],
      ] as const);
      const withThis = (known: readonly string[] | undefined) =>
        [...(known ?? []).filter((item) => item !== record.reference), record.reference].slice(
          -MAX_REFERENCES,
        );
      return [
        // A card not yet finalized is kept for hours only (issue 20); finalize keeps it 30 days.
        put(paymentKind, record.reference, record, ttlMs || PAYMENT_TTL_MS),
        ...(record.orderId !== null
          ? [put(orderPaymentsKind, record.orderId, withThis(byOrder))]
          : []),
        put(checkoutPaymentsKind, record.checkoutId, withThis(byCheckout)),
      ];
    },

    /**
     * Every payment initiated for this order (by any checkout of it), or for this checkout of a
     * payment link, newest first.
     */
    async earlier(checkout: CheckoutOf): Promise<string[]> {
      return [...((await earlierList(checkout)) ?? [])].reverse();
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

    /** Set before finalize is sent: from then on the card may be charged. */
    async markFinalizeSent(reference: string): Promise<void> {
      // From now on the card may be charged: its record is kept as long as any payment's.
      const record = await records.get(paymentKind, reference);
      await records.commit([
        put(finalizeSentKind, reference, true),
        ...(record ? [put(paymentKind, reference, record)] : []),
      ]);
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
