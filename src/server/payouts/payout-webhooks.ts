/**
 * The payout webhooks, received by the checkout room's webhook receiver (the same size cap,
 * signature check, dedupe, bounds) with this room's confirmations handed to it: confirmation
 * jobs over the transaction list and once-per-state `onPayoutOutcome` (with the webhook's reason
 * and time). For the back office's own receiver, and for the checkout's handler (checkoutPayoutWork)
 * when the provider's one webhook URL points at the checkout.
 */
import type { ProviderClient } from '../../provider/client';
import {
  type CheckoutHandlerOptions,
  createWebhookReceiver,
  type PayoutOutcome,
  type PayoutWebhookHandler,
  type PayoutWorkFactory,
} from '../checkout';
import type { CheckoutLogger } from '../http';
import { createJobPicker, type DueWorkSummary, type JobPicker } from '../jobs';
import type { CheckoutStore } from '../store';
import type { PayoutsHandlerOptions } from './options';
import {
  createPayoutOutcomes,
  PAYOUT_QUEUE,
  type PayoutOutcomes,
  payoutStatusOfEvent,
  SWEEP_QUEUE,
} from './payout-outcomes';

/** What the webhook receiver is handed: this room's payout confirmations. */
function webhookHandlerOf(payouts: PayoutOutcomes): PayoutWebhookHandler {
  return {
    queue: PAYOUT_QUEUE,
    statusOfEvent: payoutStatusOfEvent,
    reported: payouts.reported,
    hint: payouts.hint,
  };
}

/** The payout confirmations and the list sweep, as the checkout's handler runs them. */
export const checkoutPayoutWork: PayoutWorkFactory = (deps) => {
  const payouts = createPayoutOutcomes(deps);
  return {
    webhook: webhookHandlerOf(payouts),
    queues: { [PAYOUT_QUEUE]: payouts.runJob, [SWEEP_QUEUE]: () => payouts.sweep() },
    startSweeping: payouts.startSweeping,
  };
};

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

/**
 * The back office's receiver (issue 14): payout events only, with a picker of its own over the
 * `payouts` queue; payment events are acknowledged and nothing is scheduled. `close()` stops its
 * wake-ups.
 */
export function createPayoutWebhookReceiver(deps: PayoutWebhookDeps): {
  receive: (request: Request) => Promise<Response>;
  close: () => void;
  runAllDue: (maxJobs: number) => Promise<DueWorkSummary>;
} {
  // Shaped as the receiver and the confirmations read options: a payouts-only merchant has no
  // orders, and neither asks for one.
  const options: CheckoutHandlerOptions = {
    secretKey: deps.options.secretKey,
    baseUrl: deps.options.baseUrl,
    listBaseUrl: deps.options.listBaseUrl,
    webhookSecrets: deps.options.webhookSecrets,
    resolveOrder: () => null,
    onPayoutOutcome: deps.onPayoutOutcome,
  };
  const poll = deps.options.pollDueWork !== false;
  let jobs: JobPicker | undefined;
  const payouts = createPayoutOutcomes({
    options,
    provider: deps.provider,
    store: deps.store,
    logger: deps.logger,
    now: deps.now,
    jobs: () => jobs as JobPicker,
  });
  const picker = createJobPicker({
    store: deps.store,
    now: deps.now,
    logger: deps.logger,
    background: deps.background,
    poll,
    queues: { [PAYOUT_QUEUE]: payouts.runJob },
  });
  jobs = picker;
  if (poll) picker.wake();
  const receive = createWebhookReceiver({
    options,
    store: deps.store,
    payouts: webhookHandlerOf(payouts),
    logger: deps.logger,
  });
  return {
    receive,
    close: () => picker.close(),
    runAllDue: (maxJobs: number) => picker.runAllDue(maxJobs),
  };
}
