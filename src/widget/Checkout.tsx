import { Component, type ComponentType, createRef, Fragment, h } from 'preact';
import { loadCardChunk } from '#chunks';
import type { CheckoutModel, CheckoutResult, CheckoutStep } from '../flow/checkout-model';
import { CompanionFailure, type CustomerDetails, type HttpCompanion } from '../flow/companion';
import { BankPanel } from './channels/bank/BankPanel';
import type { BankWindow } from './channels/bank/bank-window';
import type { CardStepProps } from './channels/card';
import { TransferPanel } from './channels/transfer';
import { fill, type Messages } from './messages';
import { ChannelPicker } from './ui/ChannelPicker';
import { amountDue, formatMoney } from './ui/format';
import { Lazy, Waiting } from './ui/Lazy';

interface CheckoutProps {
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly locale: string;
  readonly bank: BankWindow;
  /** For the card chunk, which makes its own calls. */
  readonly companion: HttpCompanion;
  readonly customer?: CustomerDetails | undefined;
  /** The dialog is done: the customer closed it, or pressed Done. */
  readonly onDone: (result: CheckoutResult) => void;
}

function errorText(step: Extract<CheckoutStep, { kind: 'error' }>, messages: Messages): string {
  switch (step.code) {
    case 'network':
    case 'timeout':
      return messages.errorNetwork;
    case 'unavailable':
    case 'rate_limited':
      return messages.errorUnavailable;
    case 'order_not_found':
      return messages.errorNotFound;
    case 'no_channels':
      return messages.errorNoChannels;
    case 'already_paid':
      return messages.errorAlreadyPaid;
    default:
      return messages.errorGeneric;
  }
}

function milestoneAnnouncement(minutes: number | null, messages: Messages): string {
  if (minutes === null || minutes === 0) return '';
  return minutes === 1 ? messages.oneMinuteLeft : fill(messages.minutesLeft, { minutes });
}

/** The dialog: a native <dialog> in the top layer, rendering whatever step the model is at. */
export class Checkout extends Component<CheckoutProps, { leaving: boolean; flash: string }> {
  override state = { leaving: false, flash: '' };
  private dialog = createRef<HTMLDialogElement>();
  private body = createRef<HTMLDivElement>();
  private stopRedrawing: (() => void) | undefined;
  private focusedFor = '';
  private keyOfFlash = '';
  private lastMilestone: number | null = null;

  override componentDidMount(): void {
    const dialog = this.dialog.current;
    if (dialog && !dialog.open) dialog.showModal();
    const { model } = this.props;
    // The whole (small) tree redraws when the model moves; no per-component subscriptions.
    this.stopRedrawing = model.subscribe(() => this.forceUpdate());
  }

  override componentDidUpdate(): void {
    const { model } = this.props;
    const step = model.step.peek();
    // A new countdown warning replaces an older "copied" in the live region.
    const milestone = model.milestone.peek();
    const news = milestone !== this.lastMilestone;
    this.lastMilestone = milestone;
    // Each new step takes focus to its newest heading, so keyboard and screen reader users follow.
    const key = `${step.kind}:${'phase' in step ? step.phase : ''}:${this.state.leaving}`;
    if (key !== this.focusedFor) {
      this.focusedFor = key;
      const headings = this.body.current?.querySelectorAll<HTMLElement>('[data-step-heading]');
      headings?.[headings.length - 1]?.focus();
    }
    // "Copied" lasts until the step changes or a new countdown warning comes.
    if (this.state.flash && (news || this.keyOfFlash !== key)) this.setState({ flash: '' });
  }

  override componentWillUnmount(): void {
    this.stopRedrawing?.();
  }

  private requestClose = () => {
    const { model, onDone } = this.props;
    if (model.paymentUnderWay.peek() && !this.state.leaving) this.setState({ leaving: true });
    else onDone(model.resultIfClosed());
  };

  private announce = (flash: string) => {
    this.keyOfFlash = this.focusedFor;
    this.setState({ flash });
  };

