/**
 * A payout's moves (Pending → Completed or Failed, Completed → Reversed), confirmed with the
 * transaction list and reported once each to `onPayoutOutcome`. A payout webhook is a hint that
 * schedules a job in the store (`payouts` queue); the job reads the list, with the capped,
 * jittered backoff of `jobs.ts` through outages, until every move the hints announced is
 * confirmed and the hook has returned for each.
 */
import {
  normalizePayoutStatus,
  type PayoutStatus,
  ProviderError,
  type TransactionListItem,
} from '../protocol';
import type { ProviderClient } from '../provider/client';
import { payoutMoves } from '../provider/payout-state';
import { type JobPicker, type JobResult, nextAttempt } from './jobs';
import type { CheckoutHandlerOptions, CheckoutLogger } from './options';
import { DAY_MS } from './payment-records';
import type { CheckoutStore } from './store';

export const PAYOUT_QUEUE = 'payouts';
/** How far back (in pages of 100) a payout never seen before is looked for. */
const MAX_SCANNED_PAGES = 500;
/** A payout the list does not show (yet): looked for once a minute, for ten minutes. */
const NOT_LISTED_RETRY_MS = 60_000;
const NOT_LISTED_GIVE_UP_MS = 10 * 60_000;
const PAYOUT_TTL_MS = 90 * DAY_MS;
const HINT_TTL_MS = 3 * DAY_MS;
const MAX_REASON_LENGTH = 500;

/** What one webhook said about a payout's move: kept small, per announced status. */
export interface PayoutHint {
  readonly status: PayoutStatus;
  readonly reason: string | null;
  readonly occurredAt: string | null;
}

export interface PayoutJob {
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly since: number;
}

export interface PayoutOutcomeDeps {
  readonly options: CheckoutHandlerOptions;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly logger: CheckoutLogger;
  readonly now: () => number;
  readonly jobs: () => JobPicker;
}

export function payoutStatusOfEvent(event: string): PayoutStatus | undefined {
  if (event === 'payout.success') return 'Completed';
  if (event === 'payout.failed') return 'Failed';
  if (event === 'payout.reversed') return 'Reversed';
  return undefined;
}

