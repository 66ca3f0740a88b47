/**
 * The origin rules both handlers share: which calls without an Origin are refused, how an origin
 * the merchant allowed is answered (CORS), and its preflight. Which origins are a handler's own
 * differs (the checkout follows the shop's pages, shop-origin.ts; the back office its served
 * hosts), so each handler decides that and comes here for the rest.
 */

/**
 * A browser that says the call is cross-site but sends no Origin (a sandboxed frame, a file):
 * not to be trusted, since no origin can be checked.
 */
export function isCrossSiteWithoutOrigin(request: Request): boolean {
  return (
    request.headers.get('origin') === null && request.headers.get('sec-fetch-site') === 'cross-site'
  );
}

/**
 * Lets `origin` read the answer when the merchant allowed it (`allowedOrigins`): sets the CORS
 * headers on `headers` and says whether it did. `Vary: Origin` either way, so no cache hands one
 * origin's answer to another.
 */
export function allowOrigin(
  headers: Headers,
  origin: string | null,
  allowedOrigins: ReadonlySet<string>,
  cors: { readonly credentials?: boolean; readonly expose?: string } = {},
): boolean {
  headers.append('vary', 'Origin');
  if (!origin || !allowedOrigins.has(origin)) return false;
  headers.set('access-control-allow-origin', origin);
  if (cors.credentials) headers.set('access-control-allow-credentials', 'true');
  if (cors.expose) headers.set('access-control-expose-headers', cors.expose);
  return true;
}

/** The answer to an allowed origin's preflight: GET and POST, with `allowHeaders`, for 10 minutes. */
export function preflightAnswer(allowHeaders: string, headers: Headers = new Headers()): Response {
  headers.set('access-control-allow-methods', 'GET, POST');
  headers.set('access-control-allow-headers', allowHeaders);
  headers.set('access-control-max-age', '600');
  return new Response(null, { status: 204, headers });
}
