/**
 * The payout webhooks for a payouts handler, by the checkout's own receiver: the server's
 * `createPayoutsWebhookReceiver` (src/server/checkout/webhooks.ts, issue 9) gives the same size cap,
 * signature check, dedupe, confirmation jobs over the transaction list and once-per-state
 * `onPayoutOutcome` (with the webhook's reason and time). Nothing of it is copied here; this only
 * shapes the payouts handler's options the way that receiver reads them.
 */
import type { ProviderClient } from '../../provider/client';
import type { CheckoutHandlerOptions, CheckoutLogger, PayoutOutcome } from '../checkout/options';
import { createPayoutsWebhookReceiver } from '../checkout/webhooks';
import type { DueWorkSummary } from '../jobs/jobs';
import type { CheckoutStore } from '../store/store';
import type { PayoutsHandlerOptions } from './options';

export interface PayoutWebhookDeps {
  readonly options: PayoutsHandlerOptions;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly logger: CheckoutLogger;
  /** Called once per confirmed move (the merchant's hook goes inside it). */
  readonly onPayoutOutcome: (outcome: PayoutOutcome) => Promise<void>;
  readonly background: (work: () => Promise<unknown>) => void;
  readonly now: () => number;
}

export function createPayoutWebhookReceiver(deps: PayoutWebhookDeps): {
  receive: (request: Request) => Promise<Response>;
  close: () => void;
  runAllDue: (maxJobs: number) => Promise<DueWorkSummary>;
} {
  const options: CheckoutHandlerOptions = {
    secretKey: deps.options.secretKey,
    baseUrl: deps.options.baseUrl,
    listBaseUrl: deps.options.listBaseUrl,
    webhookSecrets: deps.options.webhookSecrets,
    // A payouts-only merchant has no orders; the payout receiver never asks for one.
    resolveOrder: () => null,
    onPayoutOutcome: deps.onPayoutOutcome,
  };
  const receive = createPayoutsWebhookReceiver({
    options,
    provider: deps.provider,
    store: deps.store,
    logger: deps.logger,
    background: deps.background,
    now: deps.now,
    poll: deps.options.pollDueWork !== false,
  });
  return { receive, close: () => receive.close(), runAllDue: receive.runAllDue };
}
