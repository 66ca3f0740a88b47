// The checkout room's public surface: the checkout's handler (its payout work handed in), its
// options, and what the payouts room reuses — the webhook receiver, the payout outcome type.
export type { CardAttemptContext, CheckoutLimits } from './attempt-limits';
// A payment link's success is written by the checkout and read by the back office's link list.
export { linkSucceededKind } from './checkout-records';
export { type CheckoutHandler, createCheckoutHandlerWith } from './handler';
export type { MerchantOptions } from './merchant';
export type {
  CardEntry,
  CheckoutHandlerOptions,
  CheckoutLogger,
  PaymentOutcome,
  PayoutOutcome,
  ResolvedOrder,
} from './options';
export { DAY_MS } from './payment-records';
export type { PaymentView } from './payments';
export type { PayoutWork, PayoutWorkDeps, PayoutWorkFactory } from './payout-work';
export { createWebhookReceiver, type PayoutWebhookHandler } from './webhooks';
