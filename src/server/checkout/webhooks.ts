/**
 * The provider's webhooks: read with a size cap, signature checked when secrets are configured,
 * answered at once. A webhook is a hint, never proof (issue 9): it schedules a confirmation job
 * in the store (a payment with the status operation, a payout with the transaction list), and
 * is handled only once that job has confirmed the outcome and the merchant's hook has returned.
 * Duplicates and replays collapse onto one job per reference; outcomes are reported once each.
 *
 * Bounded: ids and references over 200 characters are refused; what a hint keeps is a few short
 * fields per reference; at most MAX_UNCONFIRMED hints wait at once (past that the provider is
 * asked to retry later); a reference the companion never initiated costs at most one provider
 * call per minute.
 */

import { type PayoutStatus, parseWebhookEvent } from '../../protocol';
import { verifyWebhook, WebhookVerificationError } from '../../provider/webhook-signature';
import { assertExactBody, LARGEST_BODY_BYTES, readCapped } from '../http';
import type { CheckoutStore } from '../store';
import { type HostedCard, linkAliasOfWebhook } from './hosted-card';
import type { CheckoutHandlerOptions, CheckoutLogger } from './options';
import { type Outcomes, PAYMENT_QUEUE } from './outcomes';
import type { PaymentRecords } from './payment-records';

const MAX_WEBHOOK_BYTES = LARGEST_BODY_BYTES;
/** Longer ids or references are no provider's: refused before anything is kept. */
const MAX_ID_LENGTH = 200;
/** Unconfirmed hints for references the companion does not know, per queue. */
const MAX_UNCONFIRMED = 10_000;

/**
 * The payouts room's side of a webhook, handed to the receiver (never imported by it): the
 * checkout's handler and the back office's each pass the payout confirmations they run.
 */
export interface PayoutWebhookHandler {
  /** The jobs queue its confirmations wait in: bounds the unconfirmed hints, as for payments. */
  readonly queue: string;
  /** The payout status a webhook event announces; undefined for an event of no payout move. */
  statusOfEvent(event: string): PayoutStatus | undefined;
  /** Whether this move was already reported to the merchant. */
  reported(reference: string, status: PayoutStatus): Promise<boolean>;
  /** Keeps what the webhook said and schedules the confirmation. */
  hint(
    reference: string,
    tenantReference: string | null,
    announced: {
      readonly status: PayoutStatus;
      readonly reason: string | null;
      readonly occurredAt: string | null;
    },
  ): Promise<void>;
}

export interface WebhookReceiverDeps {
  readonly options: CheckoutHandlerOptions;
  readonly store: CheckoutStore;
  /**
   * The payment side; without both (a payouts-only receiver, see payouts/payout-webhooks.ts)
   * payment events are acknowledged and nothing is scheduled.
   */
  readonly records?: PaymentRecords | undefined;
  readonly outcomes?: Outcomes | undefined;
  /** The hosted card pages, whose payments are first heard of here or on the return page. */
  readonly hosted?: HostedCard | undefined;
  readonly payouts: PayoutWebhookHandler;
  readonly logger: CheckoutLogger;
}

function answer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** A text field of the payload's data, if short enough to keep. */
function textOf(json: unknown, names: readonly string[], max: number): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const record = json as Record<string, unknown>;
  const data =
    typeof record.data === 'object' && record.data !== null
      ? (record.data as Record<string, unknown>)
      : record;
  for (const source of [data, record]) {
    for (const name of names) {
      const value = Object.hasOwn(source, name) ? source[name] : undefined;
      if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, max);
    }
  }
  return null;
}

export function createWebhookReceiver(deps: WebhookReceiverDeps) {
  const { options, store, payouts, logger } = deps;

  return async function receiveWebhook(request: Request): Promise<Response> {
    const body = await readCapped(request, MAX_WEBHOOK_BYTES, { logger });
    if (body === undefined) return answer(413, { error: 'body_too_large' });
    const secrets = options.webhookSecrets ?? [];
    if (secrets.length > 0) {
      try {
        await verifyWebhook({ headers: request.headers, body, secrets });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        assertExactBody(request, logger);
        logger.warn('paydrop: refused a webhook with a bad signature', { reason: error.reason });
        return answer(401, { error: 'invalid_signature', reason: error.reason });
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return answer(400, { error: 'invalid_json' });
    }
    const event = parseWebhookEvent(json);
    // Acknowledge what is not ours so the provider stops retrying it; there is nothing to do.
    if (!event) return answer(200, { received: true, ignored: true });
    const id = event.id ?? request.headers.get('webhook-id');
    if (
      (id !== null && id.length > MAX_ID_LENGTH) ||
      event.reference.length > MAX_ID_LENGTH ||
      (event.tenantReference?.length ?? 0) > MAX_ID_LENGTH
    ) {
      return answer(400, {
        error: 'invalid_request',
        message: `Event ids and references are at most ${MAX_ID_LENGTH} characters.`,
      });
    }

    if (event.event.startsWith('payment.')) {
      const { records, outcomes } = deps;
      if (!records || !outcomes) return answer(200, { received: true, ignored: true });
      if (await records.reported(event.reference)) {
        return answer(200, { received: true, duplicate: true });
      }
      let known = (await records.get(event.reference)) !== undefined;
      // A payment made on a hosted card page of ours, before (or without) its return page.
      const alias = known ? null : linkAliasOfWebhook(json);
      if (alias !== null && deps.hosted) known = await deps.hosted.adopt(event.reference, alias);
      if (!known && (await store.pending(PAYMENT_QUEUE)) >= MAX_UNCONFIRMED) {
        return answer(503, {
          error: 'busy',
          message: 'Too many unconfirmed webhooks; retry later.',
        });
      }
      await outcomes.hint(event.reference);
      return answer(200, { received: true });
    }

    const status = payouts.statusOfEvent(event.event);
    if (!status) return answer(200, { received: true, ignored: true });
    if (await payouts.reported(event.reference, status)) {
      return answer(200, { received: true, duplicate: true });
    }
    if ((await store.pending(payouts.queue)) >= MAX_UNCONFIRMED) {
      return answer(503, { error: 'busy', message: 'Too many unconfirmed webhooks; retry later.' });
    }
    await payouts.hint(event.reference, event.tenantReference, {
      status,
      reason: textOf(json, ['reason', 'failureReason', 'message'], 500),
      occurredAt: occurredAt(textOf(json, ['createdAt', 'timestamp', 'occurredAt'], 64)),
    });
    return answer(200, { received: true });
  };
}

/** The webhook's own time, when it carries a readable one. */
function occurredAt(text: string | null): string | null {
  if (text === null) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
