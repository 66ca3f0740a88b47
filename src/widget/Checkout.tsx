import { effect } from '@preact/signals-core';
import { Component, createRef, Fragment, h } from 'preact';
import type { CheckoutModel, CheckoutResult, CheckoutStep } from '../flow/checkout-model';
import { BankPanel } from './channels/bank/BankPanel';
import type { BankWindow } from './channels/bank/bank-window';
import { TransferPanel } from './channels/transfer';
import { loadCardChunk } from '#chunks';
import { fill, type Messages } from './messages';
import { ChannelPicker } from './ui/ChannelPicker';
import { Lazy, Waiting } from './ui/Lazy';
import { amountDue, formatMoney } from './ui/format';

interface CheckoutProps {
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly locale: string;
  readonly bank: BankWindow;
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
    case 'bank':
      return step.phase === 'processing' ? messages.processing : messages.bankTitle;
    case 'challenge':
      return messages.challengeTitle;
    case 'processing':
      return messages.processing;
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
    const key = `${step.kind}:${'phase' in step ? step.phase : ''}:${'busy' in step && step.busy}:${this.state.leaving}`;
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
    const { model, messages, locale, bank, onDone } = this.props;
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
              bank={bank}
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
  readonly bank: BankWindow;
  readonly announce: (text: string) => void;
  readonly onDone: (result: CheckoutResult) => void;
}

type CardChunk = Awaited<ReturnType<typeof loadCardChunk>>;
let cardParts: Promise<{
  Fields: ReturnType<CardChunk['createCardFields']>;
  Frame: ReturnType<CardChunk['createChallengeFrame']>;
  chunk: CardChunk;
  sheet: CSSStyleSheet;
}> | null = null;

/** The card chunk, made once with this bundle's Preact; its styles join the dialog's. */
function loadCard() {
  cardParts ??= loadCardChunk().then((chunk) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(chunk.cardCss);
    const preact = { h, Component, Fragment };
    return {
      Fields: chunk.createCardFields(preact),
      Frame: chunk.createChallengeFrame(preact),
      chunk,
      sheet,
    };
  });
  // A failed load may be tried again.
  return cardParts.catch((error) => {
    cardParts = null;
    throw error;
  });
}

/** The dialog's shadow root adopts a chunk's styles once. */
function adopt(node: Element | null, sheet: CSSStyleSheet): void {
  const root = node?.getRootNode() as ShadowRoot | undefined;
  if (root?.adoptedStyleSheets && !root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}

function OtherMethod({ model, messages }: { model: CheckoutModel; messages: Messages }) {
  return (model.session.peek()?.channels.length ?? 0) > 1 ? (
    <button type="button" class="secondary" onClick={() => model.changeMethod()}>
      {messages.otherMethod}
    </button>
  ) : null;
}

function StepView({ step, model, messages, locale, bank, announce, onDone }: StepViewProps) {
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
        <>
          <h3 tabIndex={-1} data-step-heading={!step.busy || undefined}>
            {messages.cardTitle}
          </h3>
          {step.refused ? <p class="error">{messages.cardRefused}</p> : null}
          {step.busy ? (
            <p class="muted" tabIndex={-1} data-step-heading>
              {messages.processing}
            </p>
          ) : null}
          <Lazy load={loadCard} messages={messages}>
            {({ Fields, chunk, sheet }) => (
              <div ref={(node) => adopt(node, sheet)}>
                <Fields
                  messages={locale.startsWith('fr') ? chunk.cardMessagesFr : chunk.cardMessagesEn}
                  amountText={amount ? formatMoney(amount, locale) : ''}
                  now={() => new Date()}
                  busy={step.busy}
                  onSubmit={(card) => model.payByCard(card)}
                />
              </div>
            )}
          </Lazy>
          {step.busy ? null : <OtherMethod model={model} messages={messages} />}
        </>
      );
    }
    case 'challenge':
      return (
        <>
          <h3 tabIndex={-1} data-step-heading>
            {messages.challengeTitle}
          </h3>
          <p class="muted">{messages.challengeText}</p>
          <Lazy load={loadCard} messages={messages}>
            {({ Frame, sheet }) => (
              <div ref={(node) => adopt(node, sheet)}>
                <Frame
                  url={step.url}
                  reference={step.payment.reference}
                  title={messages.challengeTitle}
                  onComplete={() => model.challengeCompleted()}
                />
              </div>
            )}
          </Lazy>
        </>
      );
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
            {messages.errorTitle}
          </h3>
          <p class="muted">{errorText(step, messages)}</p>
          {step.code === 'no_channels' ||
          step.code === 'order_not_found' ||
          step.code === 'already_paid' ? null : (
            <button type="button" class="primary" onClick={() => model.retry()}>
              {messages.tryAgain}
            </button>
          )}
        </div>
      );
  }
}
