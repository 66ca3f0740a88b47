/**
 * The companion's payment logic, apart from HTTP: start a checkout, initiate once, check
 * authentication, finalize, report status, and turn a confirmed status into an outcome reported
 * exactly once (to the merchant's hook and to every browser watching).
 */
import {
  CHANNELS,
  type Channel,
  type Initiation,
  isSafeUrl,
  type Money,
  type PaymentStatus,
  type PaymentStatusReport,
  ProviderConflictError,
  ProviderError,
} from '../protocol';
import type { ProviderClient } from '../provider/client';
import { CheckoutError } from './errors';
import {
  type CheckoutHandlerOptions,
  type CheckoutLogger,
  checkResolvedOrder,
  type PaymentOutcome,
  type ResolvedOrder,
} from './options';
import type { InitiateInputValue } from './schemas';
import type { CheckoutStore } from './store';
import type { CheckoutClaims, TokenSigner } from './token';

/** What the browser learns about its payment: never more than the customer needs. */
export interface PaymentView {
  readonly reference: string;
  readonly channel: Channel;
  readonly status: PaymentStatus;
  readonly amount: Money;
  readonly fees: Money;
  readonly virtualAccount: {
    readonly bank: string;
    readonly accountNumber: string;
    readonly accountName: string;
    readonly note: string;
    readonly expiresAt: string;
  } | null;
  readonly bankAuthUrl: string | null;
  /** The server's clock when this was written, so the widget can correct the customer's. */
  readonly serverTime: string;
}

interface StatusEntry {
  at: number;
  readonly report: Promise<PaymentStatusReport>;
  inFlight: boolean;
  followUp?: Promise<PaymentStatusReport>;
}

/** What the store keeps per payment reference. */
interface PaymentRecord {
  readonly reference: string;
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly channel: Channel;
  readonly amount: Money;
  readonly fees: Money;
  readonly virtualAccount: PaymentView['virtualAccount'];
  readonly bankAuthUrl: string | null;
  readonly returnTo: string | null;
  readonly createdAt: number;
}

const DAY_MS = 24 * 3600 * 1000;
const STATUS_CACHE_MS = 1000;
const RECHECK_DELAYS_MS = [1000, 2000, 4000, 8000];
const HOOK_RETRY_MS = [5_000, 30_000, 120_000];

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
  /** Runs work after the response; failures are logged, never thrown. */
  readonly background: (work: () => Promise<unknown>) => void;
  readonly later: (delayMs: number, work: () => void) => void;
}

