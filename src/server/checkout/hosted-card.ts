/**
 * Card on the provider's hosted page (issue 19): the default card path, on which the merchant
 * never receives card data (PCI DSS SAQ A). For a card payment the companion makes a one-time
 * payment link for the order, at the amount the merchant decided, and the customer pays on the
 * link's page, on the provider's origin. The page sends the customer back to the companion's
 * return page with `?reference=&alias=`, and the payment webhook carries `link.alias`: either one
 * tells the companion which payment the page made, and the payment is then remembered and
 * confirmed like any other (records, outcomes, the browser's stream).
 *
 * One link per order attempt, reused until it is paid: a one-time link takes one payment, so
 * however often the customer reopens the page, or opens it in two tabs, the order is charged
 * once.
 */
import type { Money } from '../../protocol';
import type { ProviderClient } from '../../provider/client';
import {
  type CheckoutStore,
  checkFields,
  checkString,
  checkTrue,
  createRecords,
  put,
  putNew,
  recordKind,
  remove,
  type StoreWrite,
} from '../store';
import type { AttemptContext, AttemptLimits } from './attempt-limits';
import { CARD } from './channels';
import { type CheckoutOf, finalizeSentKind, paymentKind } from './checkout-records';
import type { Outcomes } from './outcomes';
import { PAYMENT_TTL_MS, type PaymentRecord, type PaymentRecords } from './payment-records';

/** A hosted card page opened for one order (or one checkout of a payment link). */
export interface HostedCardAttempt {
  /** The provider's alias of the one-time link behind the page. */
  readonly alias: string;
  /** The page's URL (the link's `link`). */
  readonly url: string;
  readonly checkoutId: string;
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly amount: Money;
  /** The merchant page a full-page redirect comes back to, when the window was blocked. */
  readonly returnTo: string | null;
  /** Who opened the page last, for the card-testing limits: a decline on it counts against them. */
  readonly opener: AttemptContext;
  readonly createdAt: number;
}

/** How long a page's link is offered again for the same order before a new one is made. */
const REUSE_MS = 24 * 3600 * 1000;

export interface HostedCardDeps {
  readonly limits: AttemptLimits;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly records: PaymentRecords;
  readonly outcomes: Outcomes;
  readonly now: () => number;
}

/** A page opened (by its alias). */
const hostedPageKind = recordKind<HostedCardAttempt>({
  name: 'hosted',
  ttlMs: PAYMENT_TTL_MS,
  check: checkFields<HostedCardAttempt>({
    alias: 'string',
    url: 'string',
    checkoutId: 'string',
    orderId: 'string|null',
    linkAlias: 'string|null',
    amount: 'object',
    returnTo: 'string|null',
    opener: 'object',
    createdAt: 'number',
  }),
});
/** The page of an order (or link checkout): its alias. */
const hostedPageOfKind = recordKind<string, CheckoutOf>({
  name: 'hosted',
  ttlMs: PAYMENT_TTL_MS,
  check: checkString,
  key: (of) =>
    of.orderId !== null ? `hosted:order:${of.orderId}` : `hosted:checkout:${of.checkoutId}`,
});
/** The payment a page made this visit (by the page's alias). */
const hostedPaymentKind = recordKind<string>({
  name: 'hosted-payment',
  ttlMs: PAYMENT_TTL_MS,
  check: checkString,
});
/** The customer cancelled on the page (by its alias). */
const hostedCancelledKind = recordKind<true>({
  name: 'hosted-cancelled',
  ttlMs: REUSE_MS,
  check: checkTrue,
});
/** The page a payment was made on (by the payment's reference): the first word stands. */
const hostedOfKind = recordKind<string>({
  name: 'hosted-of',
  ttlMs: PAYMENT_TTL_MS,
  check: checkString,
});

