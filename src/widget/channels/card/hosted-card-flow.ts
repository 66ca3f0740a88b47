/**
 * Card on the provider's hosted page, from the widget's side (issue 19): the companion makes the
 * order's page (`POST /card-page`), the window opened in the choosing click is sent there, and the
 * widget waits for what the page did: the companion's return page says so over BroadcastChannel,
 * a closed window is looked into, and the companion is asked now and then in case neither comes
 * (its webhook tells it even if the customer never returns). The card is typed on the provider's
 * origin only: nothing of it passes through this page or the merchant's server.
 *
 * Pure logic over injected ports (the companion, the clock, the window), tested without a DOM.
 */
import { type ReadonlySignal, signal } from '@preact/signals';
import {
  CompanionFailure,
  type HttpCompanion,
  isSafeUrl,
  type PaymentView,
} from '../../../flow/companion';
import { COMPANION_PATHS } from '../../../protocol/contract';

/** The little of a window the flow uses; a real `Window`, or a fake in tests. */
export interface CardWindow {
  readonly closed: boolean;
  opener: unknown;
  readonly location: { replace(url: string): void };
  close(): void;
  focus(): void;
}

export type HostedCardState =
  /** Asking the companion for the page. */
  | { readonly kind: 'opening' }
  /** The page is in its window; the customer pays there. */
  | { readonly kind: 'opened' }
  /** The browser refused a window: "Continue" opens the page in that click (or goes there). */
  | { readonly kind: 'blocked'; readonly url: string }
  /** The window closed, or the customer cancelled there, and no payment came of it. */
  | { readonly kind: 'closed'; readonly cancelled: boolean };

export interface HostedCardHost {
  readonly companion: Pick<HttpCompanion, 'post'>;
  readonly clock: {
    setTimeout(run: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
    now(): number;
  };
  readonly sessionToken: string;
  /** The page made a payment, or an earlier one of the order must be shown: follow it. */
  found(payment: PaymentView, token: string): void;
  /** The page could not be opened, in a way the customer cannot fix here. */
  failed(error: unknown): void;
}

/** How often the window is looked at (a local check, no network). */
const WINDOW_CHECK_MS = 500;

/** The companion is asked every 2 s for the first minute, then every 10 s (DESIGN.md, polling). */
function askEveryMs(sinceOpenedMs: number): number {
  return sinceOpenedMs < 60_000 ? 2_000 : 10_000;
}

/** The companion's `/card-page` answer, checked: a page URL that is safe to open, its token and alias. */
export interface CardPage {
  readonly url: string;
  readonly token: string;
  readonly alias: string;
}

function cardPageAnswer(body: unknown): CardPage {
  const given = (body ?? {}) as { url?: unknown; token?: unknown; alias?: unknown };
  if (
    typeof given.url !== 'string' ||
    !isSafeUrl(given.url) ||
    typeof given.token !== 'string' ||
    typeof given.alias !== 'string' ||
    !/^[\w.:-]{1,128}$/.test(given.alias)
  ) {
    throw new CompanionFailure('bad_response', 'The checkout server sent an unusable card page.');
  }
  return { url: given.url, token: given.token, alias: given.alias };
}

export function createHostedCardFlow(host: HostedCardHost) {
  const state = signal<HostedCardState>({ kind: 'opening' });
  let win: CardWindow | null = null;
  let page: CardPage | null = null;
  let timer: unknown = null;
  let openedAt = 0;
  let lastAsked = 0;
  let asking = false;
  let over = false;

  function stop(): void {
    if (timer !== null) host.clock.clearTimeout(timer);
    timer = null;
  }

  function end(): void {
    stop();
    over = true;
  }

  /** What the page did: a payment is followed; a cancel or a closed window ends the wait. */
  async function check(): Promise<void> {
    if (over || !page || asking) return;
    asking = true;
    lastAsked = host.clock.now();
    try {
      const answer = (await host.companion.post(COMPANION_PATHS.cardPagePayment, page.token)) as {
        payment?: PaymentView | null;
        token?: string | null;
        cancelled?: boolean;
      } | null;
      if (over) return;
      if (answer?.payment && typeof answer.token === 'string') {
        end();
        host.found(answer.payment, answer.token);
        return;
      }
      if (answer?.cancelled === true) {
        win?.close();
        win = null;
        stop();
        state.value = { kind: 'closed', cancelled: true };
      } else if (!win || win.closed) {
        win = null;
        stop();
        state.value = { kind: 'closed', cancelled: false };
      }
    } catch {
      // Not reachable now: the next look asks again; the companion keeps what the page did.
    } finally {
      asking = false;
    }
  }

  function watch(): void {
    stop();
    timer = host.clock.setTimeout(() => {
      timer = null;
      if (over || state.peek().kind !== 'opened') return;
      const due = host.clock.now() - lastAsked >= askEveryMs(host.clock.now() - openedAt);
      if (!win || win.closed || due) void check();
      if (!over && state.peek().kind === 'opened') watch();
    }, WINDOW_CHECK_MS);
  }

  function show(opened: CardWindow): void {
    if (!page) return;
    win = opened;
    // The provider's page gets no handle back to this one.
    win.opener = null;
    win.location.replace(page.url);
    openedAt = lastAsked = host.clock.now();
    state.value = { kind: 'opened' };
    watch();
  }

  return {
    state: state as ReadonlySignal<HostedCardState>,

    /**
     * Opens the order's page in `opened`, the window opened in the customer's click (null when
     * the browser refused one: the customer is offered to continue).
     */
    async start(opened: CardWindow | null, returnTo?: string): Promise<void> {
      if (over) return;
      state.value = { kind: 'opening' };
      try {
        page = cardPageAnswer(
          await host.companion.post(
            COMPANION_PATHS.cardPage,
            host.sessionToken,
            returnTo ? { returnTo } : {},
          ),
        );
      } catch (error) {
        opened?.close();
        if (over) return;
        if (error instanceof CompanionFailure && error.earlier) {
          // Paid already, or an earlier payment may still succeed: that one, never a new one.
          end();
          host.found(error.earlier.payment, error.earlier.token);
          return;
        }
        end();
        host.failed(error);
        return;
      }
      if (over) {
        opened?.close();
        return;
      }
      if (opened && !opened.closed) show(opened);
      else state.value = { kind: 'blocked', url: page.url };
    },

    /** "Continue to the card page" or "Pay by card" again, with the window of that click. */
    reopen(opened: CardWindow | null): boolean {
      if (over || !page || !opened) return false;
      show(opened);
      return true;
    },

    /** The companion's return page said the customer came back from the provider's page. */
    returned(): void {
      void check();
    },

    /** The page, once the companion has made it. */
    page: (): CardPage | null => page,

    /** Brings the page's window to the front. */
    focus(): void {
      win?.focus();
    },

    /** The view is going away: nothing more happens (the provider's page itself stays open). */
    dispose(): void {
      end();
    },
  };
}

export type HostedCardFlow = ReturnType<typeof createHostedCardFlow>;
