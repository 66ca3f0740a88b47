/**
 * What the browser is told of why a card failed (issue 20, item 1). An issuer's detailed reason
 * (insufficient funds, an expired card) tells a card tester that the number is real and live: a
 * free oracle. The browser hears `card_declined`, and the customer that their bank can tell them
 * why; the merchant's `onPaymentOutcome` still gets the precise reason.
 */
import {
  type BrowserFailureReason,
  isBrowserFailureReason,
  type PaymentFailureReason,
  type StatusWire,
} from '../../protocol/contract';
import type { FailureDetails } from './payment-records';

/** A reason that reveals a valid card (CARD_REVEALING_REASONS) is told as a plain decline. */
export function browserReason(reason: PaymentFailureReason): BrowserFailureReason {
  return isBrowserFailureReason(reason) ? reason : 'card_declined';
}

/** A failure's details as the browser may see them; no `reason` key when there is none. */
export function forBrowser(failure: FailureDetails): Pick<StatusWire, 'reason' | 'paid'> {
  if (!failure.reason) return failure.paid ? { paid: failure.paid } : {};
  return { ...failure, reason: browserReason(failure.reason) };
}