  override render() {
    const { model, messages, locale, bank, companion, customer, onDone } = this.props;
    const { leaving, flash } = this.state;
    const step = model.step.peek();
    const session = model.session.peek();
    // Each step's heading takes focus and is read out; the live region adds what focus cannot
    // say: why something failed, a countdown warning, "copied".
    const announcement =
      flash ||
      milestoneAnnouncement(model.milestone.peek(), messages) ||
      (step.kind === 'error' ? errorText(step, messages) : '');
    return (
      <dialog
        ref={this.dialog}
        aria-labelledby="paydrop-title"
        onCancel={(event) => {
          // Escape asks first while a payment is under way.
          event.preventDefault();
          this.requestClose();
        }}
      >
        <header>
          <div>
            <h2 id="paydrop-title">{session?.description ?? messages.dialogLabel}</h2>
            {session ? (
              <p class="total muted">
                {fill(messages.payAmount, { amount: formatMoney(session.amount, locale) })}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            class="icon"
            aria-label={messages.close}
            onClick={this.requestClose}
          >
            ×
          </button>
        </header>
        <div class="body" ref={this.body}>
          {/* The step stays mounted while "leave?" is asked, so nothing under way is lost. */}
          <div class="step" hidden={leaving}>
            <StepView
              step={step}
              model={model}
              messages={messages}
              locale={locale}
              bank={bank}
              companion={companion}
              customer={customer}
              announce={this.announce}
              onDone={onDone}
            />
          </div>
          {leaving ? (
            <>
              <h3 tabIndex={-1} data-step-heading>
                {messages.leaveTitle}
              </h3>
              <p class="muted">{messages.leaveText}</p>
              <div class="actions">
                <button
                  type="button"
                  class="primary"
                  onClick={() => this.setState({ leaving: false })}
                >
                  {messages.stay}
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => onDone(model.resultIfClosed())}
                >
                  {messages.leave}
                </button>
              </div>
            </>
          ) : null}
        </div>
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {announcement}
        </div>
      </dialog>
    );
  }
}

interface StepViewProps {
  readonly step: CheckoutStep;
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly locale: string;
  readonly bank: BankWindow;
  readonly companion: HttpCompanion;
  readonly customer?: CustomerDetails | undefined;
  readonly announce: (text: string) => void;
  readonly onDone: (result: CheckoutResult) => void;
}

let cardStep: Promise<ComponentType<CardStepProps>> | null = null;

/** The card chunk, made once with this bundle's Preact; a failed load may be tried again. */
function loadCard(): Promise<ComponentType<CardStepProps>> {
  cardStep ??= loadCardChunk().then((chunk) => chunk.createCardStep({ h, Component, Fragment }));
  return cardStep.catch((error: unknown) => {
    cardStep = null;
    throw error;
  });
}

function OtherMethod({ model, messages }: { model: CheckoutModel; messages: Messages }) {
  return (model.session.peek()?.channels.length ?? 0) > 1 ? (
    <button type="button" class="secondary" onClick={() => model.changeMethod()}>
      {messages.otherMethod}
    </button>
  ) : null;
}

function StepView(props: StepViewProps) {
  const { step, model, messages, locale, bank, companion, customer, announce, onDone } = props;
  switch (step.kind) {
    case 'loading':
      return <Waiting text={messages.loading} />;
    case 'starting':
      return <Waiting text={messages.starting} />;
    case 'choosing':
      return (
        <ChannelPicker
          channels={step.channels}
          messages={messages}
          onChoose={(channel) => {
            // The bank's window opens in this click, before any await, so blockers allow it.
            if (channel === 'PayByAccount') bank.prepare();
            model.choose(channel);
          }}
        />
      );
    case 'transfer':
      return (
        <TransferPanel
          model={model}
          payment={step.payment}
          phase={step.phase}
          messages={messages}
          locale={locale}
          announce={announce}
        />
      );
    case 'bank':
      return (
        <BankPanel
          model={model}
          payment={step.payment}
          phase={step.phase}
          messages={messages}
          bank={bank}
          other={<OtherMethod model={model} messages={messages} />}
        />
      );
    case 'card': {
      const amount = model.session.peek()?.amount;
      return (
        <Lazy
          load={loadCard}
          messages={messages}
          // Offline: the error step's Try again comes back here and loads it again.
          failed={() =>
            model.fail(new CompanionFailure('network', 'The card form could not load.'))
          }
        >
          {(CardStep) => (
            <CardStep
              model={model}
              companion={companion}
              customer={customer}
              locale={locale}
              messages={messages}
              amountText={amount ? formatMoney(amount, locale) : ''}
              other={<OtherMethod model={model} messages={messages} />}
            />
          )}
        </Lazy>
      );
    }
    case 'processing':
      return <Waiting text={messages.processing} />;
    case 'succeeded':
      return (
        <div class="state">
          <div class="mark good" aria-hidden="true">
            ✓
          </div>
          <h3 tabIndex={-1} data-step-heading>
            {messages.succeededTitle}
          </h3>
          <p class="muted">
            {fill(messages.succeededText, { amount: formatMoney(amountDue(step.payment), locale) })}
          </p>
          <button type="button" class="primary" onClick={() => onDone(model.resultIfClosed())}>
            {messages.done}
          </button>
        </div>
      );
    case 'failed':
      return (
        <div class="state">
          <div class="mark bad" aria-hidden="true">
            !
          </div>
          <h3 tabIndex={-1} data-step-heading>
            {messages.failedTitle}
          </h3>
          <p class="muted">
            {step.code === 'challenge_timeout' ? messages.timeoutText : messages.failedText}
          </p>
          <div class="actions">
            <button type="button" class="primary" onClick={() => void model.start()}>
              {messages.tryAgain}
            </button>
            <button type="button" class="secondary" onClick={() => onDone(model.resultIfClosed())}>
              {messages.close}
            </button>
          </div>
        </div>
      );
    case 'expired':
      return (
        <div class="state">
          <h3 tabIndex={-1} data-step-heading>
            {messages.expiredTitle}
          </h3>
          <p class="muted">{messages.expiredText}</p>
          <button type="button" class="primary" onClick={() => model.newAccount()}>
            {messages.newAccount}
          </button>
        </div>
      );
    case 'error':
      return (
        <div class="state">
          <h3 tabIndex={-1} data-step-heading>
            {step.code === 'already_paid' ? messages.alreadyPaidTitle : messages.errorTitle}
          </h3>
          <p class="muted">{errorText(step, messages)}</p>
          {step.code === 'no_channels' ||
          step.code === 'order_not_found' ||
          step.code === 'already_paid' ? (
            // Nothing to try again: a way out that needs no hunting for the ×.
            <button type="button" class="secondary" onClick={() => onDone(model.resultIfClosed())}>
              {messages.close}
            </button>
          ) : (
            <button type="button" class="primary" onClick={() => model.retry()}>
              {messages.tryAgain}
            </button>
          )}
        </div>
      );
  }
}
