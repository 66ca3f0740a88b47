/**
 * The checkout as a model of signals and actions, with no DOM and no fetch: the widget renders
 * `step` and calls the actions; tests drive it with fake ports in Node. One union-typed `step`
 * says where the customer is (checkout-step.ts); this module routes the session (start, choose,
 * retry, close) and composes the parts: following a payment (payment-watch.ts), the countdown
 * (countdown.ts) and each channel's actions (channels/).
 */
import { batch, computed, type ReadonlySignal, signal } from '@preact/signals';
import type { Channel, Money } from '../protocol';
import type { CardEntry } from '../protocol/contract';
import {
  createBankActions,
  createTransferActions,
  liveStepFor,
  type PayingCore,
  panelStartStep,
  returnsToPage,
  rulesOf,
} from './channels';
import {
  type BankPhase,
  type CheckoutResult,
  type CheckoutStep,
  type FailureCode,
  isLive,
  summary,
} from './checkout-step';
import type { Clock } from './clock';
import {
  type ChannelChoice,
  CompanionFailure,
  type CompanionPort,
  type CustomerDetails,
  type MerchantView,
  type PaymentStatus,
  type PaymentView,
} from './companion';
import { createCountdown } from './countdown';
import { createPaymentWatch } from './payment-watch';

export type {
  BankPhase,
  CardDraft,
  CardPhase,
  CheckoutFailure,
  CheckoutFailureCode,
  CheckoutResult,
  CheckoutStep,
  FailureCode,
  PayingPhases,
  PayingStep,
  PaymentSummary,
  TransferPhase,
} from './checkout-step';
export { pollDelayMs } from './payment-watch';

/**
 * What a failure without a stated reason can only mean, by channel (a bank payment fails at the
 * bank): its rules say (flow/channels).
 */
function impliedCause(payment: PaymentView): FailureCode {
  return rulesOf(payment.channel).unexplainedFailure;
}

export interface CheckoutModelOptions {
  readonly companion: CompanionPort;
  readonly clock: Clock;
  readonly target: { readonly order: string } | { readonly link: string };
  readonly customer?: CustomerDetails | undefined;
  /** Channels this build of the widget can take the customer through. */
  readonly supportedChannels: readonly Channel[];
  /** Every step change, for the merchant's onEvent. */
  readonly onStep?: ((step: CheckoutStep) => void) | undefined;
  /** The merchant page a full-page bank redirect comes back to. */
  readonly returnTo?: string | undefined;
  /** A bank payment this page was sent back to after a full-page redirect: pick it up. */
  readonly resumed?: { readonly token: string; readonly payment: PaymentView } | undefined;
}

interface Session {
  readonly token: string;
  readonly amount: Money;
  readonly description: string;
  readonly channels: readonly ChannelChoice[];
  /** Where Card is typed: the provider's hosted page unless the companion says 'direct'. */
  readonly cardEntry?: CardEntry | undefined;
  /** Who is being paid, when the companion names them (issue 23). */
  readonly merchant?: MerchantView | undefined;
}

