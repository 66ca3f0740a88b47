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
import { type CheckoutStore, checkFields, put, putNew, remove, type StoreWrite } from '../store';
import type { AttemptLimits } from './attempt-limits';
import { forBrowser } from './browser-reason';
import { serverChannel } from './channels';
import {
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

  /**
   * The first success of an order (or of a link's checkout) is the one the customer sees; any
   * later one is a duplicate to refund. Stable across retries of the same reference.
   */
  async function firstSuccess(
    reference: string,
    payment: PaymentRecord | undefined,
  ): Promise<string | null> {
    if (!payment) return null;
    if (await typed.commit([putNew(firstSuccessKind, payment, reference)])) return null;
    const first = await typed.get(firstSuccessKind, payment);
    return first === undefined || first === reference ? null : first;
  }

  /** A card payment that failed, however it was learned: once per reference (limits.ts). */
  async function countDecline(reference: string, payment: PaymentRecord | undefined) {
    if (!deps.limits) return;
    if (!payment || !serverChannel(payment.channel).cardTesting) return;
    await deps.limits.cardDeclined(reference, {
      orderId: payment.orderId,
      checkoutId: payment.checkoutId,
      address: null,
    });
  }

  /**
   * Reports a final status once: to the merchant's hook, then to every browser watching.
   * 'failed' when the hook threw (the job tries again), 'busy' when another caller is reporting.
   */
  async function report(
    reportOf: PaymentStatusReport,
  ): Promise<'reported' | 'already' | 'busy' | 'failed'> {
    const reference = reportOf.paymentReference;
    const status = reportOf.paymentStatus;
    if (!isFinal(status)) return 'failed';
    // Why it failed, in the contract's terms (issue 12): kept for /status, told to the merchant
    // and to the browsers.
    const failure = failureDetails(reportOf);
    const confirmed = records.confirmedWrites(reference, status, failure);
    const [reported, payment] = await typed.getMany([
      [outcomeKind, reference],
      [paymentKind, reference],
    ] as const);
    // The confirmed status and the reporting lock in one commit; the status alone when reported.
    if (reported) {
      await typed.commit(confirmed);
      if (status === 'FAILED') await countDecline(reference, payment);
      return 'already';
    }
    const locked = await typed.commit([
      ...confirmed,
      putNew(reportingKind, reference, true, REPORTING_LOCK_MS),
    ]);
    if (!locked) await typed.commit(confirmed);
    if (status === 'FAILED') await countDecline(reference, payment);
    if (!locked) return 'busy';
    // Looked at again under the lock: another caller may have reported and let go of the lock
    // between our first look and taking it (seen on Redis as a payment reported twice).
    if (await records.reported(reference)) {
      await typed.commit([remove(reportingKind, reference)]);
      return 'already';
    }
    try {
      const duplicateOf = status === 'SUCCESSFUL' ? await firstSuccess(reference, payment) : null;
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
      return 'failed';
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
    return 'reported';
  }

  /**
   * Where a payment stands, settling a card whose finalize answer never came: if the provider
   * still says PENDING, finalize is sent again. We assume (docs/server.md, "Gaps we assume") that the
   * provider treats finalize as idempotent per paymentReference, as the sandbox does: a second
   * finalize of a charged payment charges nothing, of an uncharged one charges once.
   */
  async function settle(reference: string, fresh: boolean): Promise<PaymentStatusReport> {
    let answer = await deps.status(reference, fresh);
    const finalizing =
      answer.paymentStatus === 'PENDING' ? await records.finalizing(reference) : undefined;
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

  /** Settles and reports; on a hook failure or a busy reporter, the job looks again soon. */
  async function confirm(reference: string, fresh = false): Promise<PaymentStatusReport> {
    const answer = await settle(reference, fresh);
    if (isFinal(answer.paymentStatus)) {
      const result = await report(answer);
      if (result === 'failed' || result === 'busy') await hint(reference, now() + 1000);
    }
    return answer;
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
    if (await records.reported(reference)) return { done: true };
    // A card never finalized past its hours: nothing can charge it; stop (issue 20).
    if (
      job.unfinalizedUntil !== undefined &&
      now() >= job.unfinalizedUntil &&
      !(await records.finalizeSent(reference))
    )
      return { done: true };
    const known = await records.get(reference);
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
      const answer = await confirm(reference, job.fresh);
      if (isFinal(answer.paymentStatus) && (await records.reported(reference))) {
        return { done: true };
      }
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

  return { report, settle, confirm, hint, hinting, track, tracking, runJob, isRefusal };
}

export type Outcomes = ReturnType<typeof createOutcomes>;
