/**
 * Limits that hold against card testers and floods (issue 20, items 1 and 2): card attempts and
 * declines per order, per checkout and per client address; payments created per order and per
 * address. Counted in the CheckoutStore, so they hold across instances.
 *
 * How it counts: each limit is a sliding window of N per period kept at one key, the places
 * taken in it with when each ends (the store's `take` write, issue 25 item 2). A place is taken
 * by a write in the call's own commit, beside the order's lock (initiation-guards.ts), so a
 * call costs no transaction of its own for its counters; a full window fails that commit, and
 * the window as read says when a place frees again (Retry-After). Exact across instances: the
 * store takes a place and checks the window's count in one step.
 */
import { CheckoutError } from '../http';
import {
  type CheckoutStore,
  checkFields,
  createRecords,
  put,
  recordKind,
  type StoreWrite,
  windowEntries,
} from '../store';

/** The limits' numbers, all per sliding window; every one is an option (docs/server.md, "Limits against card testing"). */
export interface CheckoutLimits {
  /**
   * Declined card payments of one order before its card attempts are refused (429) for the rest
   * of the window. Default 5: a customer rarely has more than two or three cards to try, while a
   * tester needs hundreds.
   */
  readonly cardDeclinesPerOrder?: number | undefined;
  /** Card attempts (initiations) of one order, declined or not. Default 10. */
  readonly cardAttemptsPerOrder?: number | undefined;
  /** The same per checkout token (a payment link's checkout has no order). Defaults 5 and 10. */
  readonly cardDeclinesPerCheckout?: number | undefined;
  readonly cardAttemptsPerCheckout?: number | undefined;
  /**
   * Declined card payments from one client address, across orders. Default 20 an hour. Sized for
   * a carrier's shared address: on Nigerian mobile networks many customers share one CGNAT
   * address, but each declines seldom (issuers decline some 5 to 15 % of honest attempts), so 20
   * declines an hour stands for well over a hundred card payments an hour from one address to one
   * shop, more than a shop sees from one carrier gateway; a tester needs thousands. A merchant
   * whose traffic says otherwise raises it.
   */
  readonly cardDeclinesPerAddress?: number | undefined;
  /** Card attempts from one address, across orders. Default 120 an hour (as above, ~15 % declines). */
  readonly cardAttemptsPerAddress?: number | undefined;
  /** The window of the card limits, in seconds. Default 3600 (an hour). */
  readonly cardWindowSeconds?: number | undefined;
  /**
   * Payments created for one order per day, every channel. Default 20: an order's earlier payments
   * are settled before a new one (never a second charge) by a list of its last 20, so a 21st a day
   * could push one that may still complete out of sight.
   */
  readonly paymentsPerOrderPerDay?: number | undefined;
  /**
   * Payments created from one address per hour, every channel: what a stranger can make the
   * provider hold and the companion re-check. Default 200 (a CGNAT address, as above).
   */
  readonly paymentsPerAddressPerHour?: number | undefined;
  /**
   * How long a card payment never finalized is kept and re-checked, in seconds. Default 6 hours
   * (every other payment: 3 days of re-checks): nothing charges such a card, and a tester's
   * abandoned initiations must not fill the store with jobs.
   */
  readonly unfinalizedCardSeconds?: number | undefined;
  /**
   * How long an initiation waits for another one of the same order to finish, in ms, before
   * answering 409 `conflict`. Default 3000: a flood on one order id must not turn the real
   * customer away at once.
   */
  readonly lockWaitMs?: number | undefined;
}

const DEFAULTS = {
  cardDeclinesPerOrder: 5,
  cardAttemptsPerOrder: 10,
  cardDeclinesPerCheckout: 5,
  cardAttemptsPerCheckout: 10,
  cardDeclinesPerAddress: 20,
  cardAttemptsPerAddress: 120,
  cardWindowSeconds: 3600,
  paymentsPerOrderPerDay: 20,
  paymentsPerAddressPerHour: 200,
  unfinalizedCardSeconds: 6 * 3600,
  lockWaitMs: 3000,
} as const satisfies Required<{ [K in keyof CheckoutLimits]: number }>;

export type ResolvedLimits = { readonly [K in keyof typeof DEFAULTS]: number };

