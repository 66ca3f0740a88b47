/**
 * What the browser is told of why a card failed (issue 20, item 1). An issuer's detailed reason
 * (insufficient funds, an expired card) tells a card tester that the number is real and live: a
 * free oracle. The browser hears `card_declined`, and the customer that their bank can tell them
 * why; the merchant's `onPaymentOutcome` still gets the precise reason.
 */
import type { PaymentFailureReason } from '../../protocol/contract';
import type { FailureDetails } from './payment-records';

/** Reasons that reveal a valid card, told to the browser as a plain decline. */
const REVEALING: ReadonlySet<PaymentFailureReason> = new Set([
  'insufficient_funds',
  'card_expired',
]);

export function browserReason(reason: PaymentFailureReason): PaymentFailureReason {
  return REVEALING.has(reason) ? 'card_declined' : reason;
}

/** A failure's details as the browser may see them; no `reason` key when there is none. */
export function forBrowser(failure: FailureDetails): FailureDetails {
  if (!failure.reason) return failure.paid ? { paid: failure.paid } : {};
  return { ...failure, reason: browserReason(failure.reason) };
}
