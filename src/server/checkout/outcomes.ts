/**
 * A payment's outcome, confirmed with the provider and reported exactly once: to the merchant's
 * hook, then to every browser watching. Confirmation is a job in the store (`payments` queue),
 * scheduled when a payment is initiated and again by every hint (a webhook, the bank's return, a
 * finalize whose answer was lost); it runs until the outcome is confirmed AND the hook returned,
 * through provider outages of up to three days (issue 9).
 */
import {
  type PaymentStatusReport,
  ProviderConflictError,
  ProviderError,
  ProviderNotFoundError,
  ProviderValidationError,
} from '../../protocol';
import { failureDetails } from '../../protocol/failure-reason';
import type { ProviderClient } from '../../provider/client';
import { type JobPicker, type JobResult, nextAttempt } from '../jobs';
import {
  type CheckoutStore,
  checkFields,
  put,
  putNew,
  remove,
  type StoreWrite,
  stillHolds,
} from '../store';
import {
  type AttemptContext,
  type AttemptLimits,
  cardAttemptKind as attemptKind,
} from './attempt-limits';
import { forBrowser } from './browser-reason';
import { serverChannel } from './channels';
import {
  finalizeSentKind,
  firstSuccessKind,
  linkSucceededKind,
  lookupKind,
  outcomeKind,
  paymentKind,
  reportingKind,
} from './checkout-records';
import type { CheckoutHandlerOptions, CheckoutLogger, PaymentOutcome } from './options';
import {
  DAY_MS,
  type FinalizeAnswer,
  type FinalStatus,
  type PaymentRecord,
  type PaymentRecords,
} from './payment-records';
import type { StatusCache } from './status-cache';

export const PAYMENT_QUEUE = 'payments';
/** A payment nobody has hinted about is first looked at after this long (then backing off). */
const RECONCILE_FIRST_MS = 60_000;
/** How long a lock on reporting one outcome lasts, should its holder die mid-hook. */
const REPORTING_LOCK_MS = 60_000;
/** A reference the companion never initiated (a link paid on the provider's page, or forged). */
const UNKNOWN_LOOKUP_MS = 60_000;
const UNKNOWN_GIVE_UP_MS = DAY_MS;
/** Tries of the reporting lock's commit while other successes of the order take its first place. */
const LOCK_TRIES = 3;

/** What a payment job keeps: small, plain, bounded (references are at most 200 characters). */
export interface PaymentJob {
  readonly reference: string;
  /** When this round of confirmation started (backoff counts from here). */
  readonly since: number;
  /** The first look wants an answer asked after the hint (a webhook), not a cached one. */
  readonly fresh: boolean;
  /**
   * A direct card payment: stop re-checking it at this time if its finalize was never sent
   * (nothing charges it; issue 20). Absent for every other payment.
   */
  readonly unfinalizedUntil?: number;
}

/** A payment job as read back from the store's queue: checked, not trusted. */
const checkPaymentJob = checkFields<PaymentJob>({
  reference: 'string',
  since: 'number',
  fresh: 'boolean',
});

export interface OutcomeDeps {
  readonly options: CheckoutHandlerOptions;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly records: PaymentRecords;
  readonly status: StatusCache;
  readonly logger: CheckoutLogger;
  readonly now: () => number;
  readonly jobs: () => JobPicker;
  /** Counts a card's decline against its order, checkout and address (issue 20). */
  readonly limits?: AttemptLimits | undefined;
}

function isFinal(status: string): status is FinalStatus {
  return status === 'SUCCESSFUL' || status === 'FAILED';
}

/** A refusal that says the provider did not act on the call (nothing charged by it). */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof ProviderValidationError ||
    error instanceof ProviderConflictError ||
    error instanceof ProviderNotFoundError
  );
}

