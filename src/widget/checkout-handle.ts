/**
 * What `open()` returns, in a module of its own so that open.ts and what it uses (open-again.ts,
 * the script tag's loader) name it without importing one another.
 */
import type { CheckoutResult } from '../flow/checkout-step';

/** A checkout that is open: close it, or wait for its result. */
export interface CheckoutHandle {
  /** Closes the dialog; the result becomes `pending` or `cancelled` unless already known. */
  close(): void;
  /** Settles when the payment succeeds or the dialog closes. */
  readonly result: Promise<CheckoutResult>;
}