export function createCheckoutModel(options: CheckoutModelOptions) {
  const { companion, clock } = options;
  const step = signal<CheckoutStep>({ kind: 'loading' });
  const session = signal<Session | null>(null);
  const outcome = signal<CheckoutResult | null>(null);
  let disposed = false;
  let lastChannel: Channel | null = null;
  /**
   * The transfer account shown for this order while it can still be paid into (issue 12): the
   * customer may look at another way to pay and come back to it until it expires.
   */
  let liveTransfer: { readonly payment: PaymentView; readonly token: string } | null = null;
  /**
   * The account number an expired transfer showed, while the fresh account that replaces it is
   * on screen (issue 12): a customer who saved the old payee is told plainly not to use it.
   */
  const replacedAccount = signal<string | null>(null);
  let expiredAccount: string | null = null;

  function transferStillOpen(): PaymentView | undefined {
    const open = liveTransfer?.payment;
    const account = open?.virtualAccount;
    if (!open || !account || countdown.passed(account.expiresAt)) return undefined;
    return open;
  }

  const expiresAt = computed(() => {
    const current = step.value;
    return current.kind === 'paying' ? rulesOf(current.channel).deadline(current) : null;
  });
  const countdown = createCountdown({
    clock,
    expiresAt,
    reachedZero: () => void transfer.expire(),
  });
  const watch = createPaymentWatch({
    companion,
    clock,
    heard: (status, answer) => settle(status, answer?.reason, answer?.paid),
    serverTime: (serverTime) => countdown.anchor(serverTime),
    awaiting: () => isLive(step.peek()),
  });

  function go(next: CheckoutStep): void {
    if (disposed) return;
    if (next.kind === 'expired')
      expiredAccount = next.payment.virtualAccount?.accountNumber ?? null;
    batch(() => {
      // A countdown warning belongs to the step it was made in.
      countdown.milestone.value = null;
      step.value = next;
    });
    options.onStep?.(next);
  }

  function failWith(error: unknown, retry: 'session' | 'initiate'): void {
    // By name, not instanceof: the script tag's card chunk has a copy of the class of its own
    // (a refusal it read from the card frame's answer), and its code must count all the same.
    const failure =
      (error as Error | null)?.name === 'CompanionFailure'
        ? (error as CompanionFailure)
        : new CompanionFailure('internal', error instanceof Error ? error.message : String(error));
    go({ kind: 'error', code: failure.code, message: failure.message, retry });
  }

  function stopWatching(): void {
    watch.stop();
    countdown.stop();
  }

  /**
   * The provider's final word: `why` when it said why it failed (`expired`: the account's time
   * ran out on the provider's clock, whatever ours says), `paid` what arrived of a short transfer.
   */
  function settle(
    status: PaymentStatus,
    why: FailureCode | 'expired' = 'payment_failed',
    paid?: Money,
  ): void {
    const current = step.peek();
    if (disposed || !isLive(current) || status === 'PENDING') return;
    stopWatching();
    liveTransfer = null;
    const payment = { ...current.payment, status };
    const account = current.payment.virtualAccount;
    batch(() => {
      if (
        status === 'FAILED' &&
        account &&
        (why === 'expired' || countdown.passed(account.expiresAt))
      ) {
        // The provider fails an account nobody paid into in time: say so, and offer a new one.
        outcome.value = {
          status: 'failed',
          error: { code: 'expired', message: 'The account expired unpaid.' },
          payment: summary(payment),
        };
        go({ kind: 'expired', payment });
        countdown.milestone.value = 0;
      } else if (status === 'SUCCESSFUL') {
        outcome.value = { status: 'succeeded', payment: summary(payment) };
        go({ kind: 'succeeded', payment });
      } else {
        const code = why === 'payment_failed' || why === 'expired' ? impliedCause(payment) : why;
        outcome.value = {
          status: 'failed',
          // The cause is the code; the customer's words are the widget's messages.
          error: { code, message: `The payment did not go through (${code}).` },
          payment: summary(payment),
        };
        // What arrived of a short transfer, when it is less than was due in the same currency.
        const due = payment.amount.amountMinor + payment.fees.amountMinor;
        const short =
          code === 'transfer_short' &&
          paid?.currency === payment.amount.currency &&
          paid.amountMinor < due;
        go({ kind: 'failed', payment, code, ...(short ? { paid } : {}) });
      }
    });
  }

  function showPayment(
    payment: PaymentView,
    token: string,
    bankPhase: BankPhase = 'ready',
    checking = false,
  ): void {
    if (disposed) return;
    watch.adopt(token);
    watch.renew();
    countdown.anchor(payment.serverTime);
    const live = liveStepFor(payment, bankPhase);
    if (rulesOf(payment.channel).staysOpen && payment.status === 'PENDING') {
      liveTransfer = { payment, token };
      const number = payment.virtualAccount?.accountNumber ?? null;
      replacedAccount.value =
        expiredAccount !== null && expiredAccount !== number ? expiredAccount : null;
    } else {
      replacedAccount.value = null;
    }
    const first = checking && live.kind === 'processing' ? { ...live, checking } : live;
    if (payment.status !== 'PENDING') {
      go(first);
      settle(payment.status);
      return;
    }
    go(first);
    // Push first, polling as the fallback, until the outcome.
    stopWatching();
    watch.start();
    if (first.kind === 'paying' && rulesOf(first.channel).deadline(first) !== null) {
      countdown.start();
    } else if (bankPhase === 'processing' || checking) void watch.check();
  }

  /**
   * `/initiate` answered with an earlier payment of this checkout or order instead of a new one
   * (issue 9): one that succeeded is shown as the success it is, one still settling is followed.
   */
  function showEarlier(error: unknown): boolean {
    if (!(error instanceof CompanionFailure) || !error.earlier) return false;
    const { payment, token } = error.earlier;
    lastChannel = payment.channel;
    showPayment(payment, token, 'processing', true);
    return true;
  }

  async function initiate(channel: Channel): Promise<void> {
    const current = session.peek();
    if (!current) return;
    const ownPanel = panelStartStep(channel);
    if (ownPanel) {
      // The channel's panel starts the payment (the card chunk, once the card is submitted).
      stopWatching();
      watch.renew();
      go(ownPanel);
      return;
    }
    go({ kind: 'starting', channel });
    try {
      const { token, payment } = await companion.initiate(current.token, {
        channel,
        customer: options.customer,
        ...(returnsToPage(channel) && options.returnTo ? { returnTo: options.returnTo } : {}),
      });
      showPayment(payment, token);
    } catch (error) {
      if (!disposed && !showEarlier(error)) failWith(error, 'initiate');
    }
  }

  const core: PayingCore = {
    step,
    go,
    watch,
    countdown,
    settle,
    stopWatching,
    // A payment of unknown outcome from the card chunk: a bank one among them has been decided at
    // the bank already, so it is confirmed rather than offered again.
    showPayment: (payment, token, checking = false) =>
      showPayment(payment, token, checking ? 'processing' : 'ready', checking),
    initiate,
    fail: (error) => failWith(error, 'initiate'),
    disposed: () => disposed,
  };
  const transfer = createTransferActions(core);
  const bank = createBankActions(core);

  /** `again`: a payment by this channel failed; its "Try again" goes straight back to it. */
  async function start(again?: Channel): Promise<void> {
    go({ kind: 'loading' });
    try {
      const answer = await companion.startSession(options.target);
      if (disposed) return;
      const channels = answer.channels.filter((channel) =>
        options.supportedChannels.includes(channel.name),
      );
      session.value = { ...answer, channels };
      if (options.resumed) {
        // Back from the bank (or the provider's card page) after a full-page redirect: confirm
        // where that payment stands; Try again goes back to the same channel.
        lastChannel = options.resumed.payment.channel;
        showPayment(options.resumed.payment, options.resumed.token, 'processing');
        return;
      }
      if (
        answer.payment &&
        rulesOf(answer.payment.channel).staysOpen &&
        answer.payment.status === 'PENDING' &&
        channels.length > 1
      ) {
        // Back to an order with an open transfer: continue it, or choose another way (issue 12).
        lastChannel = null;
        liveTransfer = { payment: answer.payment, token: answer.token };
        countdown.anchor(answer.payment.serverTime);
        go({ kind: 'choosing', channels, resume: transferStillOpen() });
        return;
      }
      if (answer.payment) {
        // The same order again: the payment already under way (or already paid) comes back.
        lastChannel = answer.payment.channel;
        showPayment(answer.payment, answer.token);
        return;
      }
      if (channels.length === 0) {
        go({
          kind: 'error',
          code: 'no_channels',
          message: 'No payment method is available for this order.',
          retry: 'session',
        });
      } else if (channels.length === 1 && channels[0]) {
        lastChannel = channels[0].name;
        await initiate(channels[0].name);
      } else if (again && channels.some((channel) => channel.name === again)) {
        lastChannel = again;
        await initiate(again);
      } else {
        go({ kind: 'choosing', channels, resume: transferStillOpen() });
      }
    } catch (error) {
      // A paid link or order still names what it is: the dialog is titled for it (issue 12).
      const paid = error instanceof CompanionFailure ? error.checkout : null;
      if (paid && !disposed) session.value = { token: '', channels: [], ...paid };
      if (!disposed) failWith(error, 'session');
    }
  }

  return {
    step: step as ReadonlySignal<CheckoutStep>,
    session: session as ReadonlySignal<Session | null>,
    outcome: outcome as ReadonlySignal<CheckoutResult | null>,
    secondsLeft: countdown.secondsLeft,
    /** The old account number while a fresh account replaces an expired one; null otherwise. */
    replacedAccount: replacedAccount as ReadonlySignal<string | null>,
    /** The last countdown milestone reached (minutes left; 0 at expiry), for the live region. */
    milestone: countdown.milestone as ReadonlySignal<number | null>,
    /** True while closing would leave a payment half-done. */
    paymentUnderWay: computed(() => {
      const current = step.value;
      return (
        isLive(current) ||
        current.kind === 'starting' ||
        (current.kind === 'paying' && rulesOf(current.channel).underWay(current))
      );
    }),

    start: () => start(),

    /** "Try again" after a failed payment: a new one by the same channel. */
    tryAgain(): void {
      if (step.peek().kind === 'failed') void start(lastChannel ?? undefined);
    },

    /** The token of the payment under way, for picking it up after a full-page redirect. */
    paymentToken: watch.token,

    choose(channel: Channel): void {
      if (step.peek().kind !== 'choosing') return;
      lastChannel = channel;
      void initiate(channel);
    },

    sentMoney: transfer.sentMoney,
    newAccount: transfer.newAccount,
    bankOpened: bank.bankOpened,
    bankReturned: bank.bankReturned,
    bankWindowClosed: bank.bankWindowClosed,
    /**
     * For the card's actions (flow/channels/card.ts), which live in the card chunk with the form
     * and are made there from this: a page that never chooses Card downloads none of them.
     */
    paying: core,

    /** A step of the card chunk failed before anything could be charged (or it did not load). */
    fail(error: unknown): void {
      const current = step.peek();
      if (current.kind === 'paying' && rulesOf(current.channel).panelStart) core.fail(error);
    },

    /** The open transfer, offered beside the channels: back to its account. */
    continueTransfer(): void {
      const open = transferStillOpen();
      if (step.peek().kind !== 'choosing' || !open || !liveTransfer) return;
      lastChannel = open.channel;
      showPayment(open, liveTransfer.token);
      // The money may have arrived while the customer looked elsewhere.
      void watch.check();
    },

    /**
     * Back to the list of payment methods: from a payment not yet made, from a transfer's
     * account (it stays open, offered to continue), and from every failure (issue 12).
     */
    changeMethod(): void {
      const current = step.peek();
      const channels = session.peek()?.channels ?? [];
      if (channels.length < 2) return;
      if (current.kind === 'failed' || current.kind === 'expired' || current.kind === 'error') {
        // A fresh session: what the companion knows of this order now decides the list.
        stopWatching();
        watch.renew();
        void start();
        return;
      }
      // Not while the bank's window is up or the bank is settling: that payment may go through.
      const leaving = current.kind === 'paying' ? rulesOf(current.channel).leaving(current) : null;
      if (leaving === null) return;
      stopWatching();
      watch.renew();
      go({
        kind: 'choosing',
        channels,
        ...(leaving === 'keep-open' ? { resume: transferStillOpen() } : {}),
      });
    },

    retry(): void {
      const current = step.peek();
      if (current.kind !== 'error') return;
      if (current.retry === 'initiate' && lastChannel && session.peek()) void initiate(lastChannel);
      else void start();
    },

    /** The tab came back from sleep, or the clock may have jumped: check again now. */
    resync(): void {
      countdown.refresh();
      void watch.check();
    },

    /** What closing now means for the merchant. */
    resultIfClosed(): CheckoutResult {
      const known = outcome.peek();
      if (known) return known;
      const current = step.peek();
      const under =
        current.kind === 'paying' || current.kind === 'processing' ? current.payment : null;
      if (under) return { status: 'pending', payment: summary(under) };
      if (current.kind === 'error') {
        return {
          status: 'failed',
          error: { code: current.code, message: current.message },
          payment: null,
        };
      }
      return { status: 'cancelled' };
    },

    /** Stops every timer and subscription; the model does nothing afterwards. */
    dispose(): void {
      stopWatching();
      disposed = true;
      watch.dispose();
    },
  };
}

export type CheckoutModel = ReturnType<typeof createCheckoutModel>;