export function createPaymentService(deps: PaymentServiceDeps) {
  const { options, provider, store, signer, logger, now } = deps;
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 2 * 3600;
  const statusCache = new Map<string, StatusEntry>();
  const hookFailures = new Map<string, number>();

  function checkoutKey(claims: CheckoutClaims): string {
    return claims.orderId !== null
      ? `active:order:${claims.orderId}`
      : `active:session:${claims.sid}`;
  }

  async function issueToken(claims: Omit<CheckoutClaims, 'exp'>): Promise<string> {
    return signer.sign({
      ...claims,
      exp: Math.floor(now() / 1000) + tokenTtlSeconds,
    } as CheckoutClaims);
  }

  async function record(reference: string): Promise<PaymentRecord | undefined> {
    return (await store.get(`payment:${reference}`)) as PaymentRecord | undefined;
  }

  async function outcomeOf(reference: string): Promise<'SUCCESSFUL' | 'FAILED' | undefined> {
    return (await store.get(`outcome:${reference}`)) as 'SUCCESSFUL' | 'FAILED' | undefined;
  }

  function view(payment: PaymentRecord, status: PaymentStatus): PaymentView {
    return {
      reference: payment.reference,
      channel: payment.channel,
      status,
      amount: payment.amount,
      fees: payment.fees,
      virtualAccount: payment.virtualAccount,
      bankAuthUrl: payment.bankAuthUrl,
      serverTime: new Date(now()).toISOString(),
    };
  }

  /**
   * A payment that can be picked up again: not failed; for a transfer not expired; for a card
   * only once finalized (a card whose challenge was left unfinished is never charged, so the
   * customer starts again with their card rather than waiting on it for ever).
   */
  async function resumable(reference: string): Promise<PaymentView | undefined> {
    const payment = await record(reference);
    if (!payment) return undefined;
    const outcome = await outcomeOf(reference);
    if (outcome === 'FAILED') return undefined;
    if (payment.channel === 'Card' && !outcome && !(await store.get(`finalized:${reference}`))) {
      return undefined;
    }
    const expiresAt = payment.virtualAccount
      ? Date.parse(payment.virtualAccount.expiresAt)
      : undefined;
    if (!outcome && expiresAt !== undefined && expiresAt <= now()) return undefined;
    return view(payment, outcome ?? 'PENDING');
  }

  /**
   * Reports a final status once: to the merchant's hook, then to every browser watching. If the
   * hook throws, the claim is released so the next confirmation tries again.
   */
  async function settle(report: PaymentStatusReport): Promise<void> {
    const reference = report.paymentReference;
    const status = report.paymentStatus;
    if (status === 'PENDING') return;
    if (!(await store.add(`outcome:${reference}`, status, 30 * DAY_MS))) return;
    const payment = await record(reference);
    const outcome: PaymentOutcome = {
      reference,
      status,
      orderId: payment?.orderId ?? null,
      linkAlias: payment?.linkAlias ?? null,
      channel: payment?.channel ?? null,
      amount: report.amount,
      amountMatches:
        payment === undefined ||
        (payment.amount.amountMinor === report.amount.amountMinor &&
          payment.amount.currency === report.amount.currency),
    };
    if (!outcome.amountMatches) {
      logger.warn('paydrop: the provider reports a different amount than the merchant decided', {
        reference,
        expected: payment?.amount,
        reported: report.amount,
      });
    }
    try {
      await options.onPaymentOutcome?.(outcome);
    } catch (error) {
      await store.delete(`outcome:${reference}`);
      const failures = (hookFailures.get(reference) ?? 0) + 1;
      hookFailures.set(reference, failures);
      const retryIn = HOOK_RETRY_MS[failures - 1];
      logger.error('paydrop: onPaymentOutcome failed; the outcome will be reported again', {
        reference,
        retryInMs: retryIn ?? null,
        error: error instanceof Error ? error.message : String(error),
      });
      // Offered again by the next webhook or status check, and meanwhile on a timer.
      if (retryIn !== undefined) deps.later(retryIn, () => confirmHint(reference));
      return;
    }
    hookFailures.delete(reference);
    await store.append(`events:${reference}`, { type: 'status', reference, status });
  }

  /** Status from the provider, one call per reference per second however many ask. */
  function request(reference: string): StatusEntry {
    // Bounded, oldest first (a Map keeps insertion order): evicting costs at most an extra
    // call, and a sweep that stops at half the size keeps each call's share constant.
    if (statusCache.size > 1000) {
      for (const [key, entry] of statusCache) {
        if (statusCache.size <= 500) break;
        if (!entry.inFlight) statusCache.delete(key);
      }
    }
    const entry: StatusEntry = {
      at: now(),
      report: provider.paymentStatus(reference),
      inFlight: true,
    };
    statusCache.set(reference, entry);
    entry.report.then(
      () => {
        entry.inFlight = false;
        entry.at = now();
      },
      () => {
        if (statusCache.get(reference) === entry) statusCache.delete(reference);
      },
    );
    return entry;
  }

  /**
   * Status from the provider, one call per reference per second however many ask. `fresh`
   * (a webhook or the bank's return says something changed) wants an answer asked after the
   * hint: a call already in flight may be stale, so every hint that arrives meanwhile shares one
   * follow-up call. A burst of hints costs at most two calls.
   */
  function providerStatus(reference: string, fresh = false): Promise<PaymentStatusReport> {
    const cached = statusCache.get(reference);
    if (!fresh) {
      if (cached && (cached.inFlight || now() - cached.at < STATUS_CACHE_MS)) return cached.report;
      return request(reference).report;
    }
    if (cached?.inFlight) {
      cached.followUp ??= cached.report.then(
        () => request(reference).report,
        () => request(reference).report,
      );
      return cached.followUp;
    }
    return request(reference).report;
  }

  /** Confirms with the status operation and settles a final answer. */
  async function confirm(reference: string, fresh = false): Promise<PaymentStatus> {
    const report = await providerStatus(reference, fresh);
    await settle(report);
    return report.paymentStatus;
  }

  /** References with a confirmation chain running, so a flood of hints costs one chain each. */
  const confirming = new Set<string>();

  /**
   * After a webhook or the bank's return: confirm with the status operation (through the
   * one-second cache, so hints cannot flood the provider), and if the provider is not there yet,
   * look again a few times.
   */
  function confirmHint(reference: string, fresh = true): void {
    if (confirming.has(reference)) {
      // A chain is already looking again later; a provider's hint still earns one look now.
      if (fresh) deps.background(() => confirm(reference, true).catch(() => undefined));
      return;
    }
    confirming.add(reference);
    const attempt = (index: number) =>
      deps.background(async () => {
        let status: PaymentStatus | undefined;
        try {
          status = await confirm(reference, fresh || index > 0);
        } catch (error) {
          logger.warn('paydrop: could not confirm a payment with the status operation', {
            reference,
            error: error instanceof ProviderError ? error.name : String(error),
          });
        }
        const delay = RECHECK_DELAYS_MS[index];
        if (status !== 'SUCCESSFUL' && status !== 'FAILED' && delay !== undefined) {
          deps.later(delay, () => attempt(index + 1));
        } else {
          confirming.delete(reference);
        }
      });
    attempt(0);
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

  return {
    /** Starts (or picks up again) the checkout of one order or payment link. */
    async startSession(
      input: { order?: string | undefined; link?: string | undefined },
      origin: string | null,
      request: Request,
    ) {
      const kind = input.order !== undefined ? 'order' : 'link';
      const id = (input.order ?? input.link) as string;
      const resolved = await resolve(kind, id, request);
      // Paid already, as the merchant says, or as the provider said of this one-time link.
      if (resolved.paid || (kind === 'link' && (await store.get(`link-paid:${id}`)))) {
        throw new CheckoutError(
          'already_paid',
          kind === 'order'
            ? 'This order has already been paid.'
            : 'This payment link has already been paid.',
        );
      }
      const amount: Money = { amountMinor: resolved.amountMinor, currency: resolved.currency };
      const validation = await provider.validateChannels(amount);
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
      };
      let payment: PaymentView | undefined;
      if (kind === 'order') {
        const active = (await store.get(`active:order:${id}`)) as string | undefined;
        if (active) payment = await resumable(active);
      }
      const token = await issueToken(
        payment ? { ...claims, reference: payment.reference, channel: payment.channel } : claims,
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
        },
        payment: payment ?? null,
      };
    },

    /** Initiates once per checkout and channel; a repeat gets the payment already made. */
    async initiate(
      claims: CheckoutClaims,
      input: InitiateInputValue,
      publicUrl: string,
      allowedReturn: (url: string) => boolean,
    ) {
      const key = checkoutKey(claims);
      const active = (await store.get(key)) as string | undefined;
      if (active) {
        const existing = await record(active);
        if ((await outcomeOf(active)) === 'SUCCESSFUL') {
          // The same channel again gets the paid payment to show; another one is refused.
          if (existing?.channel !== input.channel) {
            throw new CheckoutError('already_paid', 'This order has already been paid.');
          }
        }
        const view = await resumable(active);
        if (existing?.channel === input.channel && view) {
          return {
            token: await issueToken({ ...claims, reference: active, channel: input.channel }),
            payment: view,
          };
        }
      }
      if (!claims.channels.includes(input.channel)) {
        throw new CheckoutError(
          'channel_unavailable',
          `${input.channel} cannot take this payment.`,
        );
      }
      if (input.returnTo !== undefined && !allowedReturn(input.returnTo)) {
        throw new CheckoutError(
          'invalid_request',
          'returnTo must be a page of an allowed origin.',
          {
            issues: ['returnTo must be on this site or an allowed origin'],
          },
        );
      }
      const lock = `initiating:${key}:${input.channel}`;
      if (!(await store.add(lock, true, 30_000))) {
        throw new CheckoutError(
          'conflict',
          'This payment is already being started; try again in a moment.',
        );
      }
      let initiation: Initiation;
      try {
        initiation = await provider.initiatePayment({
          channel: input.channel,
          amount: { amountMinor: claims.amountMinor, currency: claims.currency },
          linkAlias: claims.linkAlias ?? undefined,
          customer: input.customer,
          card: input.card,
          ...(input.channel === 'PayByAccount'
            ? { returnUrl: `${publicUrl}/return`, redirect: input.redirect ?? true }
            : {}),
        });
      } catch (error) {
        // A one-time link the provider refuses as already paid: say so, kindly, to the customer.
        if (claims.linkAlias !== null && error instanceof ProviderConflictError) {
          await store.set(`link-paid:${claims.linkAlias}`, true, 30 * DAY_MS);
          throw new CheckoutError('already_paid', 'This payment link has already been paid.', {
            cause: error,
          });
        }
        throw error;
      } finally {
        await store.delete(lock);
      }
      if (initiation.bankAuthUrl !== null && !isSafeUrl(initiation.bankAuthUrl)) {
        logger.error('paydrop: refused a bank authorisation URL that is not https', {
          reference: initiation.paymentReference,
        });
        throw new CheckoutError(
          'unavailable',
          'The provider sent a bank link that cannot be opened safely.',
        );
      }
      if (input.channel === 'PayByAccount' && initiation.bankAuthUrl === null) {
        throw new CheckoutError('unavailable', 'The provider sent no bank link for this payment.');
      }
      if (input.channel === 'PayByTransfer' && initiation.virtualAccount === null) {
        throw new CheckoutError('unavailable', 'The provider sent no account to pay into.');
      }
      const payment: PaymentRecord = {
        reference: initiation.paymentReference,
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
      await store.set(`payment:${payment.reference}`, payment, 30 * DAY_MS);
      await store.set(key, payment.reference, 30 * DAY_MS);
      return {
        token: await issueToken({
          ...claims,
          reference: payment.reference,
          channel: input.channel,
        }),
        payment: view(payment, 'PENDING'),
      };
    },

    /** The authentication check; a challenge is kept for the challenge page to serve. */
    async authenticate(reference: string, challengeUrl: string) {
      const check = await provider.checkAuthentication(reference);
      if (check.authenticationRequired && check.challengeHtml) {
        await store.set(`challenge:${reference}`, check.challengeHtml, 15 * 60 * 1000);
        return { authenticationRequired: true, challengeUrl };
      }
      return { authenticationRequired: false, challengeUrl: null };
    },

    async challengeHtml(reference: string): Promise<string | undefined> {
      return (await store.get(`challenge:${reference}`)) as string | undefined;
    },

    async finalize(reference: string) {
      const finalization = await provider.finalizePayment(reference);
      // From here the card may be charged: a reload picks this payment up rather than a new one.
      await store.set(`finalized:${reference}`, true, 30 * DAY_MS);
      if (finalization.status !== 'PENDING') await confirm(reference, true);
      return { reference, status: (await outcomeOf(reference)) ?? finalization.status };
    },

    async status(reference: string) {
      const known = await outcomeOf(reference);
      const status = known ?? (await confirm(reference));
      // The server's clock, so a widget can correct a customer's clock that jumped or slept.
      return { reference, status, serverTime: new Date(now()).toISOString() };
    },

    /** The page the bank sends the customer back to: where to go next, and a status check. */
    async bankReturn(reference: string): Promise<{ returnTo: string | null }> {
      const payment = await record(reference);
      // Anyone can load this page with any reference: it looks through the status cache only.
      if (payment) confirmHint(reference, false);
      return { returnTo: payment?.returnTo ?? null };
    },

    confirmHint,
    record,
    outcomeOf,
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
