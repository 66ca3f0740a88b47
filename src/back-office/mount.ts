/**
 * Puts the payout form into an element and gives back a handle whose `unmount()` removes it
 * (CONVENTIONS 5). Sent payouts are also dispatched on the element as `paydrop:payout-sent`, for
 * pages that use the script tag and no framework.
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
  const api = createBackOfficeApi(options.endpoint);
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
