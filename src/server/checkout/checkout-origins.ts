/**
 * Whose pages may call the checkout, and what is said when one may not: the shop's own pages
 * (publicUrl's origin, or any the request names for this server: see http/shop-origin.ts for why
 * the proxy headers may be believed here), and the other sites the merchant allowed. Every
 * refusal is logged with the origin refused, the one expected and the option that would let it in.
 */
import {
  allowOrigin,
  answerHeaders,
  type CheckoutError,
  type CheckoutLogger,
  type ShopOrigins,
  shopOriginsOf,
} from '../http';
import { CARD_PATH } from './card-frame';

export function createCheckoutOrigins(options: {
  readonly publicUrl: string | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly basePath: string;
  readonly logger: CheckoutLogger;
}) {
  const { allowedOrigins, basePath, logger } = options;
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;

  /** The shop's origins as each request names them, worked out once a request (~10 µs). */
  const shopOrigins = new WeakMap<Request, ShopOrigins>();
  function shopOriginsFor(request: Request): ShopOrigins {
    let origins = shopOrigins.get(request);
    if (!origins) {
      origins = shopOriginsOf(request);
      shopOrigins.set(request, origins);
    }
    return origins;
  }

  /** Where the companion's URLs point: publicUrl, or the shop's origin as the request names it. */
  function publicUrlOf(request: Request): string {
    return options.publicUrl?.replace(/\/+$/, '') ?? shopOriginsFor(request).expected + basePath;
  }

  /**
   * The shop's own pages (publicUrl's origin, or any the request names for this server: see
   * shop-origin.ts for why the proxy headers may be believed here), or one the merchant allowed.
   */
  function originAllowed(origin: string, request: Request): boolean {
    return (
      origin === publicOrigin ||
      allowedOrigins.has(origin) ||
      shopOriginsFor(request).accepted.has(origin)
    );
  }

  /**
   * Every refusal of a page's call, in the log (issue 21: a proxy set-up refused every call and
   * said nothing): the origin refused, the one expected, and what would let it in.
   */
  function logRefusal(request: Request, path: string, failure: CheckoutError): void {
    const origin = request.headers.get('origin');
    const shown = origin === null ? null : origin.slice(0, 200);
    const card = path === CARD_PATH;
    const expected = card
      ? 'null (the card frame)'
      : (publicOrigin ?? shopOriginsFor(request).expected);
    const allow = card
      ? 'none: card details are taken from the card frame alone'
      : shown === null || shown === 'null'
        ? 'none: a cross-site call without an origin (a sandboxed frame, a file) is never taken'
        : `publicUrl: '${shown}${basePath}' if ${shown} is this shop's own address (or let the proxy in front send X-Forwarded-Proto and X-Forwarded-Host), or allowedOrigins: ['${shown}'] if it is another site of yours`;
    logger.warn(`paydrop: ${failure.code}: refused ${request.method} ${path} from ${shown}`, {
      origin: shown,
      expected,
      allow,
    });
  }

  function corsHeaders(request: Request): Headers {
    // Marked for a request of this package's Node adapter: its JSON answers skip a body stream.
    const headers = answerHeaders(request);
    allowOrigin(headers, request.headers.get('origin'), allowedOrigins, {
      expose: 'x-request-id, retry-after',
    });
    return headers;
  }

  return { publicOrigin, shopOriginsFor, publicUrlOf, originAllowed, logRefusal, corsHeaders };
}
