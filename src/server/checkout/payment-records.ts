/**
 * What the companion remembers about the payments it initiated, all in the store as plain JSON:
 * each payment's record, every reference initiated per order and per checkout (so a new payment
 * is never started before the previous one is settled, issue 9), how far a card's finalize got,
 * the provider-confirmed status and the outcome reported to the merchant.
 */
import type { Channel, Money, PaymentStatus } from '../../protocol';
import type {
  PaymentFailureReason,
  PaymentViewWire,
  VirtualAccountWire,
} from '../../protocol/contract';
import type { CheckoutStore } from '../store';
import { serverChannel } from './channels';

export const DAY_MS = 24 * 3600 * 1000;
/** How long what the companion knows about one payment is kept. */
export const PAYMENT_TTL_MS = 30 * DAY_MS;
/** References remembered per order or checkout; older ones are settled or long abandoned. */
const MAX_REFERENCES = 20;

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

/** `now`: the provider's clock as the companion measures it (a transfer's expiry is on it). */
export function createPaymentRecords(store: CheckoutStore, now: () => number) {
  const listKeys = (record: { orderId: string | null; checkoutId: string }) => [
    ...(record.orderId !== null ? [`payments:order:${record.orderId}`] : []),
    `payments:checkout:${record.checkoutId}`,
  ];

  async function referencesOf(key: string): Promise<string[]> {
    const value = await store.get(key);
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  }

  return {
    async get(reference: string): Promise<PaymentRecord | undefined> {
      return (await store.get(`payment:${reference}`)) as PaymentRecord | undefined;
    },

    /** Saves a new payment and remembers it under its order and its checkout. */
    async add(record: PaymentRecord, ttlMs?: number | undefined): Promise<void> {
      // A card not yet finalized is kept for hours only (issue 20); finalize keeps it 30 days.
      await store.set(`payment:${record.reference}`, record, ttlMs || PAYMENT_TTL_MS);
      for (const key of listKeys(record)) {
        const known = (await referencesOf(key)).filter((item) => item !== record.reference);
        await store.set(key, [...known, record.reference].slice(-MAX_REFERENCES), PAYMENT_TTL_MS);
      }
    },

    /**
     * Every payment initiated for this order (by any checkout of it), or for this checkout of a
     * payment link, newest first.
     */
    async earlier(checkout: { orderId: string | null; checkoutId: string }): Promise<string[]> {
      const [key = ''] = listKeys(checkout);
      return (await referencesOf(key)).reverse();
    },

    /** The status the provider confirmed as final (whether or not the merchant heard yet). */
    async confirmed(reference: string): Promise<FinalStatus | undefined> {
      return (await store.get(`confirmed:${reference}`)) as FinalStatus | undefined;
    },
    /** `failure`, when given, keeps why a FAILED payment failed (issue 12), for `/status`. */
    async setConfirmed(
      reference: string,
      status: FinalStatus,
      failure: FailureDetails = {},
    ): Promise<void> {
      if (failure.reason) await store.set(`failure:${reference}`, failure, PAYMENT_TTL_MS);
      await store.set(`confirmed:${reference}`, status, PAYMENT_TTL_MS);
    },

    /** Why a confirmed FAILED payment failed, as far as the provider said; {} when it did not. */
    async failure(reference: string): Promise<FailureDetails> {
      const known = await store.get(`failure:${reference}`);
      return known && typeof known === 'object' ? (known as FailureDetails) : {};
    },

    /** Now on the provider's clock (as measured), the clock of every instant the browser gets. */
    now,

    /** The outcome reported to the merchant's hook (and the browsers), once. */
    async reported(reference: string): Promise<FinalStatus | undefined> {
      return (await store.get(`outcome:${reference}`)) as FinalStatus | undefined;
    },

    /** Set before finalize is sent: from then on the card may be charged. */
    async markFinalizeSent(reference: string): Promise<void> {
      await store.set(`finalize-sent:${reference}`, true, PAYMENT_TTL_MS);
      // From now on the card may be charged: its record is kept as long as any payment's.
      const record = await store.get(`payment:${reference}`);
      if (record) await store.set(`payment:${reference}`, record, PAYMENT_TTL_MS);
    },
    async finalizeSent(reference: string): Promise<boolean> {
      return (await store.get(`finalize-sent:${reference}`)) === true;
    },
    async setFinalizeAnswer(reference: string, answer: FinalizeAnswer): Promise<void> {
      await store.set(`finalize-answer:${reference}`, answer, PAYMENT_TTL_MS);
    },
    async finalizeAnswer(reference: string): Promise<FinalizeAnswer | undefined> {
      return (await store.get(`finalize-answer:${reference}`)) as FinalizeAnswer | undefined;
    },

    /** The bank sent the customer back: a PENDING bank payment is now settling. */
    async markReturned(reference: string): Promise<void> {
      await store.set(`returned:${reference}`, true, PAYMENT_TTL_MS);
    },

    /**
     * True when the payment may still succeed without the customer doing anything more: a card
     * whose finalize was sent and not refused, a bank payment the customer came back from. A
     * transfer nobody has paid into is not: the customer may choose another way (and should both
     * arrive, the second is reported as a duplicate).
     */
    async committed(record: PaymentRecord): Promise<boolean> {
      return serverChannel(record.channel).committed({
        finalizedUnrefused: async () =>
          (await this.finalizeSent(record.reference)) &&
          (await this.finalizeAnswer(record.reference)) !== 'REFUSED',
        returned: async () => (await store.get(`returned:${record.reference}`)) === true,
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
