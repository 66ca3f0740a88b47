// paydrop/server: the companion handler and the server-only provider client, web-standard only
// (its Node, Express and Fastify adapters are in paydrop/server/node).
// Never import this from browser code: it is where the secret key lives.
//
// The rooms of src/server, lowest first; a file imports its own room's files and the index.ts of
// a room below it, never another room's files, never a room above (biome.json says so per room):
//   store     the store contract and the memory store; sqlite/, redis/, postgres/ implement it
//   http      what both handlers share of HTTP: bodies, errors, origins, event streams, logging
//   jobs      background work kept as jobs in the store
//   checkout  the checkout's handler and its payments, outcomes, webhooks receiver
//   payouts   the back office's handler and the payout confirmations (uses checkout's index for
//             the webhook receiver it shares; checkout is handed payout work, never imports it)
//   node      the Node, Express and Fastify adapters (paydrop/server/node): http's index only
// Below them all: src/protocol, src/provider, and src/node/hand-off.ts (what the Node adapter and
// the handlers hand each other on a Request or a body). This file and checkout-handler.ts sit
// above every room and compose them.

export {
  type CreatePaymentLinkInput,
  type Customer,
  createProviderClient,
  type FundTransferInput,
  type FundTransferOutcome,
  type PayoutRequirementsInput,
  type ProviderClient,
  type ProviderClientOptions,
} from '../provider/client';
export { payoutMoves } from '../provider/payout-state';
export {
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../provider/webhook-signature';
export type {
  CardAttemptContext,
  CardEntry,
  CheckoutHandler,
  CheckoutHandlerOptions,
  CheckoutLimits,
  CheckoutLogger,
  MerchantOptions,
  PaymentOutcome,
  PaymentView,
  PayoutOutcome,
  ResolvedOrder,
} from './checkout';
export { createCheckoutHandler } from './checkout-handler';
export {
  CHECKOUT_ERROR_STATUS,
  CheckoutError,
  type CheckoutErrorCode,
  type TrustProxy,
} from './http';
export type { DueWorkSummary } from './jobs';
export { createPayoutsHandler, type PayoutsHandler, type PayoutsHandlerOptions } from './payouts';
export {
  type CheckoutStore,
  type CommitOptions,
  createMemoryStore,
  type StoredEvent,
  StoreUnavailableError,
} from './store';
