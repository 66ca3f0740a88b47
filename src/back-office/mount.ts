/**
 * Puts the payout form into an element and gives back a handle whose `unmount()` removes it
 * (CONVENTIONS 5). Sent payouts are also dispatched on the element as `paydrop:payout-sent`, for
 * pages that use the script tag and no framework; a 401 from the handler (no staff session, or
 * one that ended) as `paydrop:unauthorized`, so the page can show its login.
 */
import { h, render } from 'preact';
import type { PayoutView } from '../protocol/back-office';
import { createBackOfficeApi } from './back-office-api';
import { PayoutForm } from './PayoutForm';

export interface MountPayoutFormOptions {
  /** Where createPayoutsHandler is mounted, e.g. `/api/back-office`. */
  readonly endpoint: string;
  readonly currencies?: readonly string[];
  readonly onSent?: (payout: PayoutView) => void;
  /** The handler answered 401: the staff session is missing or over. Show your login. */
  readonly onUnauthorized?: () => void;
  readonly idPrefix?: string;
}

export interface MountedPayoutForm {
  unmount(): void;
}

/**
 * @example mountPayoutForm(document.querySelector('#payouts'), { endpoint: '/api/back-office' });
 */
export function mountPayoutForm(
  element: Element,
  options: MountPayoutFormOptions,
): MountedPayoutForm {
  if (!(element instanceof Element))
    throw new TypeError('mountPayoutForm needs an element to render into.');
  if (typeof options?.endpoint !== 'string' || options.endpoint === '')
    throw new TypeError(
      'endpoint is required: where createPayoutsHandler is mounted, e.g. /api/back-office.',
    );
  const api = createBackOfficeApi(options.endpoint, async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401) {
      options.onUnauthorized?.();
      element.dispatchEvent(new CustomEvent('paydrop:unauthorized', { bubbles: true }));
    }
    return response;
  });
  const onSent = (payout: PayoutView) => {
    options.onSent?.(payout);
    element.dispatchEvent(
      new CustomEvent('paydrop:payout-sent', { detail: payout, bubbles: true }),
    );
  };
  render(
    h(PayoutForm, {
      api,
      onSent,
      ...(options.currencies ? { currencies: options.currencies } : {}),
      ...(options.idPrefix ? { idPrefix: options.idPrefix } : {}),
    }),
    element,
  );
  return { unmount: () => render(null, element) };
}
