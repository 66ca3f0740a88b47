import type { FailureCode } from '../../../flow/checkout-step';
import type { OutcomeMessages } from '../../outcomes/messages';

/**
 * A failed card payment's title and text: the card's causes told apart (issue 12), and that the
 * card was not charged when nothing says more. In the outcomes chunk, with the texts it reads.
 */
export function cardFailureWords(
  code: FailureCode,
  texts: OutcomeMessages,
): { readonly title: string; readonly text: string } {
  if (code === 'challenge_timeout') return { title: texts.failedTitle, text: texts.timeoutText };
  // The causes a browser hears: insufficient funds and an expired card come as card_declined.
  const titles: Partial<Record<FailureCode, string>> = {
    card_declined: texts.cardDeclinedTitle,
    verification_failed: texts.verificationFailedTitle,
  };
  // A decline: the companion tells the browser no more (issue 20), the bank tells the customer.
  if (code === 'card_declined')
    return { title: texts.cardDeclinedTitle, text: texts.cardDeclinedText };
  // A card that failed for a cause nothing tells apart was not charged all the same.
  return { title: titles[code] ?? texts.failedTitle, text: texts.cardNotChargedText };
}
