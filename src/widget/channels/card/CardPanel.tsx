/**
 * The card's panel in the dialog's own bundle: it loads the card chunk (the form, the flow and
 * the challenge frame) when the customer chooses Card, and shows its step.
 */

import { useSignal } from '@preact/signals';
import { type ComponentChildren, Fragment, h } from 'preact';
import { type CardChunk, loadCardChunk } from '#chunks';
import { CompanionFailure } from '../../../flow/companion';
import type { Messages } from '../../messages';
import { formatMoney } from '../../ui/format';
import { Lazy } from '../../ui/Lazy';
import type { PanelProps } from '../channel';

let card: Promise<CardChunk> | null = null;
let loaded: CardChunk | undefined;

/** The card chunk, loaded once; a failed load may be tried again. */
function loadCard(): Promise<CardChunk> {
  card ??= loadCardChunk().then((chunk) => (loaded = chunk));
  return card.catch((error: unknown) => {
    card = null;
    throw error;
  });
}

/**
 * Renders with the card chunk: at once when it is here (always, once a card payment has run on
 * this page), else once it has loaded; with null if it cannot be loaded.
 */
export function WithCard(props: {
  readonly messages: Messages;
  readonly children: (chunk: CardChunk | null) => ComponentChildren;
}) {
  const unavailable = useSignal(false);
  if (loaded || unavailable.value) return <>{props.children(loaded ?? null)}</>;
  return (
    <Lazy
      load={loadCard}
      messages={props.messages}
      failed={() => {
        unavailable.value = true;
      }}
    >
      {props.children}
    </Lazy>
  );
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
      {({ CardStep }) => (
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
