import { type ReadonlySignal, type Signal, useSignal } from '@preact/signals';
import { type ComponentChildren, type ComponentType, Fragment, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { OutcomesChunk } from '#chunks';
import type { CheckoutModel, CheckoutResult, CheckoutStep } from '../flow/checkout-model';
import type { CustomerDetails, HttpCompanion } from '../flow/companion';
import { CHANNEL_REGISTRY, type PanelContext, type PanelProps } from './channels';
import type { BankWindow } from './channels/bank/bank-window';
import { fill, type Messages } from './messages';
import type { OutcomeMark } from './outcomes/marks';
import { ChannelPicker } from './ui/ChannelPicker';
import { amountDue, formatMoney } from './ui/format';
import { Icon } from './ui/Icon';
import { Waiting } from './ui/Lazy';
import { askOutcomes, outcomes } from './ui/outcomes';

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

/** Whether a step's words are in the outcomes chunk: a lost connection's never are. */
function needsOutcomes(step: CheckoutStep): boolean {
  return (
    step.kind === 'failed' ||
    step.kind === 'expired' ||
    (step.kind === 'error' && step.code !== 'network' && step.code !== 'timeout')
  );
}

/**
 * The title and text of a failed, expired or error step: a lost connection's from the dialog's
 * catalogue (they must show offline), the others' from the outcomes chunk, or "something went
 * wrong" when it could not be loaded; undefined while it loads.
 */
function endingWords(
  step: CheckoutStep,
  messages: Messages,
  locale: string,
  chunk: OutcomesChunk | null | undefined,
): { title: string; text: string } | undefined {
  if (!needsOutcomes(step)) return { title: messages.errorTitle, text: messages.errorNetwork };
  if (chunk === undefined) return undefined;
  const known = chunk?.outcomeWords(step, chunk.outcomeMessages(locale, messages), locale);
  return { title: known?.title ?? messages.errorTitle, text: known?.text ?? messages.errorGeneric };
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
  readonly locale: string;
  readonly flash: ReadonlySignal<Flash | null>;
  readonly stepKey: string;
}) {
  const { model, messages, locale, flash, stepKey } = props;
  const step = model.step.value;
  const milestone = model.milestone.value;
  const said = flash.value;
  const text =
    (said && said.stepKey === stepKey && said.milestone === milestone ? said.text : '') ||
    milestoneAnnouncement(milestone, messages) ||
    (step.kind === 'error'
      ? (endingWords(step, messages, locale, outcomes.value)?.text ?? '')
      : '');
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
  const merchant = session?.merchant;
  const paid = step.kind === 'error' && step.code === 'already_paid';
  // A failed or expired screen waits for its words; their arrival is a new screen to focus.
  const ending = needsOutcomes(step) ? askOutcomes() : undefined;
  const stepKey = `${step.kind}:${'phase' in step ? step.phase : ''}:${leaving.value}:${ending !== undefined}`;
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
      // The merchant's colour, where the companion found it keeps its contrast (CSSOM, not a
      // style attribute: a strict CSP needs no 'unsafe-inline').
      style={{ '--accent': merchant?.brandColor, '--accent-dark': merchant?.brandColorDark }}
      // Named for the checkout and what is paid for: "Checkout Order 1042" (issue 12).
      aria-labelledby={session ? 'paydrop-label paydrop-title' : 'paydrop-title'}
      onCancel={(event) => {
        // Escape asks first while a payment is under way.
        event.preventDefault();
        requestClose();
      }}
    >
      {/* Not a <header>: that would be a second banner landmark on the page (axe). Who is paid,
          how much (the largest text, issue 23), and for what beneath it. */}
      <div class="header">
        {merchant ? (
          <p class="merchant">
            {/* The name beside it says who it is: the logo is decoration. */}
            {merchant.logoUrl ? <img src={merchant.logoUrl} alt="" /> : null}
            {merchant.name}
          </p>
        ) : null}
        {/* Once paid, the amount above "Payment received" or "Already paid" would say the opposite. */}
        {session && step.kind !== 'succeeded' && !paid ? (
          <p class="total">{formatMoney(session.amount, locale)}</p>
        ) : null}
        {session ? (
          <span id="paydrop-label" class="visually-hidden">
            {messages.dialogLabel}
          </span>
        ) : null}
        <h2 id="paydrop-title">{session?.description ?? messages.dialogLabel}</h2>
        <button type="button" class="icon" aria-label={messages.close} onClick={requestClose}>
          <Icon d={CROSS} />
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
            outcomes={ending}
          />
        </div>
        {leaving.value ? (
          <LeaveQuestion
            leaving={leaving}
            messages={messages}
            leave={() => onDone(model.resultIfClosed())}
          />
        ) : null}
        {/* Who processes the payment: true of every channel, and all we claim (issue 23). */}
        {step.kind === 'choosing' || step.kind === 'paying' ? (
          <p class="trust muted">{messages.trust}</p>
        ) : null}
      </div>
      <Announcer
        model={model}
        messages={messages}
        locale={locale}
        flash={flash}
        stepKey={stepKey}
      />
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

/** The close button's cross. */
const CROSS = 'M6 6l12 12M18 6L6 18';

/** One final screen: its mark, the heading that takes focus, what happened, what next. */
function Outcome(props: {
  readonly mark: OutcomeMark;
  readonly title: string;
  readonly text: string;
  readonly children: ComponentChildren;
}) {
  const { mark, title, text, children } = props;
  // The marks come with the outcomes chunk (outcomes/marks.ts); the disc waits for its path.
  const path = askOutcomes()?.outcomeMarks[mark];
  return (
    <div class="state">
      <div class={`mark ${mark}`}>{path ? <Icon d={path} /> : null}</div>
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
  /** The outcomes chunk, at a failed or expired step (see `outcomes`). */
  readonly outcomes?: OutcomesChunk | null | undefined;
}

function OtherMethod({ model, messages }: { model: CheckoutModel; messages: Messages }) {
  return (model.session.value?.channels.length ?? 0) > 1 ? (
    <button type="button" class="secondary" onClick={() => model.changeMethod()}>
      {messages.otherMethod}
    </button>
  ) : null;
}

function StepView(props: StepViewProps) {
  const { step, model, messages, locale, bank, companion, customer, announce, onDone, outcomes } =
    props;
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
      CHANNEL_REGISTRY[step.channel].offered?.();
      return <Waiting text={messages.starting} />;
    case 'choosing':
      // Each channel on offer warms up its part (idempotent, so a render more asks nothing more).
      for (const choice of step.channels) CHANNEL_REGISTRY[choice.name].offered?.();
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
          mark="good"
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
    default: {
      // failed, expired, error: what happened, and what the customer can do now.
      const words = endingWords(step, messages, locale, outcomes);
      if (!words) return <Waiting text={messages.loading} />;
      return (
        <Outcome
          mark={
            step.kind === 'failed'
              ? 'bad'
              : step.kind === 'expired'
                ? 'late'
                : step.code === 'already_paid'
                  ? 'paid'
                  : 'error'
          }
          title={words.title}
          text={words.text}
        >
          {step.kind === 'failed' ? (
            <div class="actions">
              <button type="button" class="primary" onClick={() => model.tryAgain()}>
                {messages.tryAgain}
              </button>
              {context.other}
              <button type="button" class="secondary" onClick={done}>
                {messages.close}
              </button>
            </div>
          ) : step.kind === 'expired' ? (
            <div class="actions">
              <button type="button" class="primary" onClick={() => model.newAccount()}>
                {messages.newAccount}
              </button>
              {context.other}
            </div>
          ) : step.code === 'no_channels' ||
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
              {step.retry === 'initiate' ? context.other : null}
            </div>
          )}
        </Outcome>
      );
    }
  }
}
