/**
 * The provider's channel validation (endpoint 2) behind a short cache per currency and amount,
 * per instance (DESIGN.md lets caches stay per instance). What the provider offers for an amount
 * does not change per click, yet every `/session` asks: 2,000 calls for one order cost 2,000
 * provider validations before this (issue 20, item 2). Concurrent identical asks share one call
 * (single flight); a failed call is not kept, so the next ask tries again; the entries are
 * bounded, least recently used first out, so strangers sending many amounts cannot grow it.
 */
import type { ChannelValidation, Money } from '../../protocol';
import type { ProviderClient } from '../../provider/client';

/** Default for `validationCacheMs`. */
export const VALIDATION_CACHE_MS = 60_000;
/** Entries kept at most; a miss past it costs one more provider call, nothing else. */
export const VALIDATION_CACHE_ENTRIES = 1000;

interface ValidationEntry {
  readonly answer: Promise<ChannelValidation>;
  /** When the answer arrived (the injected clock); undefined while in flight. */
  at: number | undefined;
}

export function createValidationCache(
  provider: Pick<ProviderClient, 'validateChannels'>,
  now: () => number,
  cacheMs: number = VALIDATION_CACHE_MS,
  maxEntries: number = VALIDATION_CACHE_ENTRIES,
) {
  const entries = new Map<string, ValidationEntry>();

  function ask(key: string, amount: Money): ValidationEntry {
    // A Map keeps insertion order: the first key is the least recently used one.
    while (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }
    const entry: ValidationEntry = { answer: provider.validateChannels(amount), at: undefined };
    entries.set(key, entry);
    entry.answer.then(
      () => {
        entry.at = now();
      },
      () => {
        // Not kept: the provider's outage or refusal is not the offer for this amount.
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry;
  }

  /** The channels the provider offers for `amount`: cached, or asked once for every caller. */
  return function validateChannels(amount: Money): Promise<ChannelValidation> {
    if (cacheMs <= 0) return provider.validateChannels(amount);
    const key = `${amount.currency}:${amount.amountMinor}`;
    const cached = entries.get(key);
    if (cached && (cached.at === undefined || now() - cached.at < cacheMs)) {
      // Used again: to the back of the line for eviction.
      entries.delete(key);
      entries.set(key, cached);
      return cached.answer;
    }
    if (cached) entries.delete(key);
    return ask(key, amount).answer;
  };
}

export type ValidationCache = ReturnType<typeof createValidationCache>;
