/**
 * The paydrop-return chunk: the full-page redirect to the bank and the way back. Only customers
 * whose browser refused the bank's window ever need it, so it is loaded then: when they continue
 * to their bank, and on the merchant's page the bank sends them back to.
 */
import type { SavedRedirect } from './saved-redirect';

export type { SavedRedirect };

/** Where the page keeps what it needs to pick the payment up on its return. */
const KEY = 'paydrop:redirect';

/** Marks the merchant page a full-page bank redirect came back to (the companion adds it). */
export { RETURN_PARAM } from '../../protocol/contract';

import { CARD_RETURN_PARAM, hostedPageReference, RETURN_PARAM } from '../../protocol/contract';

/** Keeps the payment for the way back, then goes to the bank. */
export function redirectToBank(saved: SavedRedirect, url: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // Without storage the page still comes back; opening the order again picks the payment up.
  }
  location.assign(url);
}

/**
 * The payment this page was sent back to, or null: it must be the one kept before leaving. The
 * mark leaves the address bar, so a reload is an ordinary visit again.
 */
export function pickUp(): SavedRedirect | null {
  const url = new URL(location.href);
  const reference = url.searchParams.get(RETURN_PARAM);
  // Back from the provider's hosted card page: the payment kept before leaving was that page's.
  const cardAlias = url.searchParams.get(CARD_RETURN_PARAM);
  let saved: SavedRedirect | null = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    sessionStorage.removeItem(KEY);
  } catch {
    // Unreadable: nothing to pick up.
  }
  url.searchParams.delete(RETURN_PARAM);
  url.searchParams.delete(CARD_RETURN_PARAM);
  history.replaceState(history.state, '', url.href);
  if (
    reference &&
    cardAlias &&
    saved?.payment?.reference === hostedPageReference(cardAlias) &&
    typeof saved.token === 'string'
  ) {
    // The page's own token follows the payment the page made (the companion knows it by now).
    saved = { ...saved, payment: { ...saved.payment, reference } };
  }
  const target = saved?.target as Record<string, unknown> | undefined;
  return reference &&
    typeof saved?.token === 'string' &&
    typeof saved.endpoint === 'string' &&
    saved.payment?.reference === reference &&
    (typeof target?.order === 'string' || typeof target?.link === 'string')
    ? saved
    : null;
}
