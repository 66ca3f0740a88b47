/**
 * How the widget asks the companion: the URL base and the request's shape, written once for the
 * checkout's calls (companion-http.ts) and the session request the script tag's loader sends in
 * the click (script-loader.ts), which the checkout then reads as its own. No parsing here: the
 * loader carries this file and must stay small.
 */

/** How long a call may take before the customer is told the companion could not be reached. */
export const COMPANION_TIMEOUT_MS = 20_000;

/** The companion's URL, absolute (the card frame, a page of the companion's, is framed from it). */
export function companionBase(endpoint: string): string {
  return new URL(endpoint, document.baseURI).href.replace(/\/+$/, '');
}

/** A call to the companion: JSON both ways, the payment's token when there is one. */
export function companionRequest(
  method: 'GET' | 'POST',
  signal: AbortSignal,
  token?: string,
  body?: unknown,
): RequestInit {
  return {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal,
  };
}
