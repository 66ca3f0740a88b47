import type { CardMessages } from './messages';

/**
 * The failure screen's title and text when a card payment failed, one pair per cause (issue 12):
 * why, and that the card was not charged. In the card chunk: a card fails only once it is here.
 */
export function cardFailureWords(
  code: string,
  texts: CardMessages,
  failedTitle: string,
): { title: string; text: string } {
  if (code === 'challenge_timeout') return { title: failedTitle, text: texts.timeoutText };
  const titles: Partial<Record<string, string>> = {
    card_declined: texts.cardDeclinedTitle,
    insufficient_funds: texts.insufficientFundsTitle,
    card_expired: texts.cardExpiredTitle,
    verification_failed: texts.verificationFailedTitle,
  };
  // payment_failed (and a cause nothing tells apart): the card was not charged all the same.
  return { title: titles[code] ?? failedTitle, text: texts.cardNotChargedText };
}
