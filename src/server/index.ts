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
export type { CardAttemptContext, CheckoutLimits } from './checkout/attempt-limits';
export { type CheckoutHandler, createCheckoutHandler } from './checkout/handler';
export type { MerchantOptions } from './checkout/merchant';
export type {
  CardEntry,
  CheckoutHandlerOptions,
  CheckoutLogger,
  PaymentOutcome,
  PayoutOutcome,
  ResolvedOrder,
} from './checkout/options';
export type { PaymentView } from './checkout/payments';
export type { TrustProxy } from './http/client-address';
export { CHECKOUT_ERROR_STATUS, CheckoutError, type CheckoutErrorCode } from './http/errors';
export type { DueWorkSummary } from './jobs/jobs';
export {
  createPayoutsHandler,
  type PayoutsHandler,
  type PayoutsHandlerOptions,
} from './payouts/handler';
export { type CheckoutStore, createMemoryStore, type StoredEvent } from './store/store';
export { StoreUnavailableError } from './store/store-unavailable';
