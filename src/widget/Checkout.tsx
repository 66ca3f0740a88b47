import { effect } from '@preact/signals-core';
import { Component, createRef, Fragment, h } from 'preact';
import type { CheckoutModel, CheckoutResult, CheckoutStep } from '../flow/checkout-model';
import { TransferPanel } from './channels/transfer';
import { fill, type Messages } from './messages';
import { ChannelPicker } from './ui/ChannelPicker';
import { amountDue, formatMoney } from './ui/format';

interface CheckoutProps {
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly locale: string;
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
    default:
      return messages.errorGeneric;
  }
}

/** What the live region says when the step changes. */
function stepAnnouncement(step: CheckoutStep, messages: Messages, locale: string): string {
  switch (step.kind) {
    case 'choosing':
      return messages.statusChoosing;
    case 'transfer':
      return step.phase === 'awaiting'
        ? fill(messages.statusTransferReady, {
            amount: formatMoney(amountDue(step.payment), locale),
          })
        : messages.confirmingTitle;
    case 'succeeded':
      return messages.succeededTitle;
    case 'failed':
      return messages.failedTitle;
    case 'expired':
      return messages.expiredTitle;
    case 'error':
      return errorText(step, messages);
    default:
      return '';
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
    this.stopRedrawing = effect(() => {
      void model.step.value;
      void model.session.value;
      void model.secondsLeft.value;
      void model.milestone.value;
      this.forceUpdate();
    });
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
    const { model, messages, locale, onDone } = this.props;
    const { leaving, flash } = this.state;
    const step = model.step.peek();
    const session = model.session.peek();
    const announcement =
      flash ||
      milestoneAnnouncement(model.milestone.peek(), messages) ||
      stepAnnouncement(step, messages, locale);
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
              <p class="total">
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
          ) : (
            <StepView
              step={step}
              model={model}
              messages={messages}
              locale={locale}
              announce={this.announce}
              onDone={onDone}
            />
          )}
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
  readonly announce: (text: string) => void;
  readonly onDone: (result: CheckoutResult) => void;
}

function Waiting({ text }: { readonly text: string }) {
  return (
    <div class="state">
      <div class="spinner" aria-hidden="true" />
      <p tabIndex={-1} data-step-heading>
        {text}
      </p>
    </div>
  );
}

function StepView({ step, model, messages, locale, announce, onDone }: StepViewProps) {
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
          onChoose={(channel) => model.choose(channel)}
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
          <p class="muted">{messages.failedText}</p>
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
            {messages.errorTitle}
          </h3>
          <p class="muted">{errorText(step, messages)}</p>
          {step.code === 'no_channels' || step.code === 'order_not_found' ? null : (
            <button type="button" class="primary" onClick={() => model.retry()}>
              {messages.tryAgain}
            </button>
          )}
        </div>
      );
  }
}
