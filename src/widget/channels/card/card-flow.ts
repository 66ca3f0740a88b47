/**
 * The card journey after the customer submits the card: the card frame sends it (the page never
 * holds it), the authentication check, the
 * issuer's challenge when there is one (given up after 10 minutes), then finalize. Pure logic over
 * injected ports, so it is tested without a DOM; it travels in the card chunk with the fields.
 * The checkout's model takes over once the card is finalized (or the challenge is given up).
 */
import { type ReadonlySignal, signal } from '@preact/signals';
import type { Clock } from '../../../flow/clock';
import type {
  BrowserFailureReason,
  CardCalls,
  CompanionFailure,
  PaymentStatus,
  PaymentView,
} from '../../../flow/companion';

/** A challenge nobody finishes is given up after this long. */
export const CHALLENGE_TIMEOUT_MS = 10 * 60_000;

/**
 * A finalize that got no answer (too slow, lost, a 5xx) is sent again after these pauses before
 * the checkout falls back to asking for the status. A request lost before it reached the
 * companion would otherwise leave a passed challenge unfinalized, and the status PENDING for
 * hours; sending it again is safe: the companion settles a repeated finalize (status first,
 * finalize again only while the provider still says PENDING), it never charges twice.
 */
export const FINALIZE_RETRY_MS: readonly number[] = [1_000, 3_000];

/** Finalize's failures after which nobody knows whether it reached the companion. */
const NO_ANSWER: ReadonlySet<string> = new Set(['timeout', 'network', 'unavailable']);

export type CardFlowState =
  /** The form; `refused` when the companion refused the card's details. */
  | { readonly kind: 'entry'; readonly refused: boolean }
  /** Initiating, checking, or finalizing: the form is locked. */
  | { readonly kind: 'busy' }
  | { readonly kind: 'challenge'; readonly url: string; readonly reference: string };

/** What the card flow needs from the checkout around it. */
export interface CardFlowHost {
  readonly companion: CardCalls;
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /**
   * Has the card frame check the card and send it to the companion: the payment it started, or
   * null when the frame's own checks stopped it (the frame shows why). Rejects with a
   * CompanionFailure as initiate would (refused details, an earlier payment, no answer).
   */
  readonly submitCard: () => Promise<{ token: string; payment: PaymentView } | null>;
  /** A payment now exists: closing the checkout must not forget it. */
  started(payment: PaymentView, token: string): void;
  /** The card was finalized (or settled early): the checkout follows it to its outcome. */
  finished(
    payment: PaymentView,
    token: string,
    status: PaymentStatus,
    reason?: BrowserFailureReason,
  ): void;
  /** The challenge was abandoned for CHALLENGE_TIMEOUT_MS. */
  timedOut(payment: PaymentView): void;
  /**
   * The card may have been charged and nobody told us (finalize's answer was lost, slow, an
   * error), or the companion gave back an earlier payment of the order instead of a new one:
   * the checkout follows that payment, and the form is not offered meanwhile (issue 9).
   */
  checking(payment: PaymentView, token: string): void;
  /** A call failed before anything could be charged, in a way the customer cannot fix here. */
  failed(error: unknown): void;
}

/**
 * The companion's refusal, told by name rather than `instanceof`: in the script tag's build the
 * card's part and the checkout may each hold their own copy of the class.
 */
function asCompanionFailure(error: unknown): CompanionFailure | null {
  return (error as Error | null)?.name === 'CompanionFailure' ? (error as CompanionFailure) : null;
}

export function createCardFlow(host: CardFlowHost) {
  const state = signal<CardFlowState>({ kind: 'entry', refused: false });
  let payment: { view: PaymentView; token: string } | null = null;
  let timer: unknown = null;
  let over = false;

  function set(next: CardFlowState): void {
    if (over) return;
    state.value = next;
  }

  function stopTimer(): void {
    if (timer !== null) host.clock.clearTimeout(timer);
    timer = null;
  }

  function end(): void {
    stopTimer();
    over = true;
  }

  async function finalize(view: PaymentView, token: string, attempt = 0): Promise<void> {
    set({ kind: 'busy' });
    try {
      const { status, reason } = await host.companion.finalize(token);
      if (over) return;
      end();
      host.finished(view, token, status, reason);
    } catch (error) {
      if (over) return;
      const pause = FINALIZE_RETRY_MS[attempt];
      const code = asCompanionFailure(error)?.code;
      if (pause !== undefined && code !== undefined && NO_ANSWER.has(code)) {
        timer = host.clock.setTimeout(() => {
          timer = null;
          if (!over) void finalize(view, token, attempt + 1);
        }, pause);
        return;
      }
      end();
      // Whether the card was charged is unknown: never back to the form, ask the companion.
      host.checking(view, token);
    }
  }

  return {
    /** Where the card journey is; the view reads it and redraws when it moves. */
    state: state as ReadonlySignal<CardFlowState>,

    /** The customer pressed Pay. Ignored while a payment is already under way. */
    async pay(): Promise<void> {
      if (over || state.peek().kind !== 'entry') return;
      const refused = (state.peek() as { refused: boolean }).refused;
      set({ kind: 'busy' });
      try {
        payment = null;
        const started = await host.submitCard();
        if (over) return;
        if (!started) {
          // The frame's checks stopped it: the form, as it was, with the errors the frame shows.
          set({ kind: 'entry', refused });
          return;
        }
        payment = { view: started.payment, token: started.token };
        host.started(started.payment, started.token);
        if (started.payment.status !== 'PENDING') {
          end();
          host.finished(started.payment, started.token, started.payment.status);
          return;
        }
        const { challengeUrl } = await host.companion.authenticate(started.token);
        if (over) return;
        if (!challengeUrl) {
          await finalize(started.payment, started.token);
          return;
        }
        set({ kind: 'challenge', url: challengeUrl, reference: started.payment.reference });
        timer = host.clock.setTimeout(() => {
          timer = null;
          if (over || state.peek().kind !== 'challenge') return;
          end();
          host.timedOut(started.payment);
        }, CHALLENGE_TIMEOUT_MS);
      } catch (error) {
        if (over) return;
        const failure = asCompanionFailure(error);
        if (failure?.earlier) {
          // An earlier payment of this order succeeded or may still: that one, not a new one.
          end();
          host.checking(failure.earlier.payment, failure.earlier.token);
          return;
        }
        if (!payment && failure?.code === 'invalid') {
          // The details were refused before any payment existed: the customer can correct them.
          set({ kind: 'entry', refused: true });
          return;
        }
        end();
        host.failed(error);
      }
    },

    /**
     * The challenge page reported its end. Passed or failed, the companion finalizes and the
     * provider's answer decides: a forged "passed" message cannot charge anything.
     */
    challengeCompleted(): void {
      if (over || state.peek().kind !== 'challenge' || !payment) return;
      stopTimer();
      void finalize(payment.view, payment.token);
    },

    /** The view is going away: nothing more happens. */
    dispose(): void {
      end();
    },
  };
}

export type CardFlow = ReturnType<typeof createCardFlow>;
