import type { CheckoutStep } from '../../flow/checkout-step';
import type { Money } from '../../protocol';
import { CHANNEL_FAILURE_WORDS, type ChannelFailureWords } from '../channels/failure-words';
import { fill } from '../messages/fill';
import { localTexts } from '../messages/local-texts';
import { amountDue, formatMoney } from '../ui/format';
import { type OutcomeMessages, outcomeMessagesEn, outcomeMessagesFr } from './messages';

export interface OutcomeWords {
  readonly title: string;
  readonly text: string;
}

/** The texts for a locale, the merchant's on top. */
export function outcomeMessages(
  locale: string,
  overrides: Partial<Record<string, string>>,
): OutcomeMessages {
  return localTexts(outcomeMessagesEn, outcomeMessagesFr, locale, overrides);
}

/** The error steps whose message the console has had. */
const told = new WeakSet<CheckoutStep>();

/**
 * The title and text of a failed, expired or error step (issue 12); null for an error these
 * texts do not name (the dialog then says "something went wrong"). Without a title, the dialog's
 * own error title. A lost connection's words are not here: they are in the dialog's catalogue,
 * for they must show offline.
 */
export function outcomeWords(
  step: CheckoutStep,
  texts: OutcomeMessages,
  locale: string,
): { readonly title?: string; readonly text: string } | null {
  if (step.kind === 'failed')
    return failureWords(step, texts, (money) => formatMoney(money, locale));
  if (step.kind === 'expired') return { title: texts.expiredTitle, text: texts.expiredText };
  // A payment refused by the companion's limits (issue 20: card testing): come back later, or
  // another way, which the step offers beside.
  if (step.kind === 'error' && step.code === 'rate_limited' && step.retry === 'initiate')
    return { title: texts.tooManyAttemptsTitle, text: texts.tooManyAttemptsText };
  if (step.kind !== 'error') return null;
  // "Something went wrong" tells the customer enough, not the developer: the console says what
  // the companion answered, its code first (a refused origin: `cross_site_request`), once a step.
  if (step.code === 'internal' && !told.has(step)) {
    told.add(step);
    console.error(`paydrop: ${step.message}`);
  }
  return errorWords(step.code, texts);
}

/** A failed payment's title and text, one pair per cause: why, and where the money is. */
export function failureWords(
  step: Extract<CheckoutStep, { kind: 'failed' }>,
  texts: OutcomeMessages,
  money: (amount: Money) => string,
): OutcomeWords {
  const { code, payment, paid } = step;
  if (code === 'bank_declined')
    return { title: texts.bankDeclinedTitle, text: texts.bankDeclinedText };
  if (code === 'transfer_short') {
    // What arrived and what is missing, when the provider said (the model checked the sums).
    const due = amountDue(payment);
    const sums = paid
      ? `${fill(texts.shortPaid, {
          paid: money(paid),
          missing: money({ ...due, amountMinor: due.amountMinor - paid.amountMinor }),
        })} `
      : '';
    return { title: texts.shortTitle, text: sums + texts.shortText };
  }
  // The channel's own causes (a card's), or payment_failed: the provider gave no reason we know.
  const own: ChannelFailureWords | null = CHANNEL_FAILURE_WORDS[payment.channel];
  return own ? own(code, texts) : { title: texts.failedTitle, text: texts.failedText };
}

/** An error's words, for the causes these texts name; null for the rest. */
export function errorWords(
  code: string,
  texts: OutcomeMessages,
): { readonly title?: string; readonly text: string } | null {
  switch (code) {
    case 'unavailable':
    case 'rate_limited':
      return { text: texts.errorUnavailable };
    case 'order_not_found':
      return { text: texts.errorNotFound };
    case 'no_channels':
      return { text: texts.errorNoChannels };
    case 'already_paid':
      return { title: texts.alreadyPaidTitle, text: texts.errorAlreadyPaid };
    default:
      return null;
  }
}
