/**
 * The card's panel in the dialog's own bundle: it loads the card chunk (the form, the flow and
 * the challenge frame) when the customer chooses Card, and shows its step.
 */
import { type ComponentType, h } from 'preact';
import { loadCardChunk } from '#chunks';
import { CompanionFailure } from '../../../flow/companion';
import { formatMoney } from '../../ui/format';
import { Lazy } from '../../ui/Lazy';
import type { PanelProps } from '../channel';
import type { CardStepProps } from './CardStep';

let cardStep: Promise<ComponentType<CardStepProps>> | null = null;

/** The card chunk, loaded once; a failed load may be tried again. */
function loadCard(): Promise<ComponentType<CardStepProps>> {
  cardStep ??= loadCardChunk().then((chunk) => chunk.CardStep);
  return cardStep.catch((error: unknown) => {
    cardStep = null;
    throw error;
  });
}

export function CardPanel({ context }: PanelProps<'Card'>) {
  const { model, companion, customer, locale, messages, other } = context;
  const amount = model.session.peek()?.amount;
  return (
    <Lazy
      load={loadCard}
      messages={messages}
      // Offline: the error step's Try again comes back here and loads it again.
      failed={() => model.fail(new CompanionFailure('network', 'The card form could not load.'))}
    >
      {(CardStep) => (
        <CardStep
          model={model}
          companion={companion}
          customer={customer}
          locale={locale}
          messages={messages}
          amountText={amount ? formatMoney(amount, locale) : ''}
          other={other}
        />
      )}
    </Lazy>
  );
}
