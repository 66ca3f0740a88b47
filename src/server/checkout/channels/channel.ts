/**
 * What a channel is to the companion's checkout: one object per channel, in its own module here,
 * listed once in SERVER_CHANNELS (index.ts). payments.ts, payment-records.ts, outcomes.ts and the
 * schemas ask it instead of naming the channel.
 */
import type { Initiation } from '../../../protocol';
import type { InitiatePaymentInput } from '../../../provider/client';
import type { CheckoutClaims } from '../token';

/** What the payment records know that a channel's "committed" may depend on. */
export interface CommitFacts {
  /** Finalize was sent for it and not refused. */
  readonly finalizedUnrefused: () => Promise<boolean>;
  /** The customer came back from the bank. */
  readonly returned: () => Promise<boolean>;
}

export interface ServerChannel {
  /**
   * Whether the card-testing limits apply (issue 20): its attempts and declines are counted, and
   * a payment of it never finalized is kept for hours, not days.
   */
  readonly cardTesting: boolean;
  /**
   * Whether only the card frame starts it (POST /card, with the card it alone may send): the
   * page's /initiate refuses it.
   */
  readonly startedByCardFrame: boolean;
  /** Why this checkout's /initiate may not start it (the card on the provider's page), or null. */
  refusedOnInitiate(claims: CheckoutClaims): string | null;
  /** What the provider's initiation carries for it beyond the common fields. */
  initiation(
    publicUrl: string,
    redirect: boolean | undefined,
  ): Pick<InitiatePaymentInput, 'returnUrl' | 'redirect'>;
  /** What the provider's answer lacks for the customer to pay by it (a bank link), or null. */
  lacks(initiation: Initiation): string | null;
  /**
   * Whether the payment may still succeed without the customer doing anything more (a card
   * finalized, a bank payment the customer came back from); a pending payment that is not is
   * offered again only if `resumesUncommitted`.
   */
  committed(facts: CommitFacts): Promise<boolean>;
  /** Whether a live payment of it not yet committed is picked up again as it is. */
  readonly resumesUncommitted: boolean;
}
