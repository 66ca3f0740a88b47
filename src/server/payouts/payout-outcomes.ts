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
} from '../../protocol';
import type { ProviderClient } from '../../provider/client';
import { payoutMoves } from '../../provider/payout-state';
import type { CheckoutHandlerOptions } from '../checkout';
import type { CheckoutLogger } from '../http';
import { type JobPicker, type JobResult, nextAttempt } from '../jobs';
import {
  type CheckoutStore,
  checkFields,
  createRecords,
  put,
  putNew,
  remove,
  type StoreWrite,
} from '../store';
import {
  type PayoutHint,
  payoutHintsKind,
  payoutKind,
  payoutOutcomeKind,
  payoutPositionKind,
  payoutReportingKind,
  sweepPositionKind,
  sweepSinceKind,
} from './payout-records';

export const PAYOUT_QUEUE = 'payouts';
/** One job, so one instance at a time: the reconciliation sweep of the transaction list. */
export const SWEEP_QUEUE = 'sweeps';
const SWEEP_KEY = 'payout-list';
const SWEEP_EVERY_MS = 60_000;
const SWEEP_PAGE_SIZE = 100;
/** How far back (in pages of 100) a payout never seen before is looked for. */
const MAX_SCANNED_PAGES = 500;
/** A payout the list does not show (yet): looked for once a minute, for ten minutes. */
const NOT_LISTED_RETRY_MS = 60_000;
const NOT_LISTED_GIVE_UP_MS = 10 * 60_000;
const MAX_REASON_LENGTH = 500;

export type { PayoutHint } from './payout-records';

export interface PayoutJob {
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly since: number;
}