/** The limits with their defaults; a number that is not a whole one from its range is an error. */
export function resolveLimits(given: CheckoutLimits | undefined): ResolvedLimits {
  if (given !== undefined && (typeof given !== 'object' || given === null))
    throw new TypeError('limits must be an object such as { cardDeclinesPerOrder: 5 }.');
  const resolved: Record<string, number> = { ...DEFAULTS };
  for (const [name, value] of Object.entries(given ?? {})) {
    if (!Object.hasOwn(DEFAULTS, name))
      throw new TypeError(
        `limits.${name} is not a limit; the limits are ${Object.keys(DEFAULTS).join(', ')}.`,
      );
    if (value === undefined) continue;
    const max = name === 'lockWaitMs' ? 30_000 : name.endsWith('Seconds') ? 30 * 86_400 : 10_000;
    const min = name === 'lockWaitMs' ? 0 : 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new TypeError(`limits.${name} must be a whole number from ${min} to ${max}.`);
    resolved[name] = value;
  }
  return resolved as ResolvedLimits;
}

/** Who is attempting: the order (null for a payment link), the checkout, the client address. */
export interface AttemptContext {
  readonly orderId: string | null;
  readonly checkoutId: string;
  /** From `clientAddress`/the Node adapter; null when unknown (per-address limits skipped). */
  readonly address: string | null;
}

/** What the merchant's `beforeCardAttempt` hook is given. */
export interface CardAttemptContext extends AttemptContext {
  /** The browser's request, e.g. to read a CAPTCHA answer from a header. */
  readonly request: Request | null;
}

/** Who attempted a card payment (by its reference), so its decline is counted against them. */
export const cardAttemptKind = recordKind<AttemptContext>({
  name: 'card-attempt',
  ttlMs: 24 * 3600 * 1000,
  check: checkFields<AttemptContext>({
    orderId: 'string|null',
    checkoutId: 'string',
    address: 'string|null',
  }),
});

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** One limit: the window's key, how many places it has, for how long, and what a full one says. */
export interface LimitWindow {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly message: string;
}

export interface AttemptLimitsDeps {
  readonly store: CheckoutStore;
  readonly now: () => number;
  readonly limits: ResolvedLimits;
  /** The merchant's own check before a card attempt (a CAPTCHA); false or a throw refuses it. */
  readonly beforeCardAttempt?:
    | ((context: CardAttemptContext) => Promise<unknown> | unknown)
    | undefined;
}

/** The shape of the 429 every limit answers, with when to come back. */
function limited(until: number, now: number, message: string): CheckoutError {
  return new CheckoutError('rate_limited', message, {
    retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)),
  });
}

const CARD_MESSAGE = 'Too many card attempts for this payment; come back later or pay another way.';

