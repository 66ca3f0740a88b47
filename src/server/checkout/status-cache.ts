/**
 * The provider's status operation behind a one-second cache, per instance (DESIGN.md allows it):
 * however many tabs, webhooks and jobs ask, one call per reference per second, and a burst of
 * hints that wants a fresh answer costs at most two.
 */
import type { PaymentStatusReport } from '../../protocol';
import type { ProviderClient } from '../../provider/client';

const STATUS_CACHE_MS = 1000;
const MAX_ENTRIES = 1000;

interface StatusEntry {
  at: number;
  readonly report: Promise<PaymentStatusReport>;
  inFlight: boolean;
  followUp?: Promise<PaymentStatusReport>;
}

export function createStatusCache(provider: ProviderClient, now: () => number) {
  const entries = new Map<string, StatusEntry>();

  function request(reference: string): StatusEntry {
    // Bounded, oldest first (a Map keeps insertion order): evicting costs at most an extra
    // call, and a sweep that stops at half the size keeps each call's share constant.
    if (entries.size > MAX_ENTRIES) {
      for (const [key, entry] of entries) {
        if (entries.size <= MAX_ENTRIES / 2) break;
        if (!entry.inFlight) entries.delete(key);
      }
    }
    const entry: StatusEntry = {
      at: now(),
      report: provider.paymentStatus(reference),
      inFlight: true,
    };
    entries.set(reference, entry);
    entry.report.then(
      () => {
        entry.inFlight = false;
        entry.at = now();
      },
      () => {
        if (entries.get(reference) === entry) entries.delete(reference);
      },
    );
    return entry;
  }

  /**
   * Status from the provider, one call per reference per second however many ask. `fresh`
   * (a webhook or the bank's return says something changed) wants an answer asked after the
   * hint: a call already in flight may be stale, so every hint that arrives meanwhile shares one
   * follow-up call.
   */
  return function providerStatus(reference: string, fresh = false): Promise<PaymentStatusReport> {
    const cached = entries.get(reference);
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
  };
}

export type StatusCache = ReturnType<typeof createStatusCache>;
