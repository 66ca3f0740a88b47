/**
 * The card step of the checkout, as the card chunk brings it: the fields, then the issuer's
 * challenge, driven by the card flow. Built by a factory fed the host's Preact (see CardFields.tsx
 * for why `h` is imported as a type only).
 */
import type { ComponentChildren, ComponentType, h } from 'preact';
import type { CheckoutModel } from '../../../flow/checkout-model';
import type { CustomerDetails, HttpCompanion } from '../../../flow/companion';
import { createCardFields, type HostPreact } from './CardFields';
import { createChallengeFrame } from './ChallengeFrame';
import CARD_CSS from './card.css?inline';
import { cardCalls } from './card-calls';
import { type CardFlow, type CardFlowState, createCardFlow } from './card-flow';
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

export function createCardStep(preact: HostPreact): ComponentType<CardStepProps> {
  // biome-ignore lint/correctness/noUnusedVariables: the JSX below compiles to calls of this h.
  const { h, Component, Fragment } = preact;
  const CardFields = createCardFields(preact);
  const ChallengeFrame = createChallengeFrame(preact);
  let sheet: CSSStyleSheet | undefined;

  return class CardStep extends Component<CardStepProps, { flow: CardFlowState }> {
    private flow: CardFlow;
    private messages: CardMessages;

    constructor(props: CardStepProps) {
      super(props);
      const { model, companion, customer } = props;
      // The same language rule as the dialog's catalogue, and the merchant's overrides on top.
      const base =
        props.locale.toLowerCase().split('-')[0] === 'fr' ? cardMessagesFr : cardMessagesEn;
      const overrides = props.messages as Partial<Record<string, string>>;
      this.messages = Object.fromEntries(
        Object.entries(base).map(([key, text]) => [key, overrides[key] ?? text]),
      ) as CardMessages;
      this.flow = createCardFlow({
        companion: {
          initiate: (token, request) => companion.initiate(token, request),
          ...cardCalls(companion),
        },
        clock: browserClock,
        sessionToken: model.session.peek()?.token ?? '',
        customer,
        started: (payment, token) => model.cardStarted(payment, token),
        finished: (payment, token, status) => model.track(payment, token, status),
        timedOut: (payment) => model.cardTimedOut(payment),
        failed: (error) => model.fail(error),
        changed: (flow) => this.setState({ flow }),
      });
      this.state = { flow: this.flow.state };
      this.shown = this.flow.state.kind;
    }

    /** The card's styles join the dialog's shadow root once. */
    private adopt = (node: Element | null) => {
      this.root = node;
      const root = node?.getRootNode() as ShadowRoot | undefined;
      if (!root?.adoptedStyleSheets) return;
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(CARD_CSS);
      }
      if (!root.adoptedStyleSheets.includes(sheet)) {
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
      }
    };

    private root: Element | null = null;
    private shown = '';

    override componentDidMount(): void {
      // The dialog's focus was on the spinner this step replaced: it comes to the heading.
      this.root?.querySelector<HTMLElement>('[data-step-heading]')?.focus();
    }

    override componentDidUpdate(): void {
      // Each new stage takes focus to its newest heading, as the dialog's steps do.
      const kind = this.state.flow.kind;
      if (kind === this.shown) return;
      this.shown = kind;
      const headings = this.root?.querySelectorAll<HTMLElement>('[data-step-heading]');
      headings?.[headings.length - 1]?.focus();
    }

    override componentWillUnmount(): void {
      this.flow.dispose();
    }

    override render() {
      const { amountText, other } = this.props;
      const { flow } = this.state;
      const messages = this.messages;
      if (flow.kind === 'challenge') {
        return (
          <div class="card-step" ref={this.adopt}>
            <h3 tabIndex={-1} data-step-heading>
              {messages.challengeTitle}
            </h3>
            <p class="muted">{messages.challengeText}</p>
            <ChallengeFrame
              url={flow.url}
              reference={flow.reference}
              title={messages.challengeFrameLabel}
              onComplete={() => this.flow.challengeCompleted()}
            />
          </div>
        );
      }
      const busy = flow.kind === 'busy';
      return (
        <div class="card-step" ref={this.adopt}>
          <h3 tabIndex={-1} data-step-heading={busy ? undefined : true}>
            {messages.cardTitle}
          </h3>
          {flow.kind === 'entry' && flow.refused ? (
            <p class="field-error" role="alert">
              {messages.cardRefused}
            </p>
          ) : null}
          <CardFields
            messages={messages}
            amountText={amountText}
            now={() => new Date()}
            busy={busy}
            onSubmit={(card) => void this.flow.pay(card)}
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
  };
}
