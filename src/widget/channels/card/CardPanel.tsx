/**
 * The card's panel in the dialog's own bundle: it loads the card chunk (the form, the flow and
 * the challenge frame) when the customer chooses Card, and shows its step.
 */

import { h } from 'preact';
import { type CardChunk, loadCardChunk } from '#chunks';
import { CompanionFailure } from '../../../flow/companion';
import { formatMoney } from '../../ui/format';
import { Lazy } from '../../ui/Lazy';
import type { PanelProps } from '../channel';

let card: Promise<CardChunk> | null = null;

/** The card chunk, loaded once; a failed load may be tried again. */
function loadCard(): Promise<CardChunk> {
  card ??= loadCardChunk();
  return card.catch((error: unknown) => {
    card = null;
    throw error;
  });
}

export function CardPanel({ context }: PanelProps<'Card'>) {
  const { model, companion, customer, locale, messages, other, bank } = context;
  const amount = model.session.peek()?.amount;
  return (
    <Lazy
      load={loadCard}
      messages={messages}
      // Offline: the error step's Try again comes back here and loads it again.
      failed={() => model.fail(new CompanionFailure('network', 'The card form could not load.'))}
    >
      {({ CardEntryStep }) => (
        <CardEntryStep
          model={model}
          companion={companion}
          customer={customer}
          locale={locale}
          messages={messages}
          amountText={amount ? formatMoney(amount, locale) : ''}
          bank={bank}
          other={other}
        />
      )}
    </Lazy>
  );
}
