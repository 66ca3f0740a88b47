/**
 * `open()`: the small imperative shell around the Preact dialog. It creates the host element and
 * its shadow root, renders, and returns a handle; closing undoes everything opening did.
 */

import { effect, untracked } from '@preact/signals';
import { h, render } from 'preact';
import { loadReturnChunk } from '#chunks';
import { type CheckoutResult, createCheckoutModel } from '../flow/checkout-model';
import type { Clock } from '../flow/clock';
import type { PaymentView } from '../flow/companion';
import { RETURN_PARAM } from '../protocol/contract';
import { Checkout } from './Checkout';
import { SUPPORTED_CHANNELS } from './channels';
import { createBankWindow } from './channels/bank/bank-window';
import type { CheckoutHandle } from './checkout-handle';
import { createCompanionHttp } from './companion-http';
import { loadMessages } from './messages';
import { type OpenCheckout, openAgain } from './open-again';
import { checkOptions, type OpenOptions } from './options';
import type { SavedRedirect } from './return/saved-redirect';
import STYLES from './styles.css?inline';

export type { CheckoutHandle };

// One open checkout per document: opening again never stacks a second dialog (open-again.ts).
const openCheckouts = new WeakMap<Document, OpenCheckout>();

const browserClock: Clock = {
  monotonic: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/** The page's language when it is a valid tag ('en_US' is not), else the browser's. */
function pageLocale(): string {
  try {
    return Intl.getCanonicalLocales(document.documentElement.lang || navigator.language)[0] ?? 'en';
  } catch {
    return navigator.language;
  }
}

/**
 * Opens the checkout for one order (or payment link). While one is open, opening the same order
 * again returns it (and calls this call's `onClose` when it closes); another order fails at once
 * with `already_open`, the open checkout left as it was. Never two dialogs.
 * @example const { result } = open({ endpoint: '/api/checkout', order: 'order_1042' }); const outcome = await result;
 */
export function open(options: OpenOptions): CheckoutHandle {
  return openOnce(checkOptions(options));
}

/** Opens `checked`, or answers as the checkout already open would (open-again.ts). */
function openOnce(checked: OpenOptions, resumed?: SavedRedirect): CheckoutHandle {
  const existing = typeof document === 'undefined' ? undefined : openCheckouts.get(document);
  return existing ? openAgain(existing, checked) : openCheckout(checked, resumed);
}

/**
 * The script tag's open, called by its loader (src/widget/script-loader.ts): the loader has
 * checked the options, holds the checkout it opened (so it never calls this while one is open)
 * and already sent the session request in the customer's click, so the session is not asked for
 * twice nor after the code's download. The option checks and the second-open rules stay in the
 * loader, out of this module's bytes.
 */
export function openStarted(checked: OpenOptions, session: Promise<Response>): CheckoutHandle {
  return openCheckout(checked, undefined, session);
}

/** The payment a bank's full-page redirect left to resume, with the options to show it with. */
async function pickUpReturn(
  options: Omit<OpenOptions, 'endpoint' | 'order' | 'link'>,
): Promise<{ options: OpenOptions; saved: SavedRedirect } | null> {
  if (typeof location === 'undefined' || !location.search.includes(`${RETURN_PARAM}=`)) return null;
  const saved = (await loadReturnChunk()).pickUp();
  return saved && { options: { ...options, endpoint: saved.endpoint, ...saved.target }, saved };
}

/**
 * After a full-page redirect to the bank (where the browser blocked its window), the bank sends
 * the customer back to this page with `?paydrop_return=`: this opens the checkout again on that
 * payment, which ends as it would have in the window. Null when there is nothing to resume.
 * @example await Paydrop.resume({ onSuccess: (payment) => showReceipt(payment) });
 */
export async function resume(
  options: Omit<OpenOptions, 'endpoint' | 'order' | 'link'> = {},
): Promise<CheckoutHandle | null> {
  const found = await pickUpReturn(options);
  return found && openOnce(checkOptions(found.options), found.saved);
}

/** The script tag's resume: its loader's `check` checks the options (see openStarted). */
export async function resumeStarted(
  check: (options: OpenOptions) => OpenOptions,
  options: Omit<OpenOptions, 'endpoint' | 'order' | 'link'> = {},
): Promise<CheckoutHandle | null> {
  const found = await pickUpReturn(options);
  return found && openCheckout(check(found.options), found.saved);
}

function openCheckout(
  checked: OpenOptions,
  resumed?: SavedRedirect,
  startedSession?: Promise<Response>,
): CheckoutHandle {
  if (typeof document === 'undefined') {
    throw new Error(
      'Paydrop.open: call it in a browser, on the customer’s click (not in server rendering).',
    );
  }

  const locale = checked.locale ?? pageLocale();
  const previouslyFocused = document.activeElement as HTMLElement | null;
  const host = document.createElement('paydrop-checkout');
  const shadow = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES);
  shadow.adoptedStyleSheets = [sheet];

  const target =
    checked.order !== undefined ? { order: checked.order } : { link: checked.link as string };
  const companion = createCompanionHttp(checked.endpoint, fetch, startedSession);
  const model = createCheckoutModel({
    companion,
    clock: browserClock,
    target,
    customer: checked.customer,
    supportedChannels: SUPPORTED_CHANNELS,
    onStep: (step) =>
      checked.onEvent?.(
        step.kind === 'paying'
          ? { type: 'step', step: step.kind, channel: step.channel }
          : { type: 'step', step: step.kind },
      ),
    returnTo: location.href,
    resumed,
  });
  const bank = createBankWindow(model, (payment: PaymentView) => {
    const token = model.paymentToken();
    return token ? { endpoint: checked.endpoint, target, token, payment } : null;
  });

  let settle: (result: CheckoutResult) => void = () => {};
  const result = new Promise<CheckoutResult>((resolve) => {
    settle = resolve;
  });
  let reported: CheckoutResult | null = null;
  // The outcome reaches the page the moment it is known, not when the dialog closes.
  const stopReporting = effect(() => {
    const outcome = model.outcome.value;
    if (!outcome || outcome === reported) return;
    reported = outcome;
    untracked(() => report(outcome));
  });
  function report(outcome: CheckoutResult): void {
    if (outcome.status === 'succeeded') {
      checked.onSuccess?.(outcome.payment);
      settle(outcome);
    } else if (outcome.status === 'failed') {
      checked.onFailure?.(outcome.error);
    }
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') model.resync();
  };
  document.addEventListener('visibilitychange', onVisible);

  let closed = false;
  function finish(final: CheckoutResult): void {
    if (closed) return;
    closed = true;
    stopReporting();
    document.removeEventListener('visibilitychange', onVisible);
    model.dispose();
    bank.dispose();
    render(null, shadow);
    host.remove();
    openCheckouts.delete(document);
    if (final.status === 'pending') checked.onPending?.(final.payment);
    if (final.status === 'failed' && final !== reported) checked.onFailure?.(final.error);
    for (const onClose of closers) onClose(final);
    settle(final);
    returnFocus(previouslyFocused);
  }

  const handle: CheckoutHandle = {
    close: () => finish(model.resultIfClosed()),
    result,
  };
  const closers = checked.onClose ? [checked.onClose] : [];
  openCheckouts.set(document, { handle, options: checked, closers });
  document.body.append(host);
  // The session and (for French) the catalogue load side by side; the dialog opens with both.
  void model.start();
  void loadMessages(locale, checked.messages).then((messages) => {
    if (!closed)
      render(
        h(Checkout, {
          model,
          messages,
          locale,
          bank,
          companion,
          customer: checked.customer,
          onDone: finish,
        }),
        shadow,
      );
  });
  return handle;
}

/**
 * Focus goes back where it came from when the checkout closes (issue 12): to the control that
 * opened it, or, when a single-page app has replaced that control (on success, say), to the
 * page's main landmark rather than nowhere. Checked again a frame later, after the app's render.
 */
function returnFocus(opener: HTMLElement | null): void {
  const landmark = () => document.querySelector<HTMLElement>('main, [role="main"]');
  const focusTarget = (): void => {
    const target = opener?.isConnected ? opener : landmark();
    if (!target) return;
    if (!target.hasAttribute('tabindex') && target.tabIndex < 0) {
      // A landmark takes focus only for this moment; the page is left as it was.
      target.setAttribute('tabindex', '-1');
      target.addEventListener('blur', () => target.removeAttribute('tabindex'), { once: true });
    }
    target.focus();
  };
  focusTarget();
  const later = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : setTimeout;
  later(() => {
    const active = document.activeElement;
    if (!active || active === document.body) focusTarget();
  });
}
