import { type ReadonlySignal, type Signal, useSignal } from '@preact/signals';
import { type ComponentChildren, type ComponentType, Fragment, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { CardChunk } from '#chunks';
import type { CheckoutModel, CheckoutResult, CheckoutStep } from '../flow/checkout-model';
import type { CustomerDetails, HttpCompanion } from '../flow/companion';
import { CHANNEL_REGISTRY, type PanelContext, type PanelProps } from './channels';
import type { BankWindow } from './channels/bank/bank-window';
import { WithCard } from './channels/card/CardPanel';
import { fill, type Messages } from './messages';
import { ChannelPicker } from './ui/ChannelPicker';
import { amountDue, formatMoney } from './ui/format';
import { Waiting } from './ui/Lazy';

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

/**
 * The failure screen's title and text, one pair per cause (issue 12): why, and where the money
 * is. A card's causes and its "not charged" come from the card chunk (cardFailureWords), which
 * a card payment has always loaded; null while it is not here.
 */
function failureWords(
  step: Extract<CheckoutStep, { kind: 'failed' }>,
  messages: Messages,
  locale: string,
  card?: CardChunk | null,
): { title: string; text: string } | null {
  if (step.code === 'bank_declined')
    return { title: messages.bankDeclinedTitle, text: messages.bankDeclinedText };
  if (step.code === 'transfer_short') {
    // What arrived and what is missing, when the provider said (the model checked the sums).
    const { paid } = step;
    const due = amountDue(step.payment);
    const sums = paid
      ? `${fill(messages.shortPaid, {
          paid: formatMoney(paid, locale),
          missing: formatMoney({ ...due, amountMinor: due.amountMinor - paid.amountMinor }, locale),
        })} `
      : '';
    return { title: messages.shortTitle, text: sums + messages.shortText };
  }
  if (step.payment.channel !== 'Card' || card === null)
    // payment_failed: the provider gave no reason we know.
    return { title: messages.failedTitle, text: messages.failedText };
  return card
    ? card.cardFailureWords(step.code, card.cardMessages(locale, messages), messages.failedTitle)
    : null;
}

function milestoneAnnouncement(minutes: number | null, messages: Messages): string {
  if (minutes === null || minutes === 0) return '';
  return minutes === 1 ? messages.oneMinuteLeft : fill(messages.minutesLeft, { minutes });
}

/** "Copied", said once, for as long as the step and the countdown's warning it was said in last. */
interface Flash {
  readonly text: string;
  readonly stepKey: string;
  readonly milestone: number | null;
}

/**
 * The live region: what focus cannot say (why something failed, a countdown warning, "copied").
 * It reads the milestone and the flash itself, so neither redraws the dialog.
 */
function Announcer(props: {
  readonly model: CheckoutModel;
  readonly messages: Messages;
  readonly flash: ReadonlySignal<Flash | null>;
  readonly stepKey: string;
}) {
  const { model, messages, flash, stepKey } = props;
  const step = model.step.value;
  const milestone = model.milestone.value;
  const said = flash.value;
  const text =
    (said && said.stepKey === stepKey && said.milestone === milestone ? said.text : '') ||
    milestoneAnnouncement(milestone, messages) ||
    (step.kind === 'error' ? errorText(step, messages) : '');
  return (
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}

/** The dialog: a native <dialog> in the top layer, rendering whatever step the model is at. */
export function Checkout(props: CheckoutProps) {
  const { model, messages, locale, bank, companion, customer, onDone } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const leaving = useSignal(false);
  const flash = useSignal<Flash | null>(null);
  // Reading the step and the session here redraws the dialog when they change, and only then:
  // the countdown's tick and the live region are read further down, where they are shown.
  const step = model.step.value;
  const session = model.session.value;
  const stepKey = `${step.kind}:${'phase' in step ? step.phase : ''}:${leaving.value}`;
  const shownKey = useRef(stepKey);
  shownKey.current = stepKey;
  /** The control that had focus when "Leave the checkout?" was asked: "Stay" goes back to it. */
  const stayFocus = useRef<HTMLElement | null>(null);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // Each new step takes focus to its newest heading, so keyboard and screen reader users follow.
  useLayoutEffect(() => {
    // "Copied" belongs to the step it was said in.
    if (flash.peek()?.stepKey !== stepKey) flash.value = null;
    const back = stayFocus.current;
    if (!leaving.peek() && back) {
      stayFocus.current = null;
      if (back.isConnected) {
        back.focus();
        return;
      }
    }
    const headings = body.current?.querySelectorAll<HTMLElement>('[data-step-heading]');
    headings?.[headings.length - 1]?.focus();
  }, [stepKey]);

  const requestClose = () => {
    if (model.paymentUnderWay.peek() && !leaving.peek()) {
      const root = dialog.current?.getRootNode() as Document | ShadowRoot | undefined;
      stayFocus.current = (root?.activeElement as HTMLElement | null) ?? null;
      leaving.value = true;
    } else onDone(model.resultIfClosed());
  };

  const announce = (text: string) => {
    flash.value = { text, stepKey: shownKey.current, milestone: model.milestone.peek() };
  };

  return (
    <dialog
      ref={dialog}
      lang={messages.lang}
      // Named for the checkout and what is paid for: "Checkout Order 1042" (issue 12).
      aria-labelledby={session ? 'paydrop-label paydrop-title' : 'paydrop-title'}
      onCancel={(event) => {
        // Escape asks first while a payment is under way.
        event.preventDefault();
        requestClose();
      }}
    >
      {/* Not a <header>: that would be a second banner landmark on the page (axe). */}
      <div class="header">
        <div>
          {session ? (
            <span id="paydrop-label" class="visually-hidden">
              {messages.dialogLabel}
            </span>
          ) : null}
          <h2 id="paydrop-title">{session?.description ?? messages.dialogLabel}</h2>
          {/* Once paid, "Pay …" above "Payment received" or "Already paid" would say the opposite. */}
          {session &&
          step.kind !== 'succeeded' &&
          !(step.kind === 'error' && step.code === 'already_paid') ? (
            <p class="total muted">
              {fill(messages.payAmount, { amount: formatMoney(session.amount, locale) })}
            </p>
          ) : null}
        </div>
        <button type="button" class="icon" aria-label={messages.close} onClick={requestClose}>
          ×
        </button>
      </div>
      <div class="body" ref={body}>
        {/* The step stays mounted while "leave?" is asked, so nothing under way is lost. */}
        <div class="step" hidden={leaving.value}>
          <StepView
            step={step}
            model={model}
            messages={messages}
            locale={locale}
            bank={bank}
            companion={companion}
            customer={customer}
            announce={announce}
            onDone={onDone}
          />
        </div>
        {leaving.value ? (
          <LeaveQuestion
            leaving={leaving}
            messages={messages}
            leave={() => onDone(model.resultIfClosed())}
          />
        ) : null}
      </div>
      <Announcer model={model} messages={messages} flash={flash} stepKey={stepKey} />
    </dialog>
  );
}

/** Closing while a payment is under way asks first. */
function LeaveQuestion(props: {
  readonly leaving: Signal<boolean>;
  readonly messages: Messages;
  readonly leave: () => void;
}) {
  const { leaving, messages, leave } = props;
  return (
    <>
      <h3 tabIndex={-1} data-step-heading>
        {messages.leaveTitle}
      </h3>
      <p class="muted">{messages.leaveText}</p>
      <div class="actions">
        <button
          type="button"
          class="primary"
          onClick={() => {
            leaving.value = false;
          }}
        >
          {messages.stay}
        </button>
        <button type="button" class="secondary" onClick={leave}>
          {messages.leave}
        </button>
      </div>
    </>
  );
}

/** One final screen: an optional mark, the heading that takes focus, what happened, what next. */
function Outcome(props: {
  readonly mark?: { readonly tone: 'good' | 'bad'; readonly symbol: string } | undefined;
  readonly title: string;
  readonly text: string;
  readonly children: ComponentChildren;
}) {
  const { mark, title, text, children } = props;
  return (
    <div class="state">
      {mark ? (
        <div class={`mark ${mark.tone}`} aria-hidden="true">
          {mark.symbol}
        </div>
      ) : null}
      <h3 tabIndex={-1} data-step-heading>
        {title}
      </h3>
      <p class="muted">{text}</p>
      {children}
    </div>
  );
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

function OtherMethod({ model, messages }: { model: CheckoutModel; messages: Messages }) {
  return (model.session.value?.channels.length ?? 0) > 1 ? (
    <button type="button" class="secondary" onClick={() => model.changeMethod()}>
      {messages.otherMethod}
    </button>
  ) : null;
}

function StepView(props: StepViewProps) {
  const { step, model, messages, locale, bank, companion, customer, announce, onDone } = props;
  const done = () => onDone(model.resultIfClosed());
  const context: PanelContext = {
    model,
    messages,
    locale,
    bank,
    companion,
    customer,
    announce,
    other: <OtherMethod model={model} messages={messages} />,
  };
  switch (step.kind) {
    case 'loading':
      return <Waiting text={messages.loading} />;
    case 'starting':
      return <Waiting text={messages.starting} />;
    case 'choosing':
      return (
        <>
          {step.resume ? (
            // The transfer still open for this order, beside the other ways (issue 12).
            <div class="actions">
              <button type="button" class="primary" onClick={() => model.continueTransfer()}>
                {messages.continueTransfer}
              </button>
            </div>
          ) : null}
          <ChannelPicker
            channels={step.channels}
            messages={messages}
            onChoose={(channel) => {
              // What choosing does in the click itself (the bank's window), then the model.
              CHANNEL_REGISTRY[channel].choose?.(context);
              model.choose(channel);
            }}
          />
        </>
      );
    case 'paying': {
      // One paying step for every channel: the registry knows each one's panel.
      const Panel = CHANNEL_REGISTRY[step.channel].Panel as ComponentType<
        PanelProps<typeof step.channel>
      >;
      return <Panel step={step} context={context} />;
    }
    case 'processing':
      return <Waiting text={step.checking ? messages.checkingPayment : messages.processing} />;
    case 'succeeded':
      return (
        <Outcome
          mark={{ tone: 'good', symbol: '✓' }}
          title={messages.succeededTitle}
          text={fill(messages.succeededText, {
            amount: formatMoney(amountDue(step.payment), locale),
          })}
        >
          <button type="button" class="primary" onClick={done}>
            {messages.done}
          </button>
        </Outcome>
      );
    case 'failed': {
      const failed = (card?: CardChunk | null) => {
        const words = failureWords(step, messages, locale, card);
        return words ? (
          <Outcome mark={{ tone: 'bad', symbol: '!' }} title={words.title} text={words.text}>
            <div class="actions">
              <button type="button" class="primary" onClick={() => model.tryAgain()}>
                {messages.tryAgain}
              </button>
              <OtherMethod model={model} messages={messages} />
              <button type="button" class="secondary" onClick={done}>
                {messages.close}
              </button>
            </div>
          </Outcome>
        ) : (
          <WithCard messages={messages}>{failed}</WithCard>
        );
      };
      return failed();
    }
    case 'expired':
      return (
        <Outcome title={messages.expiredTitle} text={messages.expiredText}>
          <div class="actions">
            <button type="button" class="primary" onClick={() => model.newAccount()}>
              {messages.newAccount}
            </button>
            <OtherMethod model={model} messages={messages} />
          </div>
        </Outcome>
      );
    case 'error':
      return (
        <Outcome
          title={step.code === 'already_paid' ? messages.alreadyPaidTitle : messages.errorTitle}
          text={errorText(step, messages)}
        >
          {step.code === 'no_channels' ||
          step.code === 'order_not_found' ||
          step.code === 'already_paid' ? (
            // Nothing to try again: a way out that needs no hunting for the ×.
            <button type="button" class="secondary" onClick={done}>
              {messages.close}
            </button>
          ) : (
            <div class="actions">
              <button type="button" class="primary" onClick={() => model.retry()}>
                {messages.tryAgain}
              </button>
              {step.retry === 'initiate' ? <OtherMethod model={model} messages={messages} /> : null}
            </div>
          )}
        </Outcome>
      );
  }
}