/** A payout job as read back from the store's queue: checked, not trusted. */
const checkPayoutJob = checkFields<PayoutJob>({
  reference: 'string',
  tenantReference: 'string|null',
  since: 'number',
});

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
  const typed = createRecords(store);

  /**
   * Finds a payout in the transaction list. The list keeps creation order, so a payout's
   * position never changes: once found it is remembered, and a reversal weeks later costs one
   * page. The first time, pages are read newest first (payouts are recent).
   */
  async function listed(reference: string): Promise<TransactionListItem | undefined> {
    const matches = (entry: TransactionListItem) =>
      entry.id === reference || entry.raw.reference === reference;
    const remembered = await typed.get(payoutPositionKind, reference);
    if (remembered !== undefined) {
      const page = await provider.transactionPage(Math.floor(remembered / 100) + 1, 100);
      const item = page.items.find(matches);
      if (item) return item;
    }
    const first = await provider.transactionPage(1, 100);
    const lastPage = first.meta.pageCount;
    for (let page = lastPage; page >= 1 && lastPage - page < MAX_SCANNED_PAGES; page--) {
      const result = page === 1 ? first : await provider.transactionPage(page, 100);
      // Every payout on a page read is remembered where it is: the next webhook for any of
      // them (a burst of settlements, a reversal weeks later) costs one page, not a scan.
      // (A position never changes, so setting one already known writes the same number.)
      await typed.commit(
        result.items.flatMap((entry, index) =>
          entry.raw.type === undefined || entry.raw.type === 'payout'
            ? [put(payoutPositionKind, entry.id, result.meta.skipped + index)]
            : [],
        ),
      );
      const item = result.items.find(matches);
      if (item) return item;
    }
    return undefined;
  }

  async function hintsOf(reference: string): Promise<PayoutHint[]> {
    return (await typed.get(payoutHintsKind, reference)) ?? [];
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
    const job: PayoutJob = { reference, tenantReference, since: now() };
    const dueAt = now();
    await typed.commit([
      put(payoutHintsKind, reference, [...hints, kept]),
      { op: 'schedule', queue: PAYOUT_QUEUE, key: reference, value: job, dueAt },
    ]);
    deps.jobs().scheduled(dueAt);
  }

  async function reported(reference: string, status: PayoutStatus): Promise<boolean> {
    return (await typed.get(payoutOutcomeKind, { reference, status })) === true;
  }

  /** One run of a payout's confirmation job. */
  async function runJob(key: string, value: unknown, attempts: number): Promise<JobResult> {
    const job = checkPayoutJob(value);
    if (!job) {
      logger.error('paydrop: dropped a payout job in a shape this paydrop never writes', { key });
      return { done: true };
    }
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
        await typed.commit([remove(payoutHintsKind, reference)]);
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
    const known = (await typed.get(payoutKind, reference)) ?? null;
    let previous = known;
    for (const status of payoutMoves(known, confirmed)) {
      if (await reported(reference, status)) {
        previous = status;
        continue;
      }
      // One reporter at a time per move; a holder that dies frees it after a minute.
      const move = { reference, status };
      if (!(await typed.commit([putNew(payoutReportingKind, move, true)]))) {
        return { retryAt: now() + 1000 };
      }
      // Looked at again under the lock: another instance may have reported this move and let go
      // of the lock between our first look and taking it.
      if (await reported(reference, status)) {
        await typed.commit([remove(payoutReportingKind, move)]);
        previous = status;
        continue;
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
        await typed.commit([remove(payoutReportingKind, move)]);
        logger.error('paydrop: onPayoutOutcome failed; it will be called again', {
          reference,
          error: error instanceof Error ? error.message : String(error),
        });
        return retry(job);
      }
      // The move reported, the payout's status and the lock's release: one commit.
      await typed.commit([
        put(payoutOutcomeKind, move, true),
        put(payoutKind, reference, status),
        remove(payoutReportingKind, move),
      ]);
      previous = status;
    }
    // A move a webhook announced that the list does not show yet (the list lags, or the
    // webhook was forged): look again, backing off, until it shows or the time is up.
    const current = previous ?? 'Pending';
    const waiting = hints.some((hint) => payoutMoves(current, hint.status).length > 0);
    if (waiting) return retry(job);
    await typed.commit([remove(payoutHintsKind, reference)]);
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

  /**
   * The reconciliation sweep: reads the transaction list from where payouts may still move (the
   * first page holding a payout not yet settled and reported) to its end, and schedules a
   * confirmation for every payout whose listed status was never reported. So a payout whose
   * webhook never arrives is still reported. The first sweep starts at the list's end: payouts
   * from before the companion existed are not its to report.
   */
  async function sweep(): Promise<JobResult> {
    let from = await typed.get(sweepPositionKind, null);
    // Everything the sweep learns, committed once at its end (positions, jobs, the cursor).
    const writes: StoreWrite[] = [];
    try {
      const first = await provider.transactionPage(1, SWEEP_PAGE_SIZE);
      from ??= await startOfWatch(first.meta.pageCount);
      let settledUpTo: number | undefined;
      const last = Math.max(1, first.meta.pageCount);
      for (let page = Math.floor(from / SWEEP_PAGE_SIZE) + 1; page <= last; page++) {
        const result = page === 1 ? first : await provider.transactionPage(page, SWEEP_PAGE_SIZE);
        for (const [index, item] of result.items.entries()) {
          const position = result.meta.skipped + index;
          if (position < from || item.raw.type !== 'payout') continue;
          const listed = normalizePayoutStatus(item.status);
          if (!listed) continue;
          const known = (await typed.get(payoutKind, item.id)) ?? null;
          const unreported = payoutMoves(known, listed).length > 0;
          if (unreported) {
            const job: PayoutJob = {
              reference: item.id,
              tenantReference: stringField(item.raw.tenantReference),
              since: now(),
            };
            writes.push(put(payoutPositionKind, item.id, position), {
              op: 'schedule',
              queue: PAYOUT_QUEUE,
              key: item.id,
              value: job,
              dueAt: now(),
            });
          }
          // The next sweep starts at the first payout that may still move or is unreported.
          if (settledUpTo === undefined && (listed === 'Pending' || unreported)) {
            settledUpTo = position;
          }
        }
      }
      writes.push(put(sweepPositionKind, null, settledUpTo ?? first.meta.total));
      await typed.commit(writes);
      if (writes.length > 1) deps.jobs().scheduled(now());
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // What the pages read so far found is kept (the cursor stays where it was).
      if (writes.length > 0) {
        await typed.commit(writes);
        deps.jobs().scheduled(now());
      }
      logger.warn('paydrop: could not sweep the transaction list; it is swept again later', {
        error: error.name,
      });
    }
    return { retryAt: now() + SWEEP_EVERY_MS };
  }

  /**
   * Where the first sweep starts: just after the last transaction listed before the companion
   * first started (the list is in creation order; read newest first, a few pages at most).
   */
  async function startOfWatch(pageCount: number): Promise<number> {
    const since = (await typed.get(sweepSinceKind, null)) ?? now();
    for (let page = Math.max(1, pageCount); page >= Math.max(1, pageCount - 10); page--) {
      const result = await provider.transactionPage(page, SWEEP_PAGE_SIZE);
      for (let index = result.items.length - 1; index >= 0; index--) {
        const createdAt = result.items[index]?.raw.createdAt;
        const time = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
        // Without a time, nothing older can be told apart: watch from here on.
        if (Number.isNaN(time) || time < since) return result.meta.skipped + index + 1;
      }
    }
    return Math.max(0, pageCount - 11) * SWEEP_PAGE_SIZE;
  }

  /**
   * Starts the sweep (a later start just moves its next run), a minute from now. With
   * `keepSchedule` (serverless: every cold start calls this) a sweep already scheduled is left
   * where it is, so starts more often than a minute cannot put it off for ever.
   */
  async function startSweeping(given: { keepSchedule?: boolean } = {}): Promise<void> {
    await typed.commit([putNew(sweepSinceKind, null, now())]);
    if (given.keepSchedule && (await store.pending(SWEEP_QUEUE)) > 0) return;
    await deps.jobs().schedule(SWEEP_QUEUE, SWEEP_KEY, {}, now() + SWEEP_EVERY_MS);
  }

  return { hint, reported, runJob, sweep, startSweeping };
}

function stringField(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export type PayoutOutcomes = ReturnType<typeof createPayoutOutcomes>;