export function createOutcomes(deps: OutcomeDeps) {
  const { options, provider, records, logger, now } = deps;
  const typed = records.records;

  /** The writes that count a failed card payment's decline (limits.ts): once per reference. */
  function declineWrites(
    reference: string,
    payment: PaymentRecord | undefined,
    attempted: AttemptContext | undefined,
  ): StoreWrite[] {
    if (!deps.limits || !payment || !serverChannel(payment.channel).cardTesting) return [];
    return deps.limits.declineWrites(reference, attempted, {
      orderId: payment.orderId,
      checkoutId: payment.checkoutId,
      address: null,
    });
  }

  /**
   * Reports a final status once: to the merchant's hook, then to every browser watching.
   * 'failed' when the hook threw (the job tries again), 'busy' when another caller is reporting.
   * `pending`: writes of the caller's (a finalize's answer) that go in the report's first commit.
   * Two commits: before the hook, the confirmed status, the reporting lock (taken only while no
   * outcome is reported: a guard of the same commit), the order's first success (its
   * exactly-once guard, which the hook is told of) and a card's decline (counted at once, so the
   * next attempt already meets the limit); after it, the outcome with its event.
   */
  async function reportKnown(
    reportOf: PaymentStatusReport,
    pending: readonly StoreWrite[] = [],
  ): Promise<{ result: 'reported' | 'already' | 'busy' | 'failed'; known?: FinalStatus }> {
    const reference = reportOf.paymentReference;
    const status = reportOf.paymentStatus;
    if (!isFinal(status)) {
      if (pending.length > 0) await typed.commit(pending);
      return { result: 'failed' };
    }
    // Why it failed, in the contract's terms (issue 12): kept for /status, told to the merchant
    // and to the browsers.
    const failure = failureDetails(reportOf);
    const confirmed = [...pending, ...records.confirmedWrites(reference, status, failure)];
    const [reported, payment, attempted] = await typed.getMany([
      [outcomeKind, reference],
      [paymentKind, reference],
      [attemptKind, reference],
    ] as const);
    const declines = status === 'FAILED' ? declineWrites(reference, payment, attempted) : [];
    // The confirmed status alone when reported already (its reporter counted a decline: a
    // decline's place is taken only with the reporting lock, once per reference in its window).
    if (reported) {
      await typed.commit(confirmed);
      return { result: 'already', known: reported };
    }
    // The first success of an order (or of a link's checkout) is the one the customer sees; any
    // later one is a duplicate to refund. Stable across retries of the same reference.
    const order = status === 'SUCCESSFUL' ? payment : undefined;
    let first = order ? await typed.get(firstSuccessKind, order) : undefined;
    let locked = false;
    for (let tries = 0; tries < LOCK_TRIES && !locked; tries++) {
      locked = await typed.commit([
        ...confirmed,
        ...declines,
        putNew(reportingKind, reference, true, REPORTING_LOCK_MS),
        // Looked at once the lock is this commit's: a reporter letting go of it meanwhile wrote
        // its outcome in the same step (on PostgreSQL, this waits for that step to land).
        stillHolds(outcomeKind, reference, undefined),
        ...(order && first === undefined ? [putNew(firstSuccessKind, order, reference)] : []),
      ]);
      if (locked) break;
      // Why not, in one read: reported or being reported meanwhile, or another success took the
      // order's first place (then it is tried again, as the duplicate it is).
      const [reportedNow, reporting, firstNow] = await typed.getMany([
        [outcomeKind, reference],
        [reportingKind, reference],
        [firstSuccessKind, order ?? { orderId: null, checkoutId: '' }],
      ] as const);
      if (reportedNow || reporting || !order || firstNow === undefined) {
        await typed.commit(confirmed);
        return reportedNow
          ? { result: 'already', known: reportedNow }
          : { result: 'busy', known: status };
      }
      first = firstNow;
    }
    if (!locked) {
      await typed.commit(confirmed);
      return { result: 'busy', known: status };
    }
    try {
      const duplicateOf = first === undefined || first === reference ? null : first;
      const outcome: PaymentOutcome = {
        reference,
        status,
        orderId: payment?.orderId ?? null,
        linkAlias: payment?.linkAlias ?? null,
        channel: payment?.channel ?? null,
        amount: reportOf.amount,
        amountMatches:
          payment === undefined ||
          (payment.amount.amountMinor === reportOf.amount.amountMinor &&
            payment.amount.currency === reportOf.amount.currency),
        duplicate: duplicateOf !== null,
        duplicateOf,
        ...failure,
      };
      if (!outcome.amountMatches) {
        logger.warn('paydrop: the provider reports a different amount than the merchant decided', {
          reference,
          expected: payment?.amount,
          reported: reportOf.amount,
        });
      }
      if (outcome.duplicate) {
        logger.warn('paydrop: a second payment succeeded for one order; refund it', {
          reference,
          duplicateOf,
          orderId: outcome.orderId,
        });
      }
      await options.onPaymentOutcome?.(outcome);
    } catch (error) {
      await typed.commit([remove(reportingKind, reference)]);
      logger.error('paydrop: onPaymentOutcome failed; the outcome will be reported again', {
        reference,
        error: error instanceof Error ? error.message : String(error),
      });
      return { result: 'failed', known: status };
    }
    // The outcome, what follows from it and its event, in one commit: never one without the other.
    await typed.commit([
      put(outcomeKind, reference, status),
      // A link paid through the checkout, for the back office's list (which knows whether the
      // link was one-time; the companion does not, so this blocks nothing here).
      ...(status === 'SUCCESSFUL' && payment?.linkAlias
        ? [put(linkSucceededKind, payment.linkAlias, reference)]
        : []),
      remove(reportingKind, reference),
      {
        op: 'append',
        stream: `events:${reference}`,
        value: {
          type: 'status',
          reference,
          status,
          // The browser hears a plain decline, not what would tell a tester the card is live.
          ...forBrowser(failure),
        },
      },
    ]);
    return { result: 'reported', known: status };
  }

  async function report(
    reportOf: PaymentStatusReport,
  ): Promise<'reported' | 'already' | 'busy' | 'failed'> {
    return (await reportKnown(reportOf)).result;
  }

  /**
   * Where a payment stands, settling a card whose finalize answer never came: if the provider
   * still says PENDING, finalize is sent again. We assume (docs/server.md, "Gaps we assume") that the
   * provider treats finalize as idempotent per paymentReference, as the sandbox does: a second
   * finalize of a charged payment charges nothing, of an uncharged one charges once.
   * `answered`: the finalize answer this call just had (not stored yet): nothing is sent again.
   */
  async function settle(
    reference: string,
    fresh: boolean,
    answered?: FinalizeAnswer,
  ): Promise<PaymentStatusReport> {
    let answer = await deps.status(reference, fresh);
    const finalizing =
      answer.paymentStatus === 'PENDING' && answered === undefined
        ? await records.finalizing(reference)
        : undefined;
    if (finalizing?.sent && finalizing.answer === undefined) {
      try {
        const finalization = await provider.finalizePayment(reference);
        await records.setFinalizeAnswer(reference, finalization.status);
      } catch (error) {
        if (isRefusal(error)) await records.setFinalizeAnswer(reference, 'REFUSED');
        throw error;
      }
      answer = await deps.status(reference, true);
    }
    return answer;
  }

  /**
   * Settles and reports; on a hook failure or a busy reporter, the job looks again soon. Says
   * also what is known for sure after (the outcome reported, else the status confirmed) and
   * whether it is reported. `answered`: a finalize's answer just had, kept with the report's
   * first commit (or on its own when there is no report).
   */
  async function confirmKnown(
    reference: string,
    fresh = false,
    answered?: FinalizeAnswer,
  ): Promise<{ answer: PaymentStatusReport; known?: FinalStatus; reported: boolean }> {
    const pending =
      answered === undefined ? [] : [records.finalizeAnswerWrite(reference, answered)];
    let answer: PaymentStatusReport;
    try {
      answer = await settle(reference, fresh, answered);
    } catch (error) {
      if (pending.length > 0) await typed.commit(pending);
      throw error;
    }
    if (!isFinal(answer.paymentStatus)) {
      if (pending.length > 0) await typed.commit(pending);
      return { answer, reported: false };
    }
    const { result, known } = await reportKnown(answer, pending);
    if (result === 'failed' || result === 'busy') await hint(reference, now() + 1000);
    return {
      answer,
      ...(known !== undefined ? { known } : {}),
      reported: result === 'reported' || result === 'already',
    };
  }

  async function confirm(reference: string, fresh = false): Promise<PaymentStatusReport> {
    return (await confirmKnown(reference, fresh)).answer;
  }

  /** Something says this payment moved: confirm it now (or at `dueAt`), backing off from here. */
  async function hint(reference: string, dueAt = now(), fresh = true): Promise<void> {
    const job: PaymentJob = { reference, since: now(), fresh };
    await deps.jobs().schedule(PAYMENT_QUEUE, reference, job, dueAt);
  }

  /** A payment just initiated: reconciled later even if no webhook or browser ever asks. */
  async function track(reference: string, unfinalizedUntil?: number): Promise<void> {
    const job: PaymentJob = {
      reference,
      since: now(),
      fresh: false,
      ...(unfinalizedUntil !== undefined ? { unfinalizedUntil } : {}),
    };
    await deps.jobs().schedule(PAYMENT_QUEUE, reference, job, now() + RECONCILE_FIRST_MS);
  }

  /** `hint`'s job as a write, for a call's commit; `committed` wakes the picker after it. */
  function hinting(reference: string, dueAt = now(), fresh = true) {
    const job: PaymentJob = { reference, since: now(), fresh };
    const write: StoreWrite = {
      op: 'schedule',
      queue: PAYMENT_QUEUE,
      key: reference,
      value: job,
      dueAt,
    };
    return { write, committed: () => deps.jobs().scheduled(dueAt) };
  }

  /**
   * `track`'s job as a write, for the initiating call's commit; `committed` then wakes the picker
   * (after the commit: a picker woken before it would find nothing).
   */
  function tracking(reference: string, unfinalizedUntil?: number) {
    const job: PaymentJob = {
      reference,
      since: now(),
      fresh: false,
      ...(unfinalizedUntil !== undefined ? { unfinalizedUntil } : {}),
    };
    const dueAt = now() + RECONCILE_FIRST_MS;
    const write: StoreWrite = {
      op: 'schedule',
      queue: PAYMENT_QUEUE,
      key: reference,
      value: job,
      dueAt,
    };
    return { write, committed: () => deps.jobs().scheduled(dueAt) };
  }

  /** One run of a payment's confirmation job. */
  async function runJob(key: string, value: unknown): Promise<JobResult> {
    const job = checkPaymentJob(value);
    if (!job) {
      logger.error('paydrop: dropped a payment job in a shape this paydrop never writes', { key });
      return { done: true };
    }
    const reference = job.reference;
    // What the job looks at first, in one read.
    const [reported, sent, known] = await typed.getMany([
      [outcomeKind, reference],
      [finalizeSentKind, reference],
      [paymentKind, reference],
    ] as const);
    if (reported) return { done: true };
    // A card never finalized past its hours: nothing can charge it; stop (issue 20).
    if (job.unfinalizedUntil !== undefined && now() >= job.unfinalizedUntil && sent !== true)
      return { done: true };
    if (!known) {
      // Not ours, or forged: at most one provider call per reference per minute, for a day.
      if (now() - job.since > UNKNOWN_GIVE_UP_MS) return { done: true };
      if (!(await typed.commit([putNew(lookupKind, reference, 'asking', UNKNOWN_LOOKUP_MS)]))) {
        // Asked within the minute: the provider said it has no such payment, or is being asked.
        if ((await typed.get(lookupKind, reference)) === 'absent') return { done: true };
        return { retryAt: now() + UNKNOWN_LOOKUP_MS };
      }
    }
    try {
      const settled = await confirmKnown(reference, job.fresh);
      if (settled.reported) return { done: true };
    } catch (error) {
      if (!known && error instanceof ProviderNotFoundError) {
        await typed.commit([put(lookupKind, reference, 'absent', UNKNOWN_LOOKUP_MS)]);
        return { done: true };
      }
      if (!(error instanceof ProviderError)) throw error;
      logger.warn('paydrop: could not confirm a payment; it will be checked again', {
        reference,
        error: error.name,
      });
    }
    let at = nextAttempt(job.since, now());
    // Looked at once more when its hours are up, and dropped then unless it was finalized.
    if (at !== undefined && job.unfinalizedUntil !== undefined && job.unfinalizedUntil > now())
      at = Math.min(at, job.unfinalizedUntil);
    if (at === undefined) {
      logger.error('paydrop: gave up confirming a payment after 3 days', { reference });
      return { done: true };
    }
    return { retryAt: known ? at : Math.max(at, now() + UNKNOWN_LOOKUP_MS) };
  }

  return {
    report,
    settle,
    confirm,
    confirmKnown,
    hint,
    hinting,
    track,
    tracking,
    runJob,
    isRefusal,
  };
}

export type Outcomes = ReturnType<typeof createOutcomes>;
