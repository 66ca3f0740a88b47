/**
 * The companion's checkout use cases, apart from HTTP: start a checkout, initiate (never before
 * the previous payment of the checkout or order is settled), check authentication, finalize,
 * report status, the bank's return. What is remembered lives in `payment-records.ts`, the status
 * cache in `status-cache.ts`, confirmation and reporting in `outcomes.ts`.
 */
import {
  CHANNELS,
  type Channel,
  type Initiation,
  isSafeUrl,
  type Money,
  type PaymentStatus,
  ProviderConflictError,
  ProviderError,
} from '../../protocol';
import type { PaymentViewWire, StatusWire } from '../../protocol/contract';
import { failureDetails, failureReasonOf } from '../../protocol/failure-reason';
import type { ProviderClient } from '../../provider/client';
import { CheckoutError } from '../http';
import { type CheckoutStore, put, type StoreWrite } from '../store';
import type { AttemptContext, AttemptLimits } from './attempt-limits';
import { forBrowser } from './browser-reason';
import { CARD, serverChannel } from './channels';
import {
  challengeKind,
  confirmedKind,
  failureKind,
  finalizeAnswerKind,
  finalizeSentKind,
  firstSuccessKind,
  linkPaidKind,
  orderPaymentsKind,
  outcomeKind,
  paymentKind,
} from './checkout-records';
import type { HostedCard } from './hosted-card';
import { takeInitiationGuards } from './initiation-guards';
import { checkMerchant } from './merchant';
import {
  type CheckoutHandlerOptions,
  type CheckoutLogger,
  checkResolvedOrder,
  type ResolvedOrder,
  tokenSecretsOf,
} from './options';
import type { Outcomes } from './outcomes';
import { createPaymentOwner, withoutDetails } from './payment-owner';
import type {
  FailureDetails,
  FinalStatus,
  PaymentLists,
  PaymentRecord,
  PaymentRecords,
} from './payment-records';
import type { InitiateInputValue } from './schemas';
import type { StatusCache } from './status-cache';
import type { CheckoutClaims, TokenSigner } from './token';
import type { ValidationCache } from './validation-cache';

/** What the browser learns about its payment (the contract's view). */
export type PaymentView = PaymentViewWire;

function isChannel(name: string): name is Channel {
  return (CHANNELS as readonly string[]).includes(name);
}

export interface PaymentServiceDeps {
  readonly options: CheckoutHandlerOptions;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly signer: TokenSigner;
  readonly logger: CheckoutLogger;
  readonly now: () => number;
  readonly records: PaymentRecords;
  readonly status: StatusCache;
  readonly outcomes: Outcomes;
  readonly hosted: HostedCard;
  /** The provider's channel validation, cached per currency and amount. */
  readonly validateChannels: ValidationCache;
  readonly limits: AttemptLimits;
}

/** Who is asking, as far as the limits go: the browser's request and its client address. */
export interface ClientOfRequest {
  readonly request: Request | null;
  readonly address: string | null;
}

/**
 * How often the payment's commit is tried with the lists as read (guarded); past that, once more
 * with them read again and unguarded (as before the guard).
 */
const LIST_TRIES = 5;

/** What became of the earlier payments of a checkout or order, as far as a new one goes. */
type Earlier =
  | { readonly kind: 'paid' | 'pending'; readonly record: PaymentRecord }
  | { readonly kind: 'resume'; readonly record: PaymentRecord; readonly view: PaymentView }
  | { readonly kind: 'none' };

/** Who is starting a payment, for the limits: the checkout's order and id, the caller's address. */
function attemptOf(claims: CheckoutClaims, client: ClientOfRequest): AttemptContext {
  return { orderId: claims.orderId, checkoutId: claims.sid, address: client.address };
}

