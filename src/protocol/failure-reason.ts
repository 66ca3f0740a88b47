/**
 * The provider explains a failed payment only in words (the `message` of finalize and status,
 * provider-api.md shows no code): this turns those words into the contract's stable reason, or
 * null when they say nothing we recognise. The sandbox's texts (src/sandbox/state.ts) are the
 * ones we know; a provider that words them otherwise falls back to no reason, never a wrong one.
 */
import type { PaymentFailureReason } from './contract';

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