export function createPayoutOutcomes(deps: PayoutOutcomeDeps) {
  const { options, provider, store, logger, now } = deps;

  /**
   * Finds a payout in the transaction list. The list keeps creation order, so a payout's
   * position never changes: once found it is remembered, and a reversal weeks later costs one
   * page. The first time, pages are read newest first (payouts are recent).
   */
  async function listed(reference: string): Promise<TransactionListItem | undefined> {
    const matches = (entry: TransactionListItem) =>
      entry.id === reference || entry.raw.reference === reference;
    const remembered = (await store.get(`payout-position:${reference}`)) as number | undefined;
    if (remembered !== undefined) {
      const page = await provider.transactionPage(Math.floor(remembered / 100) + 1, 100);
      const item = page.items.find(matches);
      if (item) return item;
    }
    const first = await provider.transactionPage(1, 100);
    const lastPage = first.meta.pageCount;
    for (let page = lastPage; page >= 1 && lastPage - page < MAX_SCANNED_PAGES; page--) {
      const result = page === 1 ? first : await provider.transactionPage(page, 100);
      const index = result.items.findIndex(matches);
      const item = result.items[index];
      if (item) {
        await store.set(`payout-position:${reference}`, result.meta.skipped + index, PAYOUT_TTL_MS);
        return item;
      }
    }
    return undefined;
  }

  async function hintsOf(reference: string): Promise<PayoutHint[]> {
    const value = await store.get(`payout-hints:${reference}`);
    return Array.isArray(value) ? (value as PayoutHint[]) : [];
  }

  /** A webhook announced a move: remember what it said, and confirm it now. */
  async function hint(
    reference: string,
    tenantReference: string | null,
    announced: PayoutHint,
  ): Promise<void> {
    const hints = (await hintsOf(reference)).filter((known) => known.status !== announced.status);
    const kept: PayoutHint = {
      status: announced.status,
      reason: announced.reason?.slice(0, MAX_REASON_LENGTH) ?? null,
      occurredAt: announced.occurredAt,
    };
    await store.set(`payout-hints:${reference}`, [...hints, kept], HINT_TTL_MS);
    const job: PayoutJob = { reference, tenantReference, since: now() };
    await deps.jobs().schedule(PAYOUT_QUEUE, reference, job, now());
  }

  async function reported(reference: string, status: PayoutStatus): Promise<boolean> {
    return (await store.get(`payout-outcome:${reference}:${status}`)) === true;
  }

  /** One run of a payout's confirmation job. */
  async function runJob(_key: string, value: unknown, attempts: number): Promise<JobResult> {
    const job = value as PayoutJob;
    const { reference } = job;
    const hints = await hintsOf(reference);
    let item: TransactionListItem | undefined;
    try {
      item = await listed(reference);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      logger.warn('paydrop: could not read the transaction list; the payout is checked again', {
        reference,
        error: error.name,
      });
      return retry(job);
    }
    const confirmed = item ? normalizePayoutStatus(item.status) : undefined;
    if (!item || !confirmed) {
      // Not listed (yet): a lagging list, or a forged webhook. Once a minute, for ten minutes.
      if (now() - job.since >= NOT_LISTED_GIVE_UP_MS) {
        await store.delete(`payout-hints:${reference}`);
        return { done: true };
      }
      if (attempts === 0) {
        logger.warn('paydrop: a payout webhook names a payout the provider does not list', {
          reference,
          lookingAgainForMinutes: NOT_LISTED_GIVE_UP_MS / 60_000,
        });
      }
      return { retryAt: now() + NOT_LISTED_RETRY_MS };
    }
    const known = ((await store.get(`payout:${reference}`)) as PayoutStatus | undefined) ?? null;
    let previous = known;
    for (const status of payoutMoves(known, confirmed)) {
      if (await reported(reference, status)) {
        previous = status;
        continue;
      }
      // One reporter at a time per move; a holder that dies frees it after a minute.
      if (!(await store.add(`payout-reporting:${reference}:${status}`, true, 60_000))) {
        return { retryAt: now() + 1000 };
      }
      const said = hints.find((hint) => hint.status === status);
      try {
        await options.onPayoutOutcome?.({
          reference,
          tenantReference: job.tenantReference ?? stringField(item.raw.tenantReference),
          status,
          previousStatus: previous,
          amount: item.amount,
          reason: said?.reason ?? null,
          occurredAt: said?.occurredAt ?? new Date(now()).toISOString(),
        });
      } catch (error) {
        await store.delete(`payout-reporting:${reference}:${status}`);
        logger.error('paydrop: onPayoutOutcome failed; it will be called again', {
          reference,
          error: error instanceof Error ? error.message : String(error),
        });
        return retry(job);
      }
      await store.set(`payout-outcome:${reference}:${status}`, true, PAYOUT_TTL_MS);
      await store.set(`payout:${reference}`, status, PAYOUT_TTL_MS);
      await store.delete(`payout-reporting:${reference}:${status}`);
      previous = status;
    }
    // A move a webhook announced that the list does not show yet (the list lags, or the
    // webhook was forged): look again, backing off, until it shows or the time is up.
    const current = previous ?? 'Pending';
    const waiting = hints.some((hint) => payoutMoves(current, hint.status).length > 0);
    if (waiting) return retry(job);
    await store.delete(`payout-hints:${reference}`);
    return { done: true };
  }

  function retry(job: PayoutJob): JobResult {
    const at = nextAttempt(job.since, now());
    if (at === undefined) {
      logger.error('paydrop: gave up confirming a payout after 3 days', {
        reference: job.reference,
      });
      return { done: true };
    }
    return { retryAt: at };
  }

  return { hint, reported, runJob };
}

function stringField(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export type PayoutOutcomes = ReturnType<typeof createPayoutOutcomes>;
