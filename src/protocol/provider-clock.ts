/**
 * The provider's notion of now, as the companion measures it (issue 12, item 3): a virtual
 * account's `expiration` is on the provider's clock, so a countdown anchored on the companion's
 * clock is off by however far the two disagree (a sandbox whose clock was moved showed 61 minutes
 * for a 30-minute account). provider-api.md gives no time field in its answers; the HTTP `Date`
 * header every server sends is what we have. It is whole seconds, so one answer only bounds the
 * offset; the bounds of successive answers are intersected while they agree, and a sample that
 * disagrees with them (the provider's clock was moved) starts again from that sample.
 */

/** Provider time minus our time, in ms, known to lie between `low` and `high`. */
export interface OffsetBounds {
  readonly low: number;
  readonly high: number;
}

/**
 * What one answer says of the offset: the provider wrote `Date: D` at some instant in
 * [D, D + 1 s), and that instant was, on our clock, between sending and receiving. Null when the
 * header is missing or is not a date (the caller keeps what it knew).
 * @example offsetBounds('Tue, 01 Jul 2025 10:00:00 GMT', sentAt, receivedAt)
 */
export function offsetBounds(
  date: string | null | undefined,
  sentAt: number,
  receivedAt: number,
): OffsetBounds | null {
  if (!date || !Number.isFinite(sentAt) || !Number.isFinite(receivedAt)) return null;
  const written = Date.parse(date);
  if (!Number.isFinite(written)) return null;
  const [first, last] = sentAt <= receivedAt ? [sentAt, receivedAt] : [receivedAt, sentAt];
  return { low: written - last, high: written + 1000 - first };
}

/** The bounds known so far, narrowed by a new sample, or replaced by it when they disagree. */
export function narrowBounds(known: OffsetBounds | null, sample: OffsetBounds): OffsetBounds {
  if (!known) return sample;
  const low = Math.max(known.low, sample.low);
  const high = Math.min(known.high, sample.high);
  return low <= high ? { low, high } : sample;
}

/**
 * The offset to use: the highest the bounds allow, so that a countdown to the provider's expiry
 * never shows more time than is left (at worst a second less, fewer as answers narrow the
 * bounds; the middle showed a fresh 30-minute account as 30:01); 0 when nothing is known.
 */
export function offsetOf(bounds: OffsetBounds | null): number {
  return bounds ? bounds.high : 0;
}

export interface ProviderClock {
  /** Notes an answer's `Date` header (or its absence) and when we sent and received it. */
  observe(date: string | null | undefined, sentAt: number, receivedAt: number): void;
  /** Now on the provider's clock, as far as we can tell; our own clock until an answer said. */
  now(): number;
  /** Provider time minus ours, in ms (0 until an answer with a `Date` came). */
  offset(): number;
}

export function createProviderClock(ourNow: () => number): ProviderClock {
  let bounds: OffsetBounds | null = null;
  return {
    observe(date, sentAt, receivedAt) {
      const sample = offsetBounds(date, sentAt, receivedAt);
      if (sample) bounds = narrowBounds(bounds, sample);
    },
    now: () => ourNow() + offsetOf(bounds),
    offset: () => offsetOf(bounds),
  };
}
