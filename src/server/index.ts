// paydrop/server: the companion handler and the server-only provider client, web-standard only
// (its Node, Express and Fastify adapters are in paydrop/server/node).
// Never import this from browser code: it is where the secret key lives.

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
export type { CardAttemptContext, CheckoutLimits } from './attempt-limits';
export type { TrustProxy } from './client-address';
export { CHECKOUT_ERROR_STATUS, CheckoutError, type CheckoutErrorCode } from './errors';
export { type CheckoutHandler, createCheckoutHandler } from './handler';
export type { DueWorkSummary } from './jobs';
export type { MerchantOptions } from './merchant';
export type {
  CardEntry,
  CheckoutHandlerOptions,
  CheckoutLogger,
  PaymentOutcome,
  PayoutOutcome,
  ResolvedOrder,
} from './options';
export type { PaymentView } from './payments';
export {
  createPayoutsHandler,
  type PayoutsHandler,
  type PayoutsHandlerOptions,
} from './payouts-handler';
export { type CheckoutStore, createMemoryStore, type StoredEvent } from './store';
export { StoreUnavailableError } from './store-unavailable';
