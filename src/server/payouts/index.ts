// The payouts room's public surface: the back office's handler, and the payout confirmations the
// checkout's handler is given (src/server/checkout-handler.ts).
export {
  createPayoutsHandler,
  type PayoutsHandler,
  type PayoutsHandlerOptions,
} from './handler';
export { checkoutPayoutWork } from './payout-webhooks';
