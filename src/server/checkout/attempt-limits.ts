/**
 * Limits that hold against card testers and floods (issue 20, items 1 and 2): card attempts and
 * declines per order, per checkout and per client address; payments created per order and per
 * address. Counted in the CheckoutStore, so they hold across instances.
 *
 * How it counts: a limit of N per window is N slots, `${key}:${i}`, each taken with the store's
 * `add` (set-if-absent, the primitive every store already makes atomic) and expiring one window
 * after it was taken. An attempt takes any free slot; none free means the limit is reached, and
 * the earliest slot's expiry is when one frees again (Retry-After). That is an exact sliding-window
 * log across instances on the existing contract, with no `increment` to add to three stores (and
 * to the store work another branch has under way). It costs one `add` while slots are free (the
 * probe starts at a random slot), and when full, one scan of N that leaves a `full` marker until
 * the first slot frees, so an attacker past the limit costs one `get` a request.
 */
import { CheckoutError } from '../http';
import {
  type CheckoutStore,
  checkFields,
  checkTrue,
  createRecords,
  put,
  putNew,
  recordKind,
  remove,
  type StoreWrite,
} from '../store';
import { limitSlotKind } from './checkout-records';

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

/** Gives back what a check counted, when the attempt never reached the provider. */
export type Release = () => Promise<void>;

/** A card payment's decline was counted (by its reference): once. */
const cardDeclinedKind = recordKind<true>({
  name: 'card-declined',
  ttlMs: 24 * 3600 * 1000,
  check: checkTrue,
});

