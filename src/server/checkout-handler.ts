/**
 * The public createCheckoutHandler: the checkout room's handler with the payouts room's
 * confirmations plugged in. It lives above both rooms, so that neither imports the other's
 * handler (payouts sits above checkout; checkout never imports payouts).
 */
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandlerWith,
} from './checkout';
import { checkoutPayoutWork } from './payouts';

/**
 * @example
 * const checkout = createCheckoutHandler({
 *   secretKey: process.env.PROVIDER_SECRET_KEY,
 *   baseUrl: process.env.PROVIDER_BASE_URL,
 *   resolveOrder: async (id) => ({ amountMinor: 250050, currency: 'NGN', description: `Order ${id}` }),
 *   onPaymentOutcome: async (outcome) => { if (outcome.status === 'SUCCESSFUL') await fulfil(outcome.orderId); },
 * });
 * // Next.js: export const GET = checkout, POST = checkout;  Node: http.createServer(toNodeListener(checkout))
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): CheckoutHandler {
  return createCheckoutHandlerWith(options, checkoutPayoutWork);
}