export function createHostedCard({
  limits,
  provider,
  store,
  records,
  outcomes,
  now,
}: HostedCardDeps) {
  const typed = createRecords(store);

  async function attempt(alias: string): Promise<HostedCardAttempt | undefined> {
    return typed.get(hostedPageKind, alias);
  }

  return {
    attempt,

    /**
     * The page for this order: the one already made, while it is not paid and not old, else a
     * new one-time link at the decided amount. Whatever the customer saw on a page before
     * (a payment, a cancel) is forgotten, so the widget waits for what this visit does. Answers
     * the page and the writes that remember it, for the opening call's one closing commit.
     */
    async open(input: {
      readonly checkoutId: string;
      readonly orderId: string | null;
      readonly linkAlias: string | null;
      readonly amount: Money;
      readonly description: string;
      readonly returnUrl: string;
      readonly returnTo: string | null;
      readonly opener: AttemptContext;
    }): Promise<{ page: HostedCardAttempt; writes: StoreWrite[] }> {
      const known = await typed.get(hostedPageOfKind, input);
      const existing = known ? await attempt(known) : undefined;
      if (
        existing &&
        now() - existing.createdAt < REUSE_MS &&
        existing.amount.amountMinor === input.amount.amountMinor &&
        existing.amount.currency === input.amount.currency
      ) {
        const updated = { ...existing, returnTo: input.returnTo, opener: input.opener };
        return {
          page: updated,
          writes: [
            remove(hostedPaymentKind, existing.alias),
            remove(hostedCancelledKind, existing.alias),
            put(hostedPageKind, existing.alias, updated),
          ],
        };
      }
      const link = await provider.createPaymentLink({
        // The page shows the name; the same words again as a description would only repeat it.
        name: input.description,
        linkType: 'OneTime',
        currency: input.amount.currency,
        amount: input.amount,
        returnUrl: input.returnUrl,
      });
      const created: HostedCardAttempt = {
        alias: link.alias,
        url: link.url,
        checkoutId: input.checkoutId,
        orderId: input.orderId,
        linkAlias: input.linkAlias,
        amount: input.amount,
        returnTo: input.returnTo,
        opener: input.opener,
        createdAt: now(),
      };
      return {
        page: created,
        writes: [
          put(hostedPageKind, created.alias, created),
          put(hostedPageOfKind, input, created.alias),
        ],
      };
    },

    /**
     * The page made payment `reference` (its return page said so, or the provider's webhook):
     * remember it as a card payment of the page's order, already finalized by the page, and
     * confirm it with the provider. False when `alias` is no page of ours, or the reference is
     * already another page's or another payment's: the first word stands.
     */
    async adopt(reference: string, alias: string): Promise<boolean> {
      const [page, initiated] = await typed.getMany([
        [hostedPageKind, alias],
        [paymentKind, reference],
      ] as const);
      if (!page) return false;
      // A reference the companion initiated itself is not a page's, whatever a URL says.
      if (initiated) return (await typed.get(hostedOfKind, reference)) === alias;
      const record: PaymentRecord = {
        reference,
        checkoutId: page.checkoutId,
        orderId: page.orderId,
        linkAlias: page.linkAlias,
        channel: CARD,
        amount: page.amount,
        fees: { amountMinor: 0, currency: page.amount.currency },
        virtualAccount: null,
        bankAuthUrl: null,
        returnTo: page.returnTo,
        createdAt: now(),
      };
      const hint = outcomes.hinting(reference, now(), false);
      // All of it or none, in one commit guarded by the reference's page (the first word stands).
      const adopted = await typed.commit([
        putNew(hostedOfKind, reference, alias),
        ...(await records.add(record)),
        // A decline of this payment counts against whoever opened the page (its address included).
        limits.cardInitiated(reference, page.opener),
        // The page finalized it: from now on it may succeed without the customer, so the order is
        // never paid again meanwhile, and the companion never finalizes it a second time.
        put(finalizeSentKind, reference, true),
        records.finalizeAnswerWrite(reference, 'PENDING'),
        put(hostedPaymentKind, alias, reference),
        remove(hostedCancelledKind, alias),
        hint.write,
      ]);
      if (!adopted) return (await typed.get(hostedOfKind, reference)) === alias;
      hint.committed();
      return true;
    },

    /** The customer cancelled on the page. */
    async cancelled(alias: string): Promise<void> {
      if (await attempt(alias)) await typed.commit([put(hostedCancelledKind, alias, true)]);
    },

    /** What this visit of the page did so far: a payment's reference, a cancel, or nothing. */
    async outcome(alias: string): Promise<{ reference: string | null; cancelled: boolean }> {
      const [reference, cancelled] = await typed.getMany([
        [hostedPaymentKind, alias],
        [hostedCancelledKind, alias],
      ] as const);
      if (reference) return { reference, cancelled: false };
      return { reference: null, cancelled: cancelled === true };
    },
  };
}

export type HostedCard = ReturnType<typeof createHostedCard>;

/** The payment link alias a payment webhook names (`data.link.alias`), if any. */
export function linkAliasOfWebhook(json: unknown): string | null {
  const data = (json as { data?: { link?: { alias?: unknown } } } | null)?.data;
  const alias = data?.link?.alias;
  return typeof alias === 'string' && /^[\w.:-]{1,128}$/.test(alias) ? alias : null;
}
