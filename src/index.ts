// paydrop: the checkout widget for an npm import. Named exports only; importing does nothing
// until open() is called, so server-side rendering is safe. The companion server is
// 'paydrop/server' and the sandbox 'paydrop/sandbox'; neither is reachable from here.
export type {
  CheckoutFailure,
  CheckoutFailureCode,
  CheckoutResult,
  PaymentSummary,
} from './flow/checkout-model';
export { bindDeclarative } from './widget/declarative';
export type { MessageKey, Messages } from './widget/messages';
export { type CheckoutHandle, open, resume } from './widget/open';
export type { CheckoutEvent, OpenOptions } from './widget/options';
