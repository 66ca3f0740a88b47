/**
 * The declarative form: any element with `data-paydrop-order` (or `data-paydrop-link`) opens the
 * checkout when clicked, with `data-paydrop-endpoint` (default '/api/checkout') and
 * `data-paydrop-locale`. Outcomes are dispatched on the element as `paydrop:success`,
 * `paydrop:failure`, `paydrop:pending` and `paydrop:close` events.
 */

import { open, resume } from './open';
import type { OpenOptions } from './options';

const SELECTOR = '[data-paydrop-order],[data-paydrop-link]';

function reportingTo(element: HTMLElement) {
  const emit = (name: string, detail: unknown) =>
    element.dispatchEvent(new CustomEvent(`paydrop:${name}`, { detail, bubbles: true }));
  return {
    onSuccess: (payment) => emit('success', payment),
    onFailure: (error) => emit('failure', error),
    onPending: (payment) => emit('pending', payment),
    onClose: (result) => emit('close', result),
  } satisfies Partial<OpenOptions>;
}

/** Listens for clicks on the document; returns the function that stops listening. */
export function bindDeclarative(root: Document): () => void {
  const onClick = (event: Event) => {
    const target =
      event.target instanceof Element ? event.target.closest<HTMLElement>(SELECTOR) : null;
    if (!target) return;
    event.preventDefault();
    const data = target.dataset;
    try {
      open({
        endpoint: data.paydropEndpoint ?? '/api/checkout',
        ...(data.paydropOrder !== undefined
          ? { order: data.paydropOrder }
          : { link: data.paydropLink ?? '' }),
        ...(data.paydropLocale ? { locale: data.paydropLocale } : {}),
        ...reportingTo(target),
      });
    } catch (error) {
      // A misconfigured button says why in the console instead of doing nothing silently.
      console.error(error);
    }
  };
  root.addEventListener('click', onClick);
  // Back from the bank after a full-page redirect: the payment is picked up again, and its
  // events are dispatched on the document element.
  void resume(reportingTo(root.documentElement));
  return () => root.removeEventListener('click', onClick);
}