export function createAttemptLimits(deps: AttemptLimitsDeps) {
  const { store, now, limits } = deps;
  const typed = createRecords(store);
  const cardWindow = limits.cardWindowSeconds * 1000;

  /** The windows of a card attempt or decline: per order, checkout and address. */
  function cardWindows(context: AttemptContext, kind: 'attempts' | 'declines'): LimitWindow[] {
    const perOrder =
      kind === 'attempts' ? limits.cardAttemptsPerOrder : limits.cardDeclinesPerOrder;
    const perCheckout =
      kind === 'attempts' ? limits.cardAttemptsPerCheckout : limits.cardDeclinesPerCheckout;
    const perAddress =
      kind === 'attempts' ? limits.cardAttemptsPerAddress : limits.cardDeclinesPerAddress;
    const window = (key: string, limit: number): LimitWindow => ({
      key,
      limit,
      windowMs: cardWindow,
      message: CARD_MESSAGE,
    });
    return [
      ...(context.orderId !== null
        ? [window(`limit:card-${kind}:order:${context.orderId}`, perOrder)]
        : []),
      window(`limit:card-${kind}:checkout:${context.checkoutId}`, perCheckout),
      ...(context.address !== null
        ? [window(`limit:card-${kind}:address:${context.address}`, perAddress)]
        : []),
    ];
  }

  /**
   * When a window as read (its stored value) is full: the 429 to answer, with Retry-After at the
   * time enough of its places have ended; undefined while a place is free.
   */
  function fullness(window: LimitWindow, value: unknown): CheckoutError | undefined {
    const ends = windowEntries(value, now())
      .map(([end]) => end)
      .sort((a, b) => a - b);
    if (ends.length < window.limit) return undefined;
    const until = ends[ends.length - window.limit] ?? now() + 1000;
    return limited(until, now(), window.message);
  }

  /**
   * The writes that count a card payment's decline (or failed challenge) against its order,
   * checkout and address: a place in each decline window, once per reference (its id), and none
   * when the window is full already. `seen` is who attempted it as remembered; `fallback` who it
   * belongs to when the companion did not see it initiated (the hosted page: no address).
   */
  function declineWrites(
    reference: string,
    seen: AttemptContext | undefined,
    fallback?: AttemptContext,
  ): StoreWrite[] {
    const context = seen ?? fallback;
    if (!context) return [];
    return cardWindows(context, 'declines').map((window) => ({
      op: 'take',
      key: window.key,
      id: reference,
      limit: window.limit,
      at: now(),
      windowMs: window.windowMs,
      whenFull: 'skip',
    }));
  }

  return {
    limits,

    /** Payments started from one address per hour, every channel; none for an unknown address. */
    addressWindow(address: string | null): LimitWindow | undefined {
      if (address === null) return undefined;
      return {
        key: `limit:payments:address:${address}`,
        limit: limits.paymentsPerAddressPerHour,
        windowMs: HOUR_MS,
        message: 'Too many payments started from here; come back later.',
      };
    },

    /** Payments created for one order per day, every channel; none for a payment link's checkout. */
    orderWindow(orderId: string | null): LimitWindow | undefined {
      if (orderId === null) return undefined;
      return {
        key: `limit:payments:order:${orderId}`,
        limit: limits.paymentsPerOrderPerDay,
        windowMs: DAY_MS,
        message: 'Too many payments were started for this order today; come back later.',
      };
    },

    /** The windows a card attempt takes a place in, declined or not. */
    cardAttemptWindows: (context: AttemptContext) => cardWindows(context, 'attempts'),
    /** The windows whose being full refuses a card attempt: declines per order, checkout, address. */
    cardDeclineWindows: (context: AttemptContext) => cardWindows(context, 'declines'),

    /** The write that takes place `id` in the window, for the call's commit (fails it when full). */
    take(window: LimitWindow, id: string): StoreWrite {
      return {
        op: 'take',
        key: window.key,
        id,
        limit: window.limit,
        at: now(),
        windowMs: window.windowMs,
        whenFull: 'fail',
      };
    },

    /** The write that gives place `id` back, when what it counted never reached the provider. */
    give(window: LimitWindow, id: string): StoreWrite {
      return { op: 'give', key: window.key, id };
    },

    /** Every window's value in one read, for `refusal`. */
    read(windows: readonly LimitWindow[]): Promise<unknown[]> {
      return store.getMany(windows.map((window) => window.key));
    },

    /** The 429 of the first of `windows` that is full as read (`values` in their order). */
    refusal(
      windows: readonly LimitWindow[],
      values: readonly unknown[],
    ): CheckoutError | undefined {
      for (const [place, window] of windows.entries()) {
        const refused = fullness(window, values[place]);
        if (refused) return refused;
      }
      return undefined;
    },

    /**
     * The merchant's own check before a card reaches the provider (a CAPTCHA), on either card
     * path: throws the CheckoutError to answer (403) when it says no or fails.
     */
    async askMerchant(context: CardAttemptContext): Promise<void> {
      if (!deps.beforeCardAttempt) return;
      let answer: unknown;
      try {
        answer = await deps.beforeCardAttempt(context);
      } catch (error) {
        if (error instanceof CheckoutError) throw error;
        throw new CheckoutError('forbidden', 'The shop did not accept this card attempt.', {
          cause: error,
        });
      }
      if (answer === false)
        throw new CheckoutError('forbidden', 'The shop did not accept this card attempt.');
    },

    /** Remembers who attempted a card payment, so its decline, however learned, is counted. */
    cardInitiated(reference: string, context: AttemptContext): StoreWrite {
      return put(cardAttemptKind, reference, context);
    },

    declineWrites,

    /** Counts a card payment's decline on its own: one read of who attempted it, one commit. */
    async cardDeclined(reference: string, fallback?: AttemptContext): Promise<void> {
      const writes = declineWrites(
        reference,
        await typed.get(cardAttemptKind, reference),
        fallback,
      );
      if (writes.length > 0) await typed.commit(writes);
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
