/**
 * Where the browser keeps its payment keys (issue 20, item 3; see payment-owner.ts): a cookie of
 * the companion's own path, set with `/initiate`'s answer and read by `/session`, so a reload or
 * another tab of the same browser sees its payment's account or bank link again, and the widget
 * itself carries no code for it (every byte of paydrop.js is paid by every customer).
 *
 * It is no ambient authority worth taking: HttpOnly (no page script reads it), SameSite=Strict (no
 * other site's request carries it), scoped to the companion's path, and all it unlocks is the
 * details of payments this browser itself started. That is why the checkout may believe a proxy's
 * headers when it decides which pages are the shop's own (shop-origin.ts). A page on another origin that calls the
 * companion (allowedOrigins) sends no cookie: its customers see a payment's details in the tab
 * that started it, as before. API clients may still send `paymentKeys` in the body.
 */
const NAME = 'paydrop_payment_keys';
/** Keys kept per browser: the newest payments are the ones whose details matter. */
const MAX_KEYS = 10;
const KEY = /^[0-9a-f]{64}$/;

/** The payment keys the browser's cookie holds (none when absent or malformed). */
export function paymentKeysOf(request: Request): string[] {
  const cookies = request.headers.get('cookie') ?? '';
  const value = new RegExp(`(?:^|;\\s*)${NAME}=([0-9a-f.]{1,${MAX_KEYS * 65}})(?:;|$)`).exec(
    cookies,
  )?.[1];
  return value ? value.split('.').filter((key) => KEY.test(key)) : [];
}

/** Adds `key` to the browser's cookie, newest first, on the answer's headers. */
export function rememberPaymentKey(
  headers: Headers,
  request: Request,
  key: string,
  publicUrl: string,
): void {
  if (!KEY.test(key)) return;
  const keys = [key, ...paymentKeysOf(request).filter((known) => known !== key)].slice(0, MAX_KEYS);
  const { pathname, protocol } = new URL(publicUrl);
  headers.append(
    'set-cookie',
    `${NAME}=${keys.join('.')}; Path=${pathname || '/'}; Max-Age=${30 * 24 * 3600}; HttpOnly; SameSite=Strict${protocol === 'https:' ? '; Secure' : ''}`,
  );
}
