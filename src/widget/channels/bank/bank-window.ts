/**
 * The bank's window for PayByAccount, kept outside Preact because its life is not the dialog's:
 * it is opened in the very click that chose the channel (a popup opened after an `await` is
 * blocked), sent to the bank once the link arrives, watched until it closes, and the bank's
 * return is heard from the companion's return page through a same-origin BroadcastChannel (in
 * every browser since 2022; never `window.opener`, which the bank's page is cut off from).
 */

import { effect, untracked } from '@preact/signals';
import { loadReturnChunk } from '#chunks';
import type { CheckoutModel } from '../../../flow/checkout-model';
import { isPaying } from '../../../flow/checkout-step';
import { isSafeUrl, type PaymentView } from '../../../flow/companion';
import type { SavedRedirect } from '../../return/saved-redirect';
import { PAYMENT_WINDOW_FEATURES, PAYMENT_WINDOW_NAME } from '../payment-window';

const RETURN = 'paydrop:bank-return';

export type BankWindow = ReturnType<typeof createBankWindow>;

export function createBankWindow(
  model: CheckoutModel,
  redirect: (payment: PaymentView) => SavedRedirect | null,
) {
  let popup: Window | null = null;
  let navigated = false;
  /** The browser refused a window: the next "Continue" goes by full-page redirect. */
  let blocked = false;
  let closedTimer: ReturnType<typeof setInterval> | undefined;
  let channel: BroadcastChannel | undefined;

  const heard = (data: unknown) => {
    const message = data as { type?: unknown; reference?: unknown } | null;
    if (message?.type === RETURN && typeof message.reference === 'string') {
      model.bankReturned(message.reference);
    }
  };

  function listen(): void {
    if (channel) return;
    channel = new BroadcastChannel('paydrop');
    channel.onmessage = (event) => heard(event.data);
  }

  function send(url: string): void {
    if (!popup || popup.closed || !isSafeUrl(url)) return;
    // The bank's page gets no handle back to this one.
    popup.opener = null;
    popup.location.replace(url);
    navigated = true;
    model.bankOpened();
    clearInterval(closedTimer);
    closedTimer = setInterval(() => {
      if (!popup?.closed) return;
      clearInterval(closedTimer);
      popup = null;
      void model.bankWindowClosed();
    }, 500);
  }

  // The window follows the step: it is filled when the bank's link arrives, closed when the
  // payment never started.
  const stopFollowing = effect(() => {
    const step = model.step.value;
    untracked(() => follow(step));
  });

  function follow(step: typeof model.step.value): void {
    if (isPaying(step, 'PayByAccount')) {
      listen();
      if (step.phase === 'ready' && popup && !navigated && step.payment.bankAuthUrl) {
        send(step.payment.bankAuthUrl);
      }
    } else if (step.kind !== 'starting' && !isPaying(step, 'Card') && popup && !navigated) {
      // The payment did not start: the blank window goes. (Card's hosted page takes it.)
      popup.close();
      popup = null;
    }
  }

  function openBlank(): boolean {
    popup = window.open('about:blank', PAYMENT_WINDOW_NAME, PAYMENT_WINDOW_FEATURES);
    navigated = false;
    if (!popup) blocked = true;
    return !!popup;
  }

  return {
    /** In the click that chose PayByAccount, before any await: the window the bank will fill. */
    prepare(): void {
      openBlank();
    },

    /** "Continue to your bank": a window if the browser allows one, else a full-page redirect. */
    continueToBank(payment: PaymentView): void {
      const url = payment.bankAuthUrl;
      if (!url || !isSafeUrl(url)) return;
      if (!blocked && openBlank()) {
        send(url);
        return;
      }
      const saved = redirect(payment);
      // The way there and back is a chunk of its own: most customers never need it.
      // Without it, the customer still goes: opening the order again picks the payment up.
      if (saved) {
        loadReturnChunk().then(
          (chunk) => chunk.redirectToBank(saved, url),
          () => location.assign(url),
        );
      }
    },

    focus(): void {
      popup?.focus();
    },

    /** The blank window opened in the click, handed over (the card's hosted page fills it). */
    take(): Window | null {
      const taken = popup;
      popup = null;
      return taken;
    },

    dispose(): void {
      stopFollowing();
      clearInterval(closedTimer);
      channel?.close();
      if (popup && !navigated) popup.close();
    },
  };
}
