import type { PaymentView } from '../../flow/companion';

/**
 * What a page keeps in sessionStorage before a full-page redirect to the bank, to pick the
 * payment up when the bank sends the customer back (`?paydrop_return=`). Its format belongs to
 * the return chunk, which writes and reads it; the bank's window only builds one.
 */
export interface SavedRedirect {
  readonly endpoint: string;
  readonly target: { readonly order: string } | { readonly link: string };
  readonly token: string;
  readonly payment: PaymentView;
}
