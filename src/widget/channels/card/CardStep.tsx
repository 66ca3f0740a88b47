/**
 * The card step of the checkout, as the card chunk brings it: the fields, then the issuer's
 * challenge, driven by the card flow, whose state is a signal this component reads.
 */
import { type ComponentChildren, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { createCardActions } from '../../../flow/channels/card';
import type { CardDraft, CheckoutModel } from '../../../flow/checkout-model';
import type { CustomerDetails, HttpCompanion } from '../../../flow/companion';
import { localTexts } from '../../messages/local-texts';
import { CardFields } from './CardFields';
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

let sheet: CSSStyleSheet | undefined;

/** The card's styles join the dialog's shadow root once. */
function adoptStyles(node: Element | null): void {
  const root = node?.getRootNode() as ShadowRoot | undefined;
  if (!root?.adoptedStyleSheets) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CARD_CSS);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}

/** The same language rule as the dialog's catalogue, and the merchant's overrides on top. */
export function cardMessages(
  locale: string,
  overrides: Partial<Record<string, string>>,
): CardMessages {
  return localTexts(cardMessagesEn, cardMessagesFr, locale, overrides);
}

/**
 * What was typed into the card form of each open checkout (issue 12): a failed attempt's "Try
 * again" brings the form back filled. In memory only, and only while its checkout lives.
 */
const drafts = new WeakMap<CheckoutModel, CardDraft>();

export function CardStep(props: CardStepProps) {
  const { amountText, other } = props;
  const made = useRef<{ flow: CardFlow; messages: CardMessages } | null>(null);
  if (!made.current) {
    const { model, companion, customer } = props;
    const card = createCardActions(model.paying);
    made.current = {
      messages: cardMessages(props.locale, props.messages),
      flow: createCardFlow({
        companion: {
          initiate: (token, request) => companion.initiate(token, request),
          ...cardCalls(companion),
        },
        clock: browserClock,
        sessionToken: model.session.peek()?.token ?? '',
        customer,
        started: card.cardStarted,
        finished: card.track,
        timedOut: card.cardTimedOut,
        checking: card.checkPayment,
        failed: card.fail,
      }),
    };
  }
  const { flow, messages } = made.current;
  const root = useRef<HTMLDivElement | null>(null);
  const state = flow.state.value;

  useLayoutEffect(() => () => flow.dispose(), []);
  // Each new stage takes focus to its newest heading, as the dialog's steps do; the first one
  // takes it from the spinner this step replaced.
  useLayoutEffect(() => {
    const headings = root.current?.querySelectorAll<HTMLElement>('[data-step-heading]');
    headings?.[headings.length - 1]?.focus();
  }, [state.kind]);

  const attach = (node: HTMLDivElement | null) => {
    root.current = node;
    adoptStyles(node);
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
      <CardFields
        messages={messages}
        amountText={amountText}
        now={() => new Date()}
        busy={busy}
        kept={drafts.get(props.model) ?? null}
        // Kept for another attempt should this one fail; the security code never is.
        onTyped={(typed) =>
          drafts.set(props.model, { number: typed.number, expiry: typed.expiry, name: typed.name })
        }
        onSubmit={(card) => void flow.pay(card)}
      />
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
