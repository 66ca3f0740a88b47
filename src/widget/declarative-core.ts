/**
 * The declarative form's work, apart from its click listener: opening the checkout for a
 * `data-paydrop-order` (or `data-paydrop-link`) element, with `data-paydrop-endpoint` (default
 * '/api/checkout') and `data-paydrop-locale`, and resuming after a bank redirect. Outcomes are
 * dispatched on the element as `paydrop:success`, `paydrop:failure`, `paydrop:pending` and
 * `paydrop:close` events. The script tag loads this as paydrop-declarative.js on the first such
 * click and hands it its own `open` and `resume`, so the chunk carries no second copy of them.
 */
// The bundle's open and resume are handed in, never imported: the chunk must not carry a copy,
// and importing open.ts or options.ts here would close a cycle through the chunk loader. These
// are the parts of their options this module passes; `open` and `resume` accept them.
interface Reporting {
  readonly onSuccess: (payment: unknown) => void;
  readonly onFailure: (error: unknown) => void;
  readonly onPending: (payment: unknown) => void;
  readonly onClose: (result: unknown) => void;
}
interface DeclaredOptions extends Reporting {
  readonly endpoint: string;
  readonly order?: string;
  readonly link?: string;
  readonly locale?: string;
}
type OpenCheckout = (options: DeclaredOptions) => unknown;
type ResumeCheckout = (options: Reporting) => unknown;

/** The elements that open the checkout when clicked. */
export const SELECTOR = '[data-paydrop-order],[data-paydrop-link]';

/** The declarative element a click landed in, if any. */
export function declared(event: Event): HTMLElement | null {
  return event.target instanceof Element ? event.target.closest<HTMLElement>(SELECTOR) : null;
}

function reportingTo(element: HTMLElement) {
  const emit = (name: string, detail: unknown) =>
    element.dispatchEvent(new CustomEvent(`paydrop:${name}`, { detail, bubbles: true }));
  const reporting: Reporting = {
    onSuccess: (payment) => emit('success', payment),
    onFailure: (error) => emit('failure', error),
    onPending: (payment) => emit('pending', payment),
    onClose: (result) => emit('close', result),
  };
  return reporting;
}

/** Opens the checkout `target` describes. */
export function openFrom(target: HTMLElement, openCheckout: OpenCheckout): void {
  const data = target.dataset;
  try {
    openCheckout({
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
}

/**
 * Back from the bank after a full-page redirect: the payment is picked up again, and its events
 * are dispatched on the document element.
 */
export function resumeOn(root: Document, resumeCheckout: ResumeCheckout): void {
  void resumeCheckout(reportingTo(root.documentElement));
}
