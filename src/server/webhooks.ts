/**
 * The provider's webhooks: read with a size cap, signature checked when secrets are configured,
 * answered at once, then confirmed in the background. A webhook is a hint, never proof: a payment
 * is confirmed with the status operation, a payout with the transaction list, before anything
 * is reported. Duplicates and replays are dropped by event id and by event and reference.
 */

import {
  normalizePayoutStatus,
  type PayoutStatus,
  parseWebhookEvent,
  type TransactionListItem,
  type WebhookEvent,
} from '../protocol';
import type { ProviderClient } from '../provider/client';
import { payoutMoves } from '../provider/payout-state';
import { verifyWebhook, WebhookVerificationError } from '../provider/webhook-signature';
import type { CheckoutHandlerOptions, CheckoutLogger } from './options';
import type { PaymentService } from './payments';
import { assertExactBody, readCapped } from './read-body';
import type { CheckoutStore } from './store';

const MAX_WEBHOOK_BYTES = 64 * 1024;
const DAY_MS = 24 * 3600 * 1000;
const DEDUPE_MS = 7 * DAY_MS;
/** How far back (in pages of 100) a payout never seen before is looked for. */
const MAX_SCANNED_PAGES = 500;
/** When the merchant's hook fails, the outcome is offered again after this long, a few times. */
const HOOK_RETRY_MS = [5_000, 30_000, 120_000];

export interface WebhookReceiverDeps {
  readonly options: CheckoutHandlerOptions;
  readonly provider: ProviderClient;
  readonly payments: PaymentService;
  readonly store: CheckoutStore;
  readonly logger: CheckoutLogger;
  readonly background: (work: () => Promise<unknown>) => void;
  readonly later: (delayMs: number, work: () => void) => void;
}

function answer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export function createWebhookReceiver(deps: WebhookReceiverDeps) {
  const { options, provider, payments, store, logger } = deps;

  /**
   * Finds a payout in the transaction list. The list keeps creation order, so a payout's
   * position never changes: once found it is remembered, and a reversal weeks later costs one
   * page. The first time, pages are read newest first (payouts are recent).
   */
  async function confirmedPayoutStatus(reference: string): Promise<PayoutStatus | undefined> {
    const matches = (entry: TransactionListItem) =>
      entry.id === reference || entry.raw.reference === reference;
    const remembered = (await store.get(`payout-position:${reference}`)) as number | undefined;
    if (remembered !== undefined) {
      const page = await provider.transactionPage(Math.floor(remembered / 100) + 1, 100);
      const item = page.items.find(matches);
      if (item) return normalizePayoutStatus(item.status);
    }
    const first = await provider.transactionPage(1, 100);
    const lastPage = first.meta.pageCount;
    for (let page = lastPage; page >= 1 && lastPage - page < MAX_SCANNED_PAGES; page--) {
      const result = page === 1 ? first : await provider.transactionPage(page, 100);
      const index = result.items.findIndex(matches);
      const item = result.items[index];
      if (item) {
        await store.set(`payout-position:${reference}`, result.meta.skipped + index, 400 * DAY_MS);
        return normalizePayoutStatus(item.status);
      }
    }
    return undefined;
  }

  async function handlePayout(event: WebhookEvent, attempt = 0): Promise<void> {
    const confirmed = await confirmedPayoutStatus(event.reference);
    if (!confirmed) {
      logger.warn('paydrop: a payout webhook names a payout the provider does not list; ignored', {
        reference: event.reference,
        event: event.event,
      });
      return;
    }
    const known =
      ((await store.get(`payout:${event.reference}`)) as PayoutStatus | undefined) ?? null;
    let previous = known;
    for (const status of payoutMoves(known, confirmed)) {
      if (
        !(await store.add(
          `payout-outcome:${event.reference}:${status}`,
          true,
          90 * 24 * 3600 * 1000,
        ))
      ) {
        previous = status;
        continue;
      }
      try {
        await options.onPayoutOutcome?.({
          reference: event.reference,
          tenantReference: event.tenantReference,
          status,
          previousStatus: previous,
        });
      } catch (error) {
        await store.delete(`payout-outcome:${event.reference}:${status}`);
        const retryIn = HOOK_RETRY_MS[attempt];
        logger.error('paydrop: onPayoutOutcome failed; it will be called again', {
          reference: event.reference,
          retryInMs: retryIn ?? null,
          error: error instanceof Error ? error.message : String(error),
        });
        if (retryIn !== undefined) {
          deps.later(retryIn, () => deps.background(() => handlePayout(event, attempt + 1)));
        }
        return;
      }
      await store.set(`payout:${event.reference}`, status, 90 * 24 * 3600 * 1000);
      previous = status;
    }
  }

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
    const firstById = id === null ? true : await store.add(`webhook:${id}`, true, DEDUPE_MS);
    if (!firstById) return answer(200, { received: true, duplicate: true });

    if (event.event.startsWith('payment.')) {
      const outcome = await payments.outcomeOf(event.reference);
      if (!outcome) payments.confirmHint(event.reference);
    } else {
      deps.background(() => handlePayout(event));
    }
    return answer(200, { received: true });
  };
}