/** Who attempted a card payment (by its reference), so its decline is counted against them. */
const cardAttemptKind = recordKind<AttemptContext>({
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

/**
 * A window of N slots in the store (see the file's comment). `take` spends one and says whether
 * there was one; `reached` says whether all are spent, without spending.
 */
function createSlots(store: CheckoutStore, now: () => number) {
  const typed = createRecords(store);
  /** Every slot of a window, in one read. */
  const slotsOf = (key: string, limit: number) =>
    typed.getMany(
      Array.from({ length: limit }, (_, slot) => [limitSlotKind, `${key}:${slot}`] as const),
    );

  async function fullUntil(key: string): Promise<number | undefined> {
    const until = await typed.get(limitSlotKind, `${key}:full`);
    return until !== undefined && until > now() ? until : undefined;
  }

  /** All N slots spent: mark it until the first frees, and say when that is. */
  async function markFull(key: string, limit: number, windowMs: number): Promise<number> {
    const times = (await slotsOf(key, limit)).filter((value) => value !== undefined);
    // Fewer than N: slots freed meanwhile; a second from now is soon enough to look again.
    const until = times.length < limit ? now() + 1000 : Math.min(...times);
    const ttl = Math.max(1, Math.min(until - now(), windowMs));
    await typed.commit([put(limitSlotKind, `${key}:full`, until, ttl)]);
    return until;
  }

  return {
    /** Spends a slot: true when one was free; else when one frees again. */
    async take(
      key: string,
      limit: number,
      windowMs: number,
    ): Promise<{ ok: true; slot: string } | { ok: false; until: number }> {
      const marked = await fullUntil(key);
      if (marked !== undefined) return { ok: false, until: marked };
      const start = Math.floor(Math.random() * limit);
      for (let step = 0; step < limit; step++) {
        const slot = `${key}:${(start + step) % limit}`;
        if (await typed.commit([putNew(limitSlotKind, slot, now() + windowMs, windowMs)]))
          return { ok: true, slot };
      }
      return { ok: false, until: await markFull(key, limit, windowMs) };
    },

    /** Spends a slot if one is free, and marks the window full once none is left. */
    async record(key: string, limit: number, windowMs: number): Promise<void> {
      if ((await fullUntil(key)) !== undefined) return;
      const start = Math.floor(Math.random() * limit);
      for (let step = 0; step < limit; step++) {
        const slot = (start + step) % limit;
        if (
          await typed.commit([putNew(limitSlotKind, `${key}:${slot}`, now() + windowMs, windowMs)])
        )
          break;
      }
      const values = await slotsOf(key, limit);
      if (values.every((value) => value !== undefined)) await markFull(key, limit, windowMs);
    },

    /** When the window frees again if it is full (as recorded), else undefined. */
    reached: fullUntil,

    /** Gives a slot back (`take`'s), and the window's full mark with it. */
    async give(key: string, slot: string): Promise<void> {
      await typed.commit([remove(limitSlotKind, slot), remove(limitSlotKind, `${key}:full`)]);
    },
  };
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
  const slots = createSlots(store, now);
  const cardWindow = limits.cardWindowSeconds * 1000;

  /** The counters of a card attempt or decline: per order, checkout and address. */
  function cardCounters(context: AttemptContext, kind: 'attempts' | 'declines') {
    const perOrder =
      kind === 'attempts' ? limits.cardAttemptsPerOrder : limits.cardDeclinesPerOrder;
    const perCheckout =
      kind === 'attempts' ? limits.cardAttemptsPerCheckout : limits.cardDeclinesPerCheckout;
    const perAddress =
      kind === 'attempts' ? limits.cardAttemptsPerAddress : limits.cardDeclinesPerAddress;
    return [
      ...(context.orderId !== null
        ? [{ key: `limit:card-${kind}:order:${context.orderId}`, limit: perOrder }]
        : []),
      { key: `limit:card-${kind}:checkout:${context.checkoutId}`, limit: perCheckout },
      ...(context.address !== null
        ? [{ key: `limit:card-${kind}:address:${context.address}`, limit: perAddress }]
        : []),
    ];
  }

  /** Takes a slot of each counter, or refuses; what to give back should nothing be attempted. */
  async function takeAll(
    counters: readonly { key: string; limit: number }[],
    windowMs: number,
    message: string,
  ): Promise<Release> {
    const taken: Array<{ key: string; slot: string }> = [];
    const release = async () => {
      for (const { key, slot } of taken) await slots.give(key, slot);
    };
    for (const { key, limit } of counters) {
      const answer = await slots.take(key, limit, windowMs);
      if (!answer.ok) {
        await release();
        throw limited(answer.until, now(), message);
      }
      taken.push({ key, slot: answer.slot });
    }
    return release;
  }

  return {
    limits,

    /**
     * Before a card reaches the provider, through either card path: refuses with 429
     * `rate_limited` (and Retry-After) when this order, checkout or address has had too many
     * declines or attempts in the window, or when the merchant's own check says no; otherwise
     * counts the attempt. Throws the CheckoutError to answer. Returns what gives the attempt
     * back, for when the provider never got it (an outage must not spend a customer's tries).
     */
    async beforeCardAttempt(context: CardAttemptContext): Promise<Release> {
      for (const { key } of cardCounters(context, 'declines')) {
        const until = await slots.reached(key);
        if (until !== undefined) throw limited(until, now(), CARD_MESSAGE);
      }
      if (deps.beforeCardAttempt) {
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
      }
      return takeAll(cardCounters(context, 'attempts'), cardWindow, CARD_MESSAGE);
    },

    /** Remembers who attempted a card payment, so its decline, however learned, is counted. */
    cardInitiated(reference: string, context: AttemptContext): StoreWrite {
      return put(cardAttemptKind, reference, context);
    },

    /**
     * A card payment was declined (or failed its challenge): counted once per reference, against
     * its order, checkout and address. `fallback` is who it belongs to when the companion did not
     * see it initiated (the hosted page: no address).
     */
    async cardDeclined(reference: string, fallback?: AttemptContext): Promise<void> {
      if (!(await typed.commit([putNew(cardDeclinedKind, reference, true, cardWindow)]))) return;
      const seen = await typed.get(cardAttemptKind, reference);
      const context = seen ?? fallback;
      if (!context) return;
      for (const { key, limit } of cardCounters(context, 'declines'))
        await slots.record(key, limit, cardWindow);
    },

    /**
     * Before a new payment is created, any channel: the per-address hourly budget. Taken before
     * the order's lock, so a flood from one address is bounded before it can crowd the real
     * customer out of the lock.
     */
    async beforeInitiation(address: string | null): Promise<void> {
      if (address === null) return;
      const taken = await slots.take(
        `limit:payments:address:${address}`,
        limits.paymentsPerAddressPerHour,
        HOUR_MS,
      );
      if (!taken.ok)
        throw limited(taken.until, now(), 'Too many payments started from here; come back later.');
    },

    /** Before a payment is created for an order: its daily budget; what gives it back. */
    async beforeNewPayment(orderId: string | null): Promise<Release> {
      if (orderId === null) return async () => {};
      return takeAll(
        [{ key: `limit:payments:order:${orderId}`, limit: limits.paymentsPerOrderPerDay }],
        DAY_MS,
        'Too many payments were started for this order today; come back later.',
      );
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;

/**
 * Takes a lock (the store's `add`), waiting up to `waitMs` for whoever holds it, looking again
 * every 100 ms: a flood on one order id slows the real customer rather than turning them away
 * with 409 at once. False when it was still held at the end.
 */
export async function takeLockWaiting(
  store: CheckoutStore,
  key: string,
  ttlMs: number,
  waitMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<boolean> {
  const step = 100;
  for (let waited = 0; ; waited += step) {
    if (await store.add(key, true, ttlMs)) return true;
    if (waited + step > waitMs) return false;
    await sleep(step);
  }
}
