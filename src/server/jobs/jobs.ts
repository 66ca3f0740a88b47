/**
 * Work that must happen later — confirm a payment, confirm a payout, report an outcome the
 * merchant's hook refused — is a job in the store with its next attempt time (CONVENTIONS 19).
 * Whichever instance claims it holds its lease; a timer here only wakes the picker. A process
 * that dies loses nothing but the wake-up: the job's lease runs out and another picks it up.
 */
import type { CheckoutLogger } from '../http';
import type { CheckoutStore, ScheduledJob } from '../store';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Fast retries while an outage is young, then hourly: at least 30 minutes, up to 3 days. */
const FAST_PHASE_MS = 30 * MINUTE_MS;
export const GIVE_UP_AFTER_MS = 72 * HOUR_MS;
const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 5 * MINUTE_MS;
/** How long one claim holds a job: past it, another instance may take the job over. */
const LEASE_MS = 2 * MINUTE_MS;
const BATCH = 50;
/** Jobs one instance runs at once. */
const MAX_RUNNING = 64;
/** How often the picker looks for due work when nothing woke it sooner. */
const POLL_MS = 1000;

/**
 * The next attempt of work first asked for at `since`: roughly doubling (the delay is the time
 * already spent, from 1 s up to 5 min), jittered by ±20 % so that instances and references
 * spread out, hourly after 30 minutes, and none after 3 days (undefined).
 */
export function nextAttempt(
  since: number,
  now: number,
  random: () => number = Math.random,
): number | undefined {
  const elapsed = Math.max(0, now - since);
  if (elapsed >= GIVE_UP_AFTER_MS) return undefined;
  const base =
    elapsed >= FAST_PHASE_MS ? HOUR_MS : Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, elapsed));
  return now + Math.round(base * (0.8 + 0.4 * random()));
}

/** What a job's run decided: done (finish it), or try again at `at`. */
export type JobResult = { readonly done: true } | { readonly retryAt: number };

export type JobRunner = (key: string, value: unknown, attempts: number) => Promise<JobResult>;

/**
 * What one `runDueWork()` did: the jobs it ran, by queue (`payments`: confirming a payment's
 * outcome and reporting it; `payouts`: confirming a payout's move; `sweeps`: reading the
 * transaction list for payouts whose webhooks never came), and how they ended.
 * @example { ran: { payments: 2, payouts: 0, sweeps: 1 }, finished: 2, retrying: 1, failed: 0, more: false }
 */
export interface DueWorkSummary {
  readonly ran: Readonly<Record<string, number>>;
  /** Done for good (an outcome confirmed and reported, or given up on). */
  readonly finished: number;
  /** Run, and scheduled again for later (the provider still says PENDING, or was down). */
  readonly retrying: number;
  /** Threw (a bug, or the store failed): scheduled again a minute later where the store allowed. */
  readonly failed: number;
  /** True when it stopped at `maxJobs`: more may be due, so call it again. */
  readonly more: boolean;
}

/** How one claimed job ended, for the summary. */
type JobEnd = 'finished' | 'retrying' | 'failed';

export interface JobPickerDeps {
  readonly store: CheckoutStore;
  readonly now: () => number;
  readonly logger: CheckoutLogger;
  readonly queues: Readonly<Record<string, JobRunner>>;
  /** Runs work in the background (kept alive by waitUntil, awaited by idle()). */
  readonly background: (work: () => Promise<unknown>) => void;
  /**
   * False: no timer looks for due work (serverless: runAllDue() is called by a cron); work
   * scheduled due now is still started at once. Default true.
   */
  readonly poll?: boolean | undefined;
}

