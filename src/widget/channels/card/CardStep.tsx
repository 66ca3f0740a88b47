/**
 * The card step of the checkout, as the card chunk brings it: the card frame (the fields live in
 * a document of another origin, issue 19) and the Pay button, then the issuer's challenge,
 * driven by the card flow, whose state is a signal this component reads.
 */
import { type ComponentChildren, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { createCardActions } from '../../../flow/channels/card';
import type { CheckoutModel } from '../../../flow/checkout-model';
import {
  CompanionFailure,
  type CustomerDetails,
  type HttpCompanion,
  parseFailure,
  parseInitiation,
} from '../../../flow/companion';
import { localTexts } from '../../messages/local-texts';
import { adoptStyles } from '../../ui/adopt-styles';
import { CardFrame, type CardFrameLink, createCardFrameLink } from './CardFrame';
import { ChallengeFrame } from './ChallengeFrame';
import CARD_CSS from './card.css?inline';
import { cardCalls } from './card-calls';
import { type CardFlow, createCardFlow } from './card-flow';
import { type CardMessages, cardMessagesEn, cardMessagesFr } from './messages';

export interface CardStepProps {
  readonly model: CheckoutModel;
  readonly companion: HttpCompanion;
  readonly customer?: CustomerDetails | undefined;
  readonly locale: string;
  /** The dialog's texts, the merchant's overrides included; card keys among them win. */
  readonly messages: Readonly<Record<string, string>>;
  /** The amount as the dialog shows it, e.g. '$18.00'. */
  readonly amountText: string;
  /** "Choose another way to pay", when there is one. */
  readonly other: ComponentChildren;
}

const browserClock = {
  setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The same language rule as the dialog's catalogue, and the merchant's overrides on top. */
export function cardMessages(
  locale: string,
  overrides: Partial<Record<string, string>>,
): CardMessages {
  return localTexts(cardMessagesEn, cardMessagesFr, locale, overrides);
}

/** What the frame's answer means to the card flow. */
async function submitThrough(
  link: CardFrameLink,
  customer: CustomerDetails | undefined,
): Promise<ReturnType<typeof parseInitiation> | null> {
  const result = await link.submit(customer);
  switch (result.kind) {
    case 'started':
      return parseInitiation(result.body);
    case 'invalid':
      // The frame shows what to correct; the step gives it focus once the form is back.
      link.correcting = true;
      return null;
    case 'refused':
      throw parseFailure(result.refusal.status, result.refusal.body);
    case 'network':
      throw new CompanionFailure('network', 'The card could not be sent.');
  }
}

export function CardStep(props: CardStepProps) {
  const { amountText, other } = props;
  const made = useRef<{ flow: CardFlow; messages: CardMessages; link: CardFrameLink } | null>(null);
  if (!made.current) {
    const { model, companion, customer } = props;
    const card = createCardActions(model.paying);
    const link = createCardFrameLink();
    made.current = {
      link,
      messages: cardMessages(props.locale, props.messages),
      flow: createCardFlow({
        companion: cardCalls(companion),
        clock: browserClock,
        submitCard: () => submitThrough(link, customer),
        started: card.cardStarted,
        finished: card.track,
        timedOut: card.cardTimedOut,
        checking: card.checkPayment,
        failed: card.fail,
      }),
    };
  }
  const { flow, messages, link } = made.current;
  const root = useRef<HTMLDivElement | null>(null);
  const state = flow.state.value;

  useLayoutEffect(() => () => flow.dispose(), []);
  // Each new stage takes focus to its newest heading, as the dialog's steps do; the first one
  // takes it from the spinner this step replaced.
  useLayoutEffect(() => {
    if (link.correcting && state.kind === 'entry') {
      // Back from the frame's own checks: to the first field to correct, not the heading.
      link.correcting = false;
      link.focus();
      return;
    }
    const headings = root.current?.querySelectorAll<HTMLElement>('[data-step-heading]');
    headings?.[headings.length - 1]?.focus();
  }, [state.kind]);

  const attach = (node: HTMLDivElement | null) => {
    root.current = node;
    adoptStyles(node, CARD_CSS);
  };

  if (state.kind === 'challenge') {
    return (
      <div class="card-step" ref={attach}>
        <h3 tabIndex={-1} data-step-heading>
          {messages.challengeTitle}
        </h3>
        <p class="muted">{messages.challengeText}</p>
        <ChallengeFrame
          url={state.url}
          reference={state.reference}
          title={messages.challengeFrameLabel}
          onComplete={() => flow.challengeCompleted()}
        />
      </div>
    );
  }
  const busy = state.kind === 'busy';
  return (
    <div class="card-step" ref={attach}>
      <h3 tabIndex={-1} data-step-heading={busy ? undefined : true}>
        {messages.cardTitle}
      </h3>
      {state.kind === 'entry' && state.refused ? (
        <p class="field-error" role="alert">
          {messages.cardRefused}
        </p>
      ) : null}
      <CardFrame
        link={link}
        companionBase={props.companion.base}
        token={props.model.session.peek()?.token ?? ''}
        locale={props.locale}
        title={messages.cardFrameLabel}
        onEvent={(event) => {
          // Enter in a field pays, as the button does.
          if (event.type === 'submit-request') void flow.pay();
        }}
      />
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => void flow.pay()}>
          {messages.pay.replace('{amount}', () => amountText)}
        </button>
      </div>
      {busy ? (
        // Focus moves here from the disabled button, so the customer hears what happens.
        <p class="muted" tabIndex={-1} data-step-heading>
          {messages.processing}
        </p>
      ) : (
        other
      )}
    </div>
  );
}
