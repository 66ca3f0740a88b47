/**
 * The provider explains a failed payment only in words (the `message` of finalize and status,
 * provider-api.md shows no code): this turns those words into the contract's stable reason, or
 * null when they say nothing we recognise. The sandbox's texts (src/sandbox/state.ts) are the
 * ones we know; a provider that words them otherwise falls back to no reason, never a wrong one.
 */
import type { PaymentFailureReason } from './contract';
import type { Money } from './money';

const PATTERNS: readonly (readonly [RegExp, PaymentFailureReason])[] = [
  [/insufficient (funds|balance)/i, 'insufficient_funds'],
  [/card (has )?expired|expired card/i, 'card_expired'],
  [/authenticat|verif|one-time code|otp|3-?d ?secure/i, 'verification_failed'],
  [/declined at the bank|bank declined/i, 'bank_declined'],
  [/declined|do not honou?r/i, 'card_declined'],
  [/underpaid|less than the amount/i, 'transfer_short'],
  [/account expired|expired before/i, 'expired'],
];

export function failureReasonOf(message: string): PaymentFailureReason | null {
  for (const [pattern, reason] of PATTERNS) if (pattern.test(message)) return reason;
  return null;
}

/**
 * What a FAILED status answer tells of why, in the contract's terms (issue 12): the reason, and
 * for a transfer that arrived short what did arrive. A provider that words the reason in no way
 * we know but says less arrived than was due is still told as `transfer_short`. Nothing for a
 * status that is not FAILED, or when the answer says nothing usable.
 */
export function failureDetails(report: {
  readonly paymentStatus: string;
  readonly amount: Money;
  readonly message?: string | undefined;
  readonly amountPaid?: Money | undefined;
}): { reason?: PaymentFailureReason; paid?: Money } {
  if (report.paymentStatus !== 'FAILED') return {};
  const paid = report.amountPaid;
  const short =
    paid !== undefined &&
    paid.currency === report.amount.currency &&
    paid.amountMinor < report.amount.amountMinor;
  const reason = failureReasonOf(report.message ?? '') ?? (short ? 'transfer_short' : null);
  if (!reason) return {};
  return reason === 'transfer_short' && short ? { reason, paid } : { reason };
}
