/**
 * Card on the provider's hosted page, as the card chunk shows it: the page in the window opened
 * in the choosing click, what to do while the customer pays there, and what happened when the
 * window closed. Driven by the hosted card flow, whose state is a signal read here.
 */
import { type ComponentChildren, h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { createCardActions } from '../../../flow/channels/card';
import type { CheckoutModel } from '../../../flow/checkout-model';
import type { HttpCompanion, PaymentView } from '../../../flow/companion';
import { hostedPageReference, RETURN_PARAM } from '../../../protocol/contract';
import { localTexts } from '../../messages/local-texts';
import { PAYMENT_WINDOW_FEATURES, PAYMENT_WINDOW_NAME } from '../payment-window';
import { CardStep, type CardStepProps } from './CardStep';
import { type CardWindow, createHostedCardFlow, type HostedCardFlow } from './hosted-card-flow';
import {
  type HostedCardMessages,
  hostedCardMessagesEn,
  hostedCardMessagesFr,
} from './hosted-messages';

export interface HostedCardProps {
  readonly model: CheckoutModel;
  readonly companion: HttpCompanion;
  readonly locale: string;
  /** The dialog's texts, the merchant's overrides included. */
  readonly messages: Readonly<Record<string, string>>;
  /**
   * The payment window opened in the click that chose Card (the bank's window, bank-window.ts),
   * and its full-page way there and back when windows are blocked.
   */
  readonly bank: { take(): CardWindow | null; continueToBank(payment: PaymentView): void };
  /** "Choose another way to pay", when there is one. */
  readonly other: ComponentChildren;
}

/** The checkout's one payment window (the bank's, when it pays from a bank). */
const openWindow = () =>
  window.open('about:blank', PAYMENT_WINDOW_NAME, PAYMENT_WINDOW_FEATURES) as CardWindow | null;

const browserClock = {
  setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/** This page, without a return mark, for the way back from a full-page redirect. */
function thisPage(): string {
  const url = new URL(location.href);
  url.searchParams.delete(RETURN_PARAM);
  return url.href;
}

/**
 * The same tab goes to the provider's page, by the bank's way there and back (bank-window.ts and
 * the return chunk): the page's token and a payment named for the page are kept, and the
 * companion's return page brings the customer back with the page's payment reference
 * (`?paydrop_return=REF&paydrop_card=ALIAS`), which the checkout, reopened, follows.
 */
function goToPage(props: HostedCardProps, flow: HostedCardFlow): void {
  const page = flow.page();
  const amount = props.model.session.peek()?.amount;
  if (!page || !amount) return;
  props.model.paying.watch.adopt(page.token);
  props.bank.continueToBank({
    reference: hostedPageReference(page.alias),
    channel: 'Card',
    status: 'PENDING',
    amount,
    fees: { amountMinor: 0, currency: amount.currency },
    virtualAccount: null,
    bankAuthUrl: page.url,
    serverTime: Date.now(),
  });
}

export function HostedCard(props: HostedCardProps) {
  const made = useRef<{ flow: HostedCardFlow; texts: HostedCardMessages } | null>(null);
  if (!made.current) {
    const { model, companion } = props;
    const card = createCardActions(model.paying);
    made.current = {
      texts: localTexts(hostedCardMessagesEn, hostedCardMessagesFr, props.locale, props.messages),
      flow: createHostedCardFlow({
        companion,
        clock: browserClock,
        sessionToken: model.session.peek()?.token ?? '',
        found: card.checkPayment,
        failed: card.fail,
      }),
    };
  }
  const { flow, texts } = made.current;
  const root = useRef<HTMLDivElement | null>(null);
  const state = flow.state.value;

  useLayoutEffect(() => {
    void flow.start(props.bank.take(), thisPage());
    // The companion's return page tells every tab of this origin that the customer came back.
    let channel: BroadcastChannel | undefined;
    try {
      channel = new BroadcastChannel('paydrop');
      channel.onmessage = (event) => {
        if ((event.data as { type?: unknown } | null)?.type === 'paydrop:card-return') {
          flow.returned();
        }
      };
    } catch {
      // Without BroadcastChannel the window's closing and the companion's answers still tell.
    }
    return () => {
      channel?.close();
      flow.dispose();
    };
  }, []);
  useLayoutEffect(() => {
    root.current?.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [state.kind]);

  // The dialog's spinner (ui/Lazy.tsx's Waiting, whose module the chunk cannot import).
  if (state.kind === 'opening') {
    return (
      <div class="state">
        <div class="spinner" aria-hidden="true" />
        <p tabIndex={-1} data-step-heading>
          {texts.hostedOpening}
        </p>
      </div>
    );
  }
  return (
    <div ref={root}>
      <h3 tabIndex={-1} data-step-heading>
        {texts.hostedTitle}
      </h3>
      <p class="muted">
        {state.kind === 'opened'
          ? texts.hostedOpenedText
          : state.kind === 'blocked'
            ? texts.hostedBlockedText
            : state.cancelled
              ? texts.hostedCancelledText
              : texts.hostedClosedText}
      </p>
      <div class="actions">
        {state.kind === 'opened' ? (
          <button type="button" class="secondary" onClick={() => flow.focus()}>
            {texts.hostedShow}
          </button>
        ) : state.kind === 'blocked' ? (
          <button
            type="button"
            class="primary"
            onClick={() => {
              // A window if the browser allows one in this click, else the page itself goes.
              if (!flow.reopen(openWindow())) goToPage(props, flow);
            }}
          >
            {texts.hostedContinue}
          </button>
        ) : (
          <button
            type="button"
            class="primary"
            onClick={() => void flow.start(openWindow(), thisPage())}
          >
            {texts.hostedAgain}
          </button>
        )}
        {state.kind === 'opened' ? null : props.other}
      </div>
    </div>
  );
}

/**
 * The card step the dialog shows: the provider's hosted page unless the companion says the card
 * is typed in this checkout ('direct'). Chosen here, in the card chunk, so the dialog's own
 * bundle carries one component for both.
 */
export function CardEntryStep(props: HostedCardProps & CardStepProps) {
  return props.model.session.peek()?.cardEntry === 'direct' ? (
    <CardStep {...props} />
  ) : (
    <HostedCard {...props} />
  );
}
