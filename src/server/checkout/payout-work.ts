/**
 * The payout confirmations the checkout's handler runs (the provider has one webhook URL, and a
 * merchant with `onPayoutOutcome` points it at the checkout). They belong to the payouts room,
 * which sits above this one: src/server's createCheckoutHandler hands them in, and nothing here
 * imports the payouts room.
 */
import type { ProviderClient } from '../../provider/client';
import type { CheckoutLogger } from '../http';
import type { JobPicker, JobRunner } from '../jobs';
import type { CheckoutStore } from '../store';
import type { CheckoutHandlerOptions } from './options';
import type { PayoutWebhookHandler } from './webhooks';

export interface PayoutWorkDeps {
  readonly options: CheckoutHandlerOptions;
  readonly provider: ProviderClient;
  readonly store: CheckoutStore;
  readonly logger: CheckoutLogger;
  readonly now: () => number;
  readonly jobs: () => JobPicker;
}

export interface PayoutWork {
  /** What the webhook receiver does with a payout event. */
  readonly webhook: PayoutWebhookHandler;
  /** The jobs queues of payout confirmations and of the list sweep, with their runners. */
  readonly queues: Readonly<Record<string, JobRunner>>;
  /** Schedules the sweep of the transaction list (kept as it is with `keepSchedule`). */
  startSweeping(given?: { keepSchedule?: boolean }): Promise<void>;
}

export type PayoutWorkFactory = (deps: PayoutWorkDeps) => PayoutWork;
