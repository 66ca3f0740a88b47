/**
 * What a payment's start (`/initiate`, the hosted card page) must make visible to every instance
 * before the provider is asked, in ONE commit (issue 25 item 2): a place in the address's hourly
 * budget (issue 20), the order's lock (one payment started at a time per order, so two tabs cannot
 * both pay), and, for the new payment it may make, a place in the order's daily budget and in the
 * card attempt windows. The places for a new payment are given back, with the lock's release, by
 * the call's one closing commit when it makes none (it picks up or shows an earlier payment, the
 * merchant's check says no, the provider never took it).
 *
 * A full window for a new payment does not stop the call before the earlier payments are
 * settled: a customer whose order is paid, or still settling, is shown that, as before the
 * windows counted in one commit; only a new payment is refused (429), after that settling.
 */
import { CheckoutError } from '../http';
import { type CheckoutStore, putNew, remove, type StoreWrite } from '../store';
import type { AttemptContext, AttemptLimits, LimitWindow } from './attempt-limits';
import { initiatingKind } from './checkout-records';

/** What the guards' commit took. */
export interface TakenGuards {
  /** The 429 to answer should the call come to make a new payment: one of its windows is full. */
  readonly refusal: CheckoutError | undefined;
  /** Gives back the new payment's places: for the closing commit when no payment is made. */
  readonly giveBack: readonly StoreWrite[];
  /** The lock's release, for the closing commit. */
  readonly release: StoreWrite;
}

/** How often the lock is looked at again while another initiation of the order holds it. */
const LOCK_STEP_MS = 100;
/** A commit failing with nothing found full or held (freed in between): tried again at once, this often at most. */
const RACES = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A place's id in its windows: one per call, so its places can be given back. */
function placeId(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 16);
}

/**
 * Takes the guards in one commit; while the lock is held by another initiation of the order,
 * waits for it (up to `limits.lockWaitMs`, looking again every 100 ms: a flood on one order id
 * slows the real customer rather than turning them away with 409 at once). Throws 429 when the
 * address's budget is spent, 409 when the lock stayed held.
 */
export async function takeInitiationGuards(
  store: CheckoutStore,
  limits: AttemptLimits,
  attempt: AttemptContext & {
    /** A card attempt: its windows (attempts taken, declines checked). */
    readonly card: boolean;
    /** It makes a payment of its own for the order: a place in the order's daily budget. */
    readonly payment: boolean;
  },
): Promise<TakenGuards> {
  const id = placeId();
  const lock = initiatingKind.key(attempt);
  const address = limits.addressWindow(attempt.address);
  const order = attempt.payment ? limits.orderWindow(attempt.orderId) : undefined;
  const forNew: LimitWindow[] = [
    ...(attempt.card ? limits.cardAttemptWindows(attempt) : []),
    ...(order ? [order] : []),
  ];
  // A card is refused once its order, checkout or address has had its declines: read here, as
  // the one read before the commit (only a card attempt makes it).
  let refusal: CheckoutError | undefined;
  if (attempt.card) {
    const declines = limits.cardDeclineWindows(attempt);
    refusal = limits.refusal(declines, await limits.read(declines));
  }
  let waited = 0;
  for (let races = 0; ; ) {
    const counted = refusal ? [] : forNew;
    // Not flushed before the provider is asked: visible to every instance at once, and lost
    // only with the machine (or the database server), when what it guards was never shown to
    // anyone. The call's closing commit, flushed, makes it durable before the customer sees a
    // payment. One sync a start instead of two on SQLite (issue 25).
    const taken = await store.commit(
      [
        ...(address ? [limits.take(address, id)] : []),
        putNew(initiatingKind, attempt, true),
        ...counted.map((window) => limits.take(window, id)),
      ],
      { flush: false },
    );
    if (taken)
      return {
        refusal,
        giveBack: counted.map((window) => limits.give(window, id)),
        release: remove(initiatingKind, attempt),
      };
    // Which guard said no, in one read: the address's budget refuses at once; a full window
    // for a new payment is taken without (and refuses a new payment later); a held lock is
    // waited for.
    const [held, addressValue, ...values] = await store.getMany([
      lock,
      ...(address ? [address.key] : []),
      ...counted.map((window) => window.key),
    ]);
    if (address) {
      const spent = limits.refusal([address], [addressValue]);
      if (spent) throw spent;
    } else values.unshift(addressValue);
    const full = limits.refusal(counted, values);
    if (full) {
      refusal = full;
      continue;
    }
    if (held !== undefined) {
      if (waited + LOCK_STEP_MS > limits.limits.lockWaitMs)
        throw new CheckoutError(
          'conflict',
          'This payment is already being started; try again in a moment.',
        );
      await sleep(LOCK_STEP_MS);
      waited += LOCK_STEP_MS;
      continue;
    }
    if (++races > RACES)
      throw new CheckoutError(
        'conflict',
        'This payment is already being started; try again in a moment.',
      );
  }
}
