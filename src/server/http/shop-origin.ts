/**
 * The shop's own origin, as the request says production reached it (issue 21, item 1): behind a
 * TLS-terminating proxy (`Forwarded`, `X-Forwarded-Proto` / `X-Forwarded-Host`, or a kept `Host`),
 * on a TLS socket (the Node adapter makes the Request's URL https), or in a route handler whose
 * `request.url` is not the public URL (Next.js says localhost, the Host header says the shop).
 *
 * Believing these headers is safe for the checkout's one comparison, "is the calling page the
 * shop's own?", and for nothing more:
 *
 * - A page on another site cannot make a browser send them. `Forwarded` and `X-Forwarded-*` are
 *   not CORS-safelisted, so a cross-site fetch that sets one is preflighted first, and the
 *   preflight carries only the page's true Origin and the real Host: it is refused (403), or, for
 *   a page in `allowedOrigins`, answered without those headers in Access-Control-Allow-Headers.
 *   Either way the browser never sends the forged call. `Host` the page cannot set at all.
 * - Whoever can set them (curl, a server) can also leave out `Origin`, which the checkout accepts
 *   anyway: the origin check protects browsers, not the server. What protects the server is that
 *   the amount is the merchant's (resolveOrder), the token is signed, and the limits count.
 * - The checkout's calls carry no ambient authority. The one cookie (the payment keys,
 *   payment-key-cookie.ts, which only show a browser the payments it started itself) is
 *   HttpOnly, SameSite=Strict and the companion host's own: a cross-site request carries none; a
 *   same-site sibling (blog.shop.example) that posts a form does send it, but its Origin is its
 *   own, which no header it can set changes, so it is refused before the cookie is read; and a
 *   DNS-rebinding page (its own name pointed at the companion's address, so Host and Origin agree
 *   and the check passes) is sent the cookies of its own name, never the shop's. What that page
 *   gets is what a stranger with curl gets: the checkout's public calls, with amounts the
 *   merchant decides and money that only ever goes to the merchant.
 * - URLs built from these headers (the bank's return page, the challenge page, the card frame's
 *   files) are in answers marked `Cache-Control: no-store` and go to whoever asked, so a forged
 *   host cannot be cached for someone else; the pages' CSP (`script-src 'self'`) would not run a
 *   script of a forged host anyway.
 *
 * The back office is different: it moves money, and a DNS-rebinding page there would act with the
 * staff's network position and login. It never derives its origin from these headers
 * (payouts/served-hosts.ts).
 */

/** One element (hop) of a `Forwarded` header: its parameters, names lower-cased. */
export type ForwardedElement = Readonly<Record<string, string>>;

/** RFC 7230 token characters: a parameter's name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * An unquoted value: a token, or with `:` and brackets too. RFC 7239 wants `host=shop.example:8443`
 * and IPv6 addresses quoted, but proxies configured by hand (`host=$http_host`) send them bare.
 */
const BARE_VALUE = /^[!#$%&'*+.^_`|~0-9A-Za-z:[\]-]+$/;

/**
 * Parses a `Forwarded` header (RFC 7239 §4) into its elements, the client's hop first; undefined
 * when it is malformed (a pair without `=`, an unterminated or misplaced quote, a name that is not
 * a token, a parameter twice in one element, text between pairs), so that nothing is believed of
 * a broken header.
 * Quoted values may hold `,` `;` `=` and backslash escapes; empty list elements are skipped, as
 * RFC 7230 §7 asks.
 */
export function parseForwarded(value: string): ForwardedElement[] | undefined {
  const elements: ForwardedElement[] = [];
  let pairs: Record<string, string> = {};
  let index = 0;
  const length = value.length;
  const skipSpace = () => {
    while (index < length && (value[index] === ' ' || value[index] === '\t')) index++;
  };
  const endElement = () => {
    if (Object.keys(pairs).length > 0) elements.push(pairs);
    pairs = {};
  };
  while (index < length) {
    skipSpace();
    if (index >= length) break;
    const char = value[index];
    if (char === ',') {
      endElement();
      index++;
      continue;
    }
    if (char === ';') {
      index++;
      continue;
    }
    const equals = value.indexOf('=', index);
    if (equals < 0) return undefined;
    const name = value.slice(index, equals).toLowerCase();
    if (!TOKEN.test(name) || Object.hasOwn(pairs, name)) return undefined;
    index = equals + 1;
    let text = '';
    if (value[index] === '"') {
      index++;
      let closed = false;
      while (index < length) {
        const inner = value[index] as string;
        if (inner === '\\') {
          if (index + 1 >= length) return undefined;
          text += value[index + 1];
          index += 2;
        } else if (inner === '"') {
          closed = true;
          index++;
          break;
        } else {
          text += inner;
          index++;
        }
      }
      if (!closed) return undefined;
    } else {
      const start = index;
      while (index < length && !/[,;\s]/.test(value[index] as string)) index++;
      text = value.slice(start, index);
      if (!BARE_VALUE.test(text)) return undefined;
    }
    pairs[name] = text;
    skipSpace();
    // After a value: the element goes on (;), the next begins (,), or the header ends.
    if (index < length && value[index] !== ';' && value[index] !== ',') return undefined;
  }
  endElement();
  return elements;
}

/** `scheme://host` when `host` is a bare host[:port] and scheme http(s); else undefined. */
function originOf(scheme: string | undefined, host: string | undefined): string | undefined {
  if (!host || (scheme !== 'http' && scheme !== 'https')) return undefined;
  const trimmed = host.trim();
  // Nothing but a host and a port: no path, query, userinfo or second host to smuggle in.
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+=-]+)(:\d{1,5})?$/.test(trimmed))
    return undefined;
  try {
    return new URL(`${scheme}://${trimmed}`).origin;
  } catch {
    return undefined;
  }
}

/** The first value of a comma-separated proxy header: what the proxy nearest the client wrote. */
function firstOf(header: string | null): string | undefined {
  const first = header?.split(',')[0]?.trim();
  return first ? first : undefined;
}

export interface ShopOrigins {
  /**
   * The origin the shop's pages are most likely on: the forwarded host and scheme if a proxy
   * said, else the Host header with the request's scheme, else the request URL's origin. What
   * the companion hands out URLs on (when publicUrl is not set) and what a refusal's log expects.
   */
  readonly expected: string;
  /** Every origin the request names for this server; a page on any of them is the shop's own. */
  readonly accepted: ReadonlySet<string>;
}

/** The origins `request` says the shop's own pages are on (see the comment at the top). */
export function shopOriginsOf(request: Request): ShopOrigins {
  const url = new URL(request.url);
  const urlScheme = url.protocol.slice(0, -1);
  const forwardedHeader = request.headers.get('forwarded');
  const hop = forwardedHeader === null ? undefined : parseForwarded(forwardedHeader)?.[0];
  const proto = (hop?.proto ?? firstOf(request.headers.get('x-forwarded-proto')))?.toLowerCase();
  const scheme = proto === 'http' || proto === 'https' ? proto : urlScheme;
  const named = [
    originOf(scheme, hop?.host),
    originOf(scheme, firstOf(request.headers.get('x-forwarded-host'))),
    originOf(scheme, request.headers.get('host') ?? undefined),
  ];
  const accepted = new Set<string>([url.origin]);
  for (const origin of named) if (origin) accepted.add(origin);
  return { expected: named.find((origin) => origin !== undefined) ?? url.origin, accepted };
}
