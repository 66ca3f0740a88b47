/**
 * The script tag's loader (issue 25): `window.Paydrop` as the page sees it before the checkout's
 * code is here. The checkout (Preact, signals, the dialog: src/script-checkout.ts) is a module of
 * its own, fetched when it is likely to be needed (src/embed.ts says when) or, at the latest, in
 * the click; a page that loads the script tag pays for this file only.
 *
 * `open` checks the options (a bad one throws the same TypeError, and nothing is fetched), answers
 * a second call while a checkout is open as the npm entry's `open` does (open-again.ts), sends the
 * session request at once, beside the checkout's download rather than after it, and returns a
 * handle whose `result` and callbacks are the checkout's when it opens. The checks and the
 * second-open rules live here only, so the checkout's module does not carry them twice. Nothing
 * here imports Preact or the checkout's code: only their types.
 */
import type { CheckoutFailure, CheckoutResult } from '../flow/checkout-step';
import { COMPANION_PATHS, RETURN_PARAM } from '../protocol/contract';
import { COMPANION_TIMEOUT_MS, companionBase, companionRequest } from './companion-request';
import type { CheckoutHandle } from './open';
import { type OpenCheckout, openAgain } from './open-again';
import { checkOptions, type OpenOptions } from './options';

/** What the checkout module gives the loader. */
type CheckoutModule = typeof import('../script-checkout');
type ResumeOptions = Omit<OpenOptions, 'endpoint' | 'order' | 'link'>;

/** `window.Paydrop`: the same for a page whether or not the checkout's code has arrived. */
export interface ScriptPaydrop {
  readonly open: (options: OpenOptions) => CheckoutHandle;
  readonly resume: (options?: ResumeOptions) => Promise<CheckoutHandle | null>;
  readonly version: string;
}

export interface Loader {
  readonly paydrop: ScriptPaydrop;
  /** Fetches the checkout (once; a failed fetch may be tried again). */
  readonly load: () => Promise<CheckoutModule>;
}

/** `checkoutUrl`: the checkout module's absolute URL (paydrop-<hash>/checkout.js). */
export function createLoader(checkoutUrl: string, version: string): Loader {
  let loading: Promise<CheckoutModule> | undefined;
  // The checkout this page has open, from the click until its dialog closes: opening again is
  // answered from it (open-again.ts), before and after the checkout's code has arrived.
  let current: OpenCheckout | undefined;

  function load(): Promise<CheckoutModule> {
    if (!loading) {
      loading = import(/* @vite-ignore */ checkoutUrl) as Promise<CheckoutModule>;
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  }

  function open(options: OpenOptions): CheckoutHandle {
    const checked = checkOptions(options);
    if (current) return openAgain(current, checked);
    const target =
      checked.order !== undefined ? { order: checked.order } : { link: checked.link as string };
    // The request the checkout's first startSession would send (companion-http.ts reads it).
    const session = fetch(
      companionBase(checked.endpoint) + COMPANION_PATHS.session,
      companionRequest('POST', AbortSignal.timeout(COMPANION_TIMEOUT_MS), undefined, target),
    );
    // Its failure is the checkout's to report, once it reads it.
    session.catch(() => {});

    let settle: (result: CheckoutResult) => void = () => {};
    const result = new Promise<CheckoutResult>((resolve) => {
      settle = resolve;
    });
    let opened: CheckoutHandle | undefined;
    let ended = false;
    const closers = checked.onClose ? [checked.onClose] : [];
    const onClose = (final: CheckoutResult) => {
      current = undefined;
      for (const closer of closers) closer(final);
    };
    function end(final: CheckoutResult): void {
      ended = true;
      onClose(final);
      settle(final);
    }
    const handle: CheckoutHandle = {
      close: () => {
        if (opened) opened.close();
        else if (!ended) end({ status: 'cancelled' });
      },
      result,
    };
    current = { handle, options: checked, closers };
    load().then(
      (module) => {
        if (ended) return;
        // Every caller's onClose, those who asked before or after it arrived among them.
        opened = module.openStarted({ ...checked, onClose }, session);
        opened.result.then(settle);
      },
      (error: unknown) => {
        if (ended) return;
        console.error(error);
        const failure: CheckoutFailure = {
          code: 'network',
          message: 'The checkout could not be loaded.',
        };
        checked.onFailure?.(failure);
        end({ status: 'failed', error: failure, payment: null });
      },
    );
    return handle;
  }

  async function resume(options?: ResumeOptions): Promise<CheckoutHandle | null> {
    // Nothing to resume (or a checkout open already): no need for the checkout's code, and the
    // bank's return is left for later.
    if (current || !location.search.includes(`${RETURN_PARAM}=`)) return null;
    let checked: OpenOptions | undefined;
    const closers: ((result: CheckoutResult) => void)[] = [];
    const handle = await (await load()).resumeStarted((options) => {
      checked = checkOptions(options);
      if (checked.onClose) closers.push(checked.onClose);
      return {
        ...checked,
        onClose: (final) => {
          current = undefined;
          for (const closer of closers) closer(final);
        },
      };
    }, options);
    if (handle && checked) current = { handle, options: checked, closers };
    return handle;
  }

  return { paydrop: { open, resume, version }, load };
}