export function createJobPicker(deps: JobPickerDeps) {
  const { store, now, logger } = deps;
  const owner = crypto.randomUUID();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  /** Jobs running now on this instance: one slow job never holds up the others. */
  const running = new Set<Promise<JobEnd>>();
  /** The last claim filled every free slot: more may be due once a slot frees. */
  let moreDue = false;

  async function runOne(queue: string, run: JobRunner, job: ScheduledJob): Promise<JobEnd> {
    let result: JobResult;
    let threw = false;
    try {
      result = await run(job.key, job.value, job.attempts);
    } catch (error) {
      threw = true;
      // A bug or a store failure: try again later rather than lose the work.
      logger.error('paydrop: a background job failed; it will run again', {
        queue,
        key: job.key,
        error: error instanceof Error ? error.message : String(error),
      });
      result = { retryAt: now() + MINUTE_MS };
    }
    try {
      if ('done' in result) await store.finish(queue, job.key);
      else await store.schedule(queue, job.key, job.value, result.retryAt);
    } catch (error) {
      // The store went away (an outage, or the handler closed) as the job ended: its lease runs
      // out and it runs again. Said here, never thrown: a job's promise may have no one waiting
      // on it (a claim of the next queue failed after this one started), and an unhandled
      // rejection would end the merchant's process.
      logger.error(
        'paydrop: a background job ran but its end could not be saved; it will run again',
        {
          queue,
          key: job.key,
          error: error instanceof Error ? error.message : String(error),
        },
      );
      return 'failed';
    }
    return threw ? 'failed' : 'done' in result ? 'finished' : 'retrying';
  }

  /** Claims what is due, as many as there are free slots, and starts each; returns them. */
  async function claimAndStart(): Promise<Started[]> {
    const started: Started[] = [];
    moreDue = false;
    try {
      for (const [queue, run] of Object.entries(deps.queues)) {
        const room = Math.min(BATCH, MAX_RUNNING - running.size);
        if (room <= 0) {
          moreDue = true;
          break;
        }
        const jobs = await store.claim(queue, owner, now(), room, LEASE_MS);
        if (jobs.length >= room) moreDue = true;
        for (const job of jobs) {
          const done: Promise<JobEnd> = runOne(queue, run, job).finally(() => {
            running.delete(done);
            if (moreDue) wake();
          });
          running.add(done);
          started.push({ queue, done });
        }
      }
    } finally {
      arm();
    }
    return started;
  }

  // Claims one at a time per instance; a wake while one is waiting joins it, never a pile.
  let chain: Promise<unknown> = Promise.resolve();
  let queued: Promise<Started[]> | undefined;
  function claimDue(): Promise<Started[]> {
    if (!queued) {
      const next = chain.then(() => {
        queued = undefined;
        return closed ? [] : claimAndStart();
      });
      queued = next;
      chain = next.catch(() => undefined);
    }
    return queued;
  }

  function runDue(): Promise<void> {
    return claimDue()
      .then((started) => Promise.all(started.map(({ done }) => done)))
      .then(() => undefined);
  }

  /**
   * Claims and runs what is due, round after round (work a job makes due now, such as a sweep's
   * confirmations, runs in the same call), until nothing due is left or `maxJobs` have run.
   */
  async function runAllDue(maxJobs: number): Promise<DueWorkSummary> {
    const ran: Record<string, number> = Object.fromEntries(
      Object.keys(deps.queues).map((queue) => [queue, 0]),
    );
    const ends: Record<JobEnd, number> = { finished: 0, retrying: 0, failed: 0 };
    let total = 0;
    let more = false;
    while (!closed) {
      const started = await claimDue();
      if (started.length === 0) break;
      const settled = await Promise.allSettled(started.map(({ done }) => done));
      settled.forEach((result, index) => {
        const queue = started[index]?.queue ?? '';
        ran[queue] = (ran[queue] ?? 0) + 1;
        ends[result.status === 'fulfilled' ? result.value : 'failed'] += 1;
      });
      total += started.length;
      if (total >= maxJobs) {
        more = true;
        break;
      }
    }
    return { ran, ...ends, more };
  }

  function arm(): void {
    if (closed || timer !== undefined || deps.poll === false) return;
    timer = setTimeout(() => {
      timer = undefined;
      wake();
    }, POLL_MS);
    // A handler left open must not keep a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  }

  function wake(): void {
    if (closed) return;
    deps.background(runDue);
  }

  return {
    /** Looks for due work now (after scheduling some), and keeps looking every second. */
    wake,
    /** Runs what is due now and resolves when it is done (a simulation that moved the clock). */
    runDue,
    /** Runs every due job once, and what they make due, up to `maxJobs`; says what it did. */
    runAllDue,
    /** Adds (or moves) a job and wakes the picker when it is due now. */
    async schedule(queue: string, key: string, value: unknown, dueAt: number): Promise<void> {
      await store.schedule(queue, key, value, dueAt);
      if (dueAt <= now()) wake();
      else arm();
    },
    /** A job due at `dueAt` was scheduled in a call's commit: wakes the picker or arms it. */
    scheduled(dueAt: number): void {
      if (dueAt <= now()) wake();
      else arm();
    },
    close(): void {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** A job claimed and started, and the queue it came from. */
interface Started {
  readonly queue: string;
  readonly done: Promise<JobEnd>;
}

export type JobPicker = ReturnType<typeof createJobPicker>;