export function createPaymentService(deps: PaymentServiceDeps) {
  const { options, provider, store, signer, logger, now, records, outcomes, hosted } = deps;
  const typed = records.records;
  const { validateChannels, limits } = deps;
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 2 * 3600;
  const owner = createPaymentOwner(tokenSecretsOf(options));
  // Who is being paid, as every checkout (and a paid order's refusal) carries it (issue 23).
  const merchant = checkMerchant(options.merchant);
  const withMerchant = merchant ? { merchant } : {};

  /**
   * The browser that started this payment (issue 20, item 3): its checkout, or a token bound to
   * it because `/session` was shown the payment's key. Only it sees the account or the bank link.
   */
  const owns = (claims: CheckoutClaims, record: PaymentRecord) =>
    (claims.owner === true && claims.reference === record.reference) ||
    claims.sid === record.checkoutId;

  async function issueToken(claims: Omit<CheckoutClaims, 'exp'>): Promise<string> {
    return signer.sign({
      ...claims,
      exp: Math.floor(now() / 1000) + tokenTtlSeconds,
    } as CheckoutClaims);
  }

  /** What is known for sure: the outcome reported, or the final status the provider confirmed. */
  async function knownStatus(reference: string): Promise<FinalStatus | undefined> {
    return records.known(reference);
  }

  /**
   * A payment that can be picked up again as it is: not failed; a transfer not expired; a card
   * only once finalize was sent (a card whose challenge was left unfinished is never charged, so
   * the customer starts again with their card rather than waiting on it for ever).
   */
  async function resumable(record: PaymentRecord): Promise<PaymentView | undefined> {
    const known = await knownStatus(record.reference);
    if (known === 'FAILED') return undefined;
    if (known === 'SUCCESSFUL') return records.view(record, 'SUCCESSFUL');
    if (!serverChannel(record.channel).resumesUncommitted && !(await records.committed(record)))
      return undefined;
    if (records.expired(record)) return undefined;
    return records.view(record, 'PENDING');
  }

  /**
   * Settles what became of every earlier payment of this checkout or order before a new one
   * (issue 9): a success is shown, never paid again; one that may still succeed without the
   * customer (a card finalize sent, a bank payment the customer came back from) is watched,
   * never replaced; a live one of the same channel is picked up again. The provider is asked
   * (through the status cache) about each one not known to be final.
   */
  async function settleEarlier(
    claims: CheckoutClaims,
    channel: Channel,
  ): Promise<{ earlier: Earlier; lists: PaymentLists }> {
    let resume: { record: PaymentRecord; view: PaymentView } | undefined;
    let pending: PaymentRecord | undefined;
    const of = { orderId: claims.orderId, checkoutId: claims.sid };
    // Read once, under the order's lock: what is settled here, and what a new payment adds to.
    const lists = await records.lists(of);
    const answer = (earlier: Earlier) => ({ earlier, lists });
    for (const reference of records.earlierIn(lists, of)) {
      const record = await records.get(reference);
      if (!record) continue;
      let status: PaymentStatus | undefined = await knownStatus(reference);
      const committed = status === undefined && (await records.committed(record));
      if (status === undefined) {
        try {
          // A card whose finalize answer never came is finalized again here, if still PENDING.
          status = (await outcomes.confirm(reference, committed)).paymentStatus;
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          // Not known: a committed payment stays watched; the rest is looked at again later.
        }
      }
      if (status === 'SUCCESSFUL') return answer({ kind: 'paid', record });
      if (status === 'FAILED') continue;
      if (committed) pending ??= record;
      // Picked up again only by the browser that started it: anyone else gets a payment of their
      // own (a transfer nobody paid into is not committed; should both arrive, one is a duplicate).
      else if (!resume && record.channel === channel && owns(claims, record)) {
        const view = await resumable(record);
        if (view) resume = { record, view };
      }
    }
    if (pending) return answer({ kind: 'pending', record: pending });
    return answer(resume ? { kind: 'resume', ...resume } : { kind: 'none' });
  }

  async function resolve(
    kind: 'order' | 'link',
    id: string,
    request: Request,
  ): Promise<ResolvedOrder> {
    const resolver = kind === 'order' ? options.resolveOrder : options.resolveLink;
    if (!resolver)
      throw new CheckoutError('link_not_supported', 'This checkout does not take payment links.');
    let resolved: unknown;
    try {
      resolved = await resolver(id, request);
    } catch (error) {
      throw new CheckoutError('internal', `The merchant's ${kind} lookup failed.`, {
        cause: error,
      });
    }
    if (resolved === null || resolved === undefined) {
      throw new CheckoutError(
        'order_not_found',
        kind === 'order' ? 'There is no such order to pay.' : 'There is no such payment link.',
      );
    }
    try {
      return checkResolvedOrder(resolved, kind === 'order' ? 'resolveOrder' : 'resolveLink');
    } catch (error) {
      throw new CheckoutError(
        'internal',
        `The merchant’s ${kind} lookup returned something unusable: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /** The checkout's answer for an earlier payment that must be shown or watched, not replaced. */
  async function refuseForEarlier(
    claims: CheckoutClaims,
    earlier: { kind: 'paid' | 'pending'; record: PaymentRecord },
  ): Promise<never> {
    const { record } = earlier;
    const owned = owns(claims, record);
    const shown = (view: PaymentViewWire) => (owned ? view : withoutDetails(view));
    const { owner: _, ...rest } = claims;
    const token = await issueToken({
      ...rest,
      ...(owned ? { owner: true as const } : {}),
      reference: record.reference,
      channel: record.channel,
    });
    if (earlier.kind === 'paid') {
      throw new CheckoutError(
        'already_paid',
        claims.orderId !== null
          ? 'This order has already been paid.'
          : 'This payment has already been made.',
        { payment: { view: shown(records.view(record, 'SUCCESSFUL')), token } },
      );
    }
    throw new CheckoutError(
      'payment_pending',
      'An earlier payment of this order may still succeed; checking it before another.',
      { payment: { view: shown(records.view(record, 'PENDING')), token } },
    );
  }

  /** A page to come back to after a full-page redirect must be of an allowed origin. */
  function checkReturnTo(
    returnTo: string | undefined,
    allowedReturn: (url: string) => boolean,
  ): void {
    if (returnTo !== undefined && !allowedReturn(returnTo)) {
      throw new CheckoutError('invalid_request', 'returnTo must be a page of an allowed origin.', {
        issues: ['returnTo must be on this site or an allowed origin'],
      });
    }
  }

  return {
    /** Starts (or picks up again) the checkout of one order or payment link. */
    async startSession(
      input: {
        order?: string | undefined;
        link?: string | undefined;
        paymentKeys?: readonly string[] | undefined;
      },
      origin: string | null,
      request: Request,
    ) {
      const kind = input.order !== undefined ? 'order' : 'link';
      const id = (input.order ?? input.link) as string;
      const resolved = await resolve(kind, id, request);
      // Paid already, as the merchant says, or as the provider said of this one-time link.
      if (resolved.paid || (kind === 'link' && (await typed.get(linkPaidKind, id)))) {
        throw new CheckoutError(
          'already_paid',
          kind === 'order'
            ? 'This order has already been paid.'
            : 'This payment link has already been paid.',
          {
            // What was paid, so the dialog is titled for the link or order, not "Checkout".
            checkout: {
              description: resolved.description,
              amount: { amountMinor: resolved.amountMinor, currency: resolved.currency },
              ...withMerchant,
            },
          },
        );
      }
      const amount: Money = { amountMinor: resolved.amountMinor, currency: resolved.currency };
      const validation = await validateChannels(amount);
      // What the provider offers for the amount, narrowed to what the merchant allows this order.
      const offered = validation.isValid
        ? validation.channels.filter(
            (channel) =>
              isChannel(channel.name) &&
              (!resolved.channels || resolved.channels.includes(channel.name)),
          )
        : [];
      const claims: Omit<CheckoutClaims, 'exp'> = {
        sid: crypto.randomUUID(),
        orderId: kind === 'order' ? id : null,
        linkAlias: kind === 'link' ? id : null,
        amountMinor: amount.amountMinor,
        currency: amount.currency,
        description: resolved.description,
        channels: offered.map((channel) => channel.name as Channel),
        origin,
        cardEntry: resolved.cardEntry ?? options.cardEntry ?? 'hosted',
      };
      // A returning customer sees the order's success, or the payment still settling ("Checking
      // your payment…"), or the live one to finish: never a form that could charge again.
      let payment: PaymentView | undefined;
      if (kind === 'order') {
        let success: PaymentView | undefined;
        let settling: PaymentView | undefined;
        let live: PaymentView | undefined;
        const of = { orderId: id, checkoutId: '' };
        // The order's first success and its payments, in one read.
        const [first, byOrder] = await typed.getMany([
          [firstSuccessKind, of],
          [orderPaymentsKind, id],
        ] as const);
        for (const reference of records.earlierIn({ byOrder, byCheckout: undefined }, of)) {
          const record = await records.get(reference);
          const view = record ? await resumable(record) : undefined;
          if (!record || !view) continue;
          // Only the browser holding the payment's key sees where the money goes (issue 20): to
          // anyone else a success or a payment settling shows without them, a live one not at all.
          const owned = owner.holds(reference, input.paymentKeys ?? []);
          const shown = owned ? view : withoutDetails(view);
          if (view.status === 'SUCCESSFUL') {
            if (!success || reference === first) success = shown;
          } else if (await records.committed(record)) settling ??= shown;
          else if (owned) live ??= view;
        }
        payment = success ?? settling ?? live;
      }
      const ownsShown =
        payment !== undefined && owner.holds(payment.reference, input.paymentKeys ?? []);
      const token = await issueToken(
        payment
          ? {
              ...claims,
              reference: payment.reference,
              channel: payment.channel,
              ...(ownsShown ? { owner: true as const } : {}),
            }
          : claims,
      );
      return {
        token,
        checkout: {
          amount,
          description: resolved.description,
          channels: offered.map((channel) => ({
            name: channel.name,
            description: channel.description,
          })),
          cardEntry: claims.cardEntry,
          ...withMerchant,
        },
        payment: payment ?? null,
      };
    },

    /**
     * Initiates a payment, once the earlier ones of this checkout or order are settled: the same
     * live payment of the channel is given back; a success answers `already_paid` and one that
     * may still succeed `payment_pending`, each with that payment and its token.
     */
    async initiate(
      claims: CheckoutClaims,
      input: InitiateInputValue,
      publicUrl: string,
      allowedReturn: (url: string) => boolean,
      client: ClientOfRequest = { request: null, address: null },
    ) {
      checkReturnTo(input.returnTo, allowedReturn);
      // On the hosted path the card is typed on the provider's page, never sent here.
      const channel = serverChannel(input.channel);
      const refused = channel.refusedOnInitiate(claims);
      if (refused !== null) throw new CheckoutError('channel_unavailable', refused);
      const attempt = attemptOf(claims, client);
      // The address's budget, the order's lock and the new payment's places (the order's daily
      // budget; a card's attempts, issue 20): one commit, seen by every instance before the
      // provider is asked (issue 25 item 2).
      const guards = await takeInitiationGuards(store, limits, {
        ...attempt,
        card: channel.cardTesting,
        payment: true,
      });
      // What the call's one closing commit writes while no payment is made: the new payment's
      // places given back, the lock released. Undefined once the payment's commit released it.
      let closing: StoreWrite[] | undefined = [...guards.giveBack, guards.release];
      try {
        const { earlier, lists } = await settleEarlier(claims, input.channel);
        if (earlier.kind === 'paid' || earlier.kind === 'pending') {
          return await refuseForEarlier(claims, earlier);
        }
        if (earlier.kind === 'resume') {
          return {
            token: await issueToken({
              ...claims,
              reference: earlier.record.reference,
              channel: input.channel,
              owner: true,
            }),
            payment: earlier.view,
            paymentKey: owner.keyOf(earlier.record.reference),
          };
        }
        if (!claims.channels.includes(input.channel)) {
          throw new CheckoutError(
            'channel_unavailable',
            `${input.channel} cannot take this payment.`,
          );
        }
        // A window of the new payment is full (its order's day, a card's attempts or declines).
        if (guards.refusal) throw guards.refusal;
        // Card testing (issue 20): the merchant's own check (a CAPTCHA) before the card goes.
        if (channel.cardTesting) await limits.askMerchant({ ...attempt, request: client.request });
        let initiation: Initiation;
        try {
          initiation = await provider.initiatePayment({
            channel: input.channel,
            amount: { amountMinor: claims.amountMinor, currency: claims.currency },
            linkAlias: claims.linkAlias ?? undefined,
            customer: input.customer,
            card: input.card,
            ...channel.initiation(publicUrl, input.redirect),
          });
        } catch (error) {
          // The provider never took it (down, slow, rate-limited): the customer's tries are given
          // back. A refusal (an invalid card) counts, as a card tester's would.
          if (!(error instanceof ProviderError) || outcomes.isRefusal(error))
            closing = [guards.release];
          // A one-time link the provider refuses as already paid: say so, kindly, to the customer.
          if (claims.linkAlias !== null && error instanceof ProviderConflictError) {
            closing.push(put(linkPaidKind, claims.linkAlias, true));
            throw new CheckoutError('already_paid', 'This payment link has already been paid.', {
              cause: error,
            });
          }
          throw error;
        }
        // The provider took it: its places stay taken whatever follows.
        closing = [guards.release];
        if (initiation.bankAuthUrl !== null && !isSafeUrl(initiation.bankAuthUrl)) {
          logger.error('paydrop: refused a bank authorisation URL that is not https', {
            reference: initiation.paymentReference,
          });
          throw new CheckoutError(
            'unavailable',
            'The provider sent a bank link that cannot be opened safely.',
          );
        }
        const lacking = channel.lacks(initiation);
        if (lacking !== null) throw new CheckoutError('unavailable', lacking);
        const payment: PaymentRecord = {
          reference: initiation.paymentReference,
          checkoutId: claims.sid,
          orderId: claims.orderId,
          linkAlias: claims.linkAlias,
          channel: input.channel,
          amount: { amountMinor: claims.amountMinor, currency: claims.currency },
          fees: initiation.fees,
          virtualAccount: initiation.virtualAccount,
          bankAuthUrl: initiation.bankAuthUrl,
          returnTo: input.returnTo ?? null,
          createdAt: now(),
        };
        // A card never finalized is never charged: kept, and re-checked, for hours, not days.
        const unfinalizedUntil = channel.cardTesting
          ? now() + limits.limits.unfinalizedCardSeconds * 1000
          : undefined;
        // The payment, its lists, who attempted it, its reconciliation job and the lock's release:
        // one commit (issue 25 item 2), so no payment is kept without the job that settles it.
        const tracking = outcomes.tracking(payment.reference, unfinalizedUntil);
        const rest = [
          ...(channel.cardTesting ? [limits.cardInitiated(payment.reference, attempt)] : []),
          // Reconciled even if no webhook and no browser ever asks again.
          tracking.write,
          guards.release,
        ];
        const ttlMs = unfinalizedUntil && unfinalizedUntil - now();
        // The lists as read under the lock, guarded: should a hosted page's payment have been
        // adopted into them meanwhile (outside the lock), they are read again, never overwritten.
        let current = lists;
        for (let tries = 1; ; tries++) {
          const guarded = tries <= LIST_TRIES;
          const writes = records.addWrites(payment, current, { ttlMs, guarded });
          if (await store.commit([...writes, ...rest])) break;
          current = await records.lists(payment);
        }
        closing = undefined;
        tracking.committed();
        return {
          token: await issueToken({
            ...claims,
            reference: payment.reference,
            channel: input.channel,
            owner: true,
          }),
          payment: records.view(payment, 'PENDING'),
          // Returned once, kept by the widget: it alone may see this payment again (issue 20).
          paymentKey: owner.keyOf(payment.reference),
        };
      } finally {
        if (closing) await store.commit(closing);
      }
    },

    /**
     * Card on the provider's hosted page: the order's one-time link (made now, or the one made
     * before while it is unpaid), once the earlier payments of the order are settled exactly as
     * for `/initiate`. The token it answers follows the page (`cardPagePayment`).
     */
    async openCardPage(
      claims: CheckoutClaims,
      input: { returnTo?: string | undefined },
      publicUrl: string,
      allowedReturn: (url: string) => boolean,
      client: ClientOfRequest = { request: null, address: null },
    ) {
      if (claims.cardEntry === 'direct') {
        throw new CheckoutError(
          'channel_unavailable',
          'Card is entered in the card frame in this checkout, not on a hosted page.',
        );
      }
      if (!claims.channels.includes(CARD)) {
        throw new CheckoutError('channel_unavailable', 'Card cannot take this payment.');
      }
      checkReturnTo(input.returnTo, allowedReturn);
      const attempt = attemptOf(claims, client);
      // Card testing (issue 20) on the hosted path too: each opening of the page is an attempt,
      // refused once the order, checkout or address has had its declines (counted as the page's
      // payments are learnt). Taken with the address's budget and the order's lock in one commit.
      const guards = await takeInitiationGuards(store, limits, {
        ...attempt,
        card: true,
        payment: false,
      });
      // The call's one closing commit: the lock's release, the attempt given back while no page
      // was made, and the page remembered once it is.
      let closing: StoreWrite[] = [...guards.giveBack, guards.release];
      try {
        const { earlier } = await settleEarlier(claims, CARD);
        if (earlier.kind === 'paid' || earlier.kind === 'pending') {
          return await refuseForEarlier(claims, earlier);
        }
        if (guards.refusal) throw guards.refusal;
        // The merchant's own check (a CAPTCHA) before the page is made.
        await limits.askMerchant({ ...attempt, request: client.request });
        // The provider never makes the page (it throws): the attempt is given back.
        const { page, writes } = await hosted.open({
          checkoutId: claims.sid,
          orderId: claims.orderId,
          linkAlias: claims.linkAlias,
          amount: { amountMinor: claims.amountMinor, currency: claims.currency },
          description: claims.description || 'Payment',
          returnUrl: `${publicUrl}/return`,
          returnTo: input.returnTo ?? null,
          opener: attempt,
        });
        closing = [...writes, guards.release];
        if (!isSafeUrl(page.url)) {
          logger.error('paydrop: refused a hosted payment page URL that is not https', {
            alias: page.alias,
          });
          throw new CheckoutError(
            'unavailable',
            'The provider sent a payment page that cannot be opened safely.',
          );
        }
        const { reference: _reference, ...rest } = claims;
        return {
          token: await issueToken({ ...rest, hosted: page.alias }),
          url: page.url,
          alias: page.alias,
        };
      } finally {
        await store.commit(closing);
      }
    },

    /** What became of the hosted card page: its payment (with a token opening it), a cancel, or nothing yet. */
    async cardPagePayment(claims: CheckoutClaims) {
      if (!claims.hosted) throw new CheckoutError('not_initiated', 'Open the card page first.');
      const seen = await hosted.outcome(claims.hosted);
      const record = seen.reference ? await records.get(seen.reference) : undefined;
      if (!record) return { payment: null, token: null, cancelled: seen.cancelled };
      // A failure is left for `/status` to tell, with why (a declined card, a failed challenge).
      const status =
        (await knownStatus(record.reference)) === 'SUCCESSFUL' ? 'SUCCESSFUL' : 'PENDING';
      const { hosted: _hosted, ...rest } = claims;
      return {
        payment: records.view(record, status),
        token: await issueToken({ ...rest, reference: record.reference, channel: CARD }),
        cancelled: false,
      };
    },

    /** The authentication check; a challenge is kept for the challenge page to serve. */
    async authenticate(reference: string, challengeUrl: string) {
      const check = await provider.checkAuthentication(reference);
      if (check.authenticationRequired && check.challengeHtml) {
        await typed.commit([put(challengeKind, reference, check.challengeHtml)]);
        return { authenticationRequired: true, challengeUrl };
      }
      return { authenticationRequired: false, challengeUrl: null };
    },

    async challengeHtml(reference: string): Promise<string | undefined> {
      return typed.get(challengeKind, reference);
    },

    /**
     * Finalize. Marked as sent before it goes, so that from then on the payment is settled (never
     * replaced) whatever happens to the answer. A second call for the same payment settles
     * instead: status first, finalize again only while the provider still says PENDING.
     */
    async finalize(reference: string) {
      // Everything this call looks at first, in one read.
      const [reported, confirmed, sent, answered, record, failure] = await typed.getMany([
        [outcomeKind, reference],
        [confirmedKind, reference],
        [finalizeSentKind, reference],
        [finalizeAnswerKind, reference],
        [paymentKind, reference],
        [failureKind, reference],
      ] as const);
      const known = reported ?? confirmed;
      if (known)
        return {
          reference,
          status: known,
          ...(known === 'FAILED' ? forBrowser(failure ?? {}) : {}),
        };
      const why = async (status: PaymentStatus) =>
        status === 'FAILED' ? forBrowser(await records.failure(reference)) : {};
      if (sent === true && !answered) {
        const settled = await outcomes.confirmKnown(reference, true);
        const status = settled.known ?? settled.answer.paymentStatus;
        return { reference, status, ...(await why(status)) };
      }
      // Before it goes, in a commit of its own: from now on the card may be charged, so a lost
      // answer settles it (never a second payment, never a blind second finalize).
      await typed.commit(records.finalizeSentWrites(reference, record));
      let finalization: { status: PaymentStatus; message?: string };
      try {
        finalization = await provider.finalizePayment(reference);
      } catch (error) {
        if (outcomes.isRefusal(error)) await records.setFinalizeAnswer(reference, 'REFUSED');
        // Lost, slow or 5xx: the card may be charged. Settle it in the background too, so the
        // outcome is reported even if the customer closes the tab now.
        else await outcomes.hint(reference, now() + 1000);
        throw error;
      }
      // The answer goes in the report's first commit (with the confirmed status and its lock),
      // or on its own while the payment is PENDING.
      let settled: FinalStatus | undefined;
      if (finalization.status !== 'PENDING')
        settled = (await outcomes.confirmKnown(reference, true, finalization.status)).known;
      else await records.setFinalizeAnswer(reference, 'PENDING');
      const status = settled ?? finalization.status;
      // Why it failed, in the contract's words, so the customer hears why (issue 12).
      const reason = status === 'FAILED' ? failureReasonOf(finalization.message ?? '') : null;
      // Counted at once (once per reference), so the next attempt already meets the limit: the
      // report counted it with its lock; here when no report settled it.
      if (status === 'FAILED' && settled === undefined) await limits.cardDeclined(reference);
      return { reference, status, ...forBrowser(reason ? { reason } : {}) };
    },

    /**
     * The payment's status. A card whose finalize answer was lost is settled here (finalize
     * again if the provider still says PENDING), so a widget asking after a finalize error
     * learns PENDING, then SUCCESSFUL or FAILED.
     */
    async status(reference: string): Promise<StatusWire> {
      const { reported, confirmed } = await records.finalStatuses(reference);
      let status: PaymentStatus | undefined = reported;
      let failure: FailureDetails | undefined;
      if (!status) {
        if (confirmed) {
          status = confirmed;
          // Confirmed but not yet reported (the hook failed): offer it to the hook again. The
          // job keeps trying should this fail too; the browser has its answer either way.
          await outcomes.confirm(reference).catch(() => undefined);
        } else {
          const answer = await outcomes.confirm(reference);
          status = answer.paymentStatus;
          failure = failureDetails(answer);
        }
      }
      // Why it failed (issue 12): a transfer short or expired, a card whose finalize was lost.
      if (status === 'FAILED') failure ??= await records.failure(reference);
      // The provider's clock, so a widget counts down to its expiry and corrects a customer's
      // clock that jumped or slept.
      return {
        reference,
        status,
        serverTime: new Date(records.now()).toISOString(),
        ...(status === 'FAILED' && failure ? forBrowser(failure) : {}),
      };
    },

    /** A browser starts watching: a card whose finalize answer never came is settled now. */
    async watching(reference: string): Promise<void> {
      const finalizing = await records.finalizing(reference);
      if (!(await knownStatus(reference)) && finalizing.sent && !finalizing.answer) {
        await outcomes.hint(reference);
      }
    },

    /**
     * The page the bank, or the provider's hosted card page (`alias`), sends the customer back
     * to: where to go next, and a status check. A card page's payment is adopted first.
     */
    async bankReturn(
      reference: string | null,
      alias: string | null = null,
      cancelled = false,
    ): Promise<{ returnTo: string | null }> {
      if (alias !== null) {
        const page = await hosted.attempt(alias);
        if (!page) return { returnTo: null };
        if (reference === null || cancelled) {
          await hosted.cancelled(alias);
          return { returnTo: page.returnTo };
        }
        await hosted.adopt(reference, alias);
      }
      if (reference === null) return { returnTo: null };
      const payment = await records.get(reference);
      // Anyone can load this page with any reference: only a payment of ours is looked at.
      if (payment) {
        // The return and, unless reported, a confirmation through the status cache (reloading
        // this page cannot flood the provider): one commit.
        const hint = (await records.reported(reference))
          ? undefined
          : outcomes.hinting(reference, now(), false);
        await typed.commit([records.returnedWrite(reference), ...(hint ? [hint.write] : [])]);
        hint?.committed();
      }
      return { returnTo: payment?.returnTo ?? null };
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
