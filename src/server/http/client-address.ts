/**
 * Which client a request comes from, for the per-address limits (issue 20, items 1 and 2). The
 * handler is web-standard and a `Request` carries no socket, so the package's own Node adapter
 * marks each Request it builds with its socket's address (src/node/hand-off.ts); other runtimes pass
 * `clientAddress`. Proxy headers are read only when the merchant says a proxy is in front
 * (`trustProxy`): from anyone else they are a forgery that would let an attacker spread over
 * addresses, or spend another customer's budget.
 */

import { socketAddressOf } from '../../node/hand-off';

// The Node adapter's side of it (also for tests that build a Request as the adapter does).
export { rememberClientAddress } from '../../node/hand-off';

/**
 * Which proxy header to believe, and how many proxies of the merchant's stand in front: the
 * client is the address the outermost of them saw, counted from the right of the header (each
 * proxy appends, so what lies further left is whatever the client sent).
 */
export interface TrustProxy {
  /** Proxies of the merchant's in front of the server. Default 1. */
  readonly hops?: number | undefined;
  /** Default `x-forwarded-for` (nginx, load balancers, Cloudflare); `forwarded` for RFC 7239. */
  readonly header?: 'x-forwarded-for' | 'forwarded' | undefined;
}

export interface ClientAddressOptions {
  readonly clientAddress?: ((request: Request) => string | null | undefined) | undefined;
  readonly trustProxy?: boolean | number | TrustProxy | undefined;
}

/** An IPv4 address, or an IPv6 one cut to its /64 (one customer's line holds a whole /64). */
export function addressKey(address: string): string {
  let text = address.trim().toLowerCase();
  if (text.startsWith('['))
    text = text.slice(1, text.indexOf(']') > 0 ? text.indexOf(']') : undefined);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) return mapped[1] as string;
  if (/^\d+\.\d+\.\d+\.\d+(:\d+)?$/.test(text)) return text.replace(/:\d+$/, '');
  if (!text.includes(':')) return text;
  const zoneless = text.replace(/%.*$/, '');
  const [head = '', tail = ''] = zoneless.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = zoneless.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function hopsOf(trust: ClientAddressOptions['trustProxy']): { hops: number; header: string } {
  if (typeof trust === 'number') return { hops: trust, header: 'x-forwarded-for' };
  if (typeof trust === 'object' && trust)
    return { hops: trust.hops ?? 1, header: trust.header ?? 'x-forwarded-for' };
  return { hops: 1, header: 'x-forwarded-for' };
}

function forwardedEntries(request: Request, header: string): string[] {
  const value = request.headers.get(header);
  if (!value) return [];
  if (header === 'forwarded') {
    return value
      .split(',')
      .map((element) => /(?:^|;)\s*for="?([^";]+)"?/i.exec(element.trim())?.[1] ?? '')
      .map((text) => text.trim());
  }
  return value.split(',').map((text) => text.trim());
}

/** Checks the options at start-up: a bad hop count is a clear error, not a silent default. */
export function checkClientAddressOptions(options: ClientAddressOptions): void {
  if (options.clientAddress !== undefined && typeof options.clientAddress !== 'function')
    throw new TypeError('clientAddress must be a function (request) => string | null.');
  const trust = options.trustProxy;
  if (trust === undefined || typeof trust === 'boolean') return;
  const { hops, header } = hopsOf(trust);
  if (!Number.isInteger(hops) || hops < 1 || hops > 10)
    throw new TypeError('trustProxy hops must be a whole number from 1 to 10.');
  if (header !== 'x-forwarded-for' && header !== 'forwarded')
    throw new TypeError("trustProxy header must be 'x-forwarded-for' or 'forwarded'.");
}

/**
 * The client's address as the per-address limits key it, or null when it is not known (another
 * runtime without `clientAddress`): those limits are then skipped, the others still hold.
 */
export function clientAddressOf(request: Request, options: ClientAddressOptions): string | null {
  if (options.clientAddress) {
    const given = options.clientAddress(request);
    return typeof given === 'string' && given.trim() !== '' ? addressKey(given) : null;
  }
  const socket = socketAddressOf(request);
  if (options.trustProxy === undefined || options.trustProxy === false)
    return socket && addressKey(socket);
  const { hops, header } = hopsOf(options.trustProxy);
  const entries = forwardedEntries(request, header);
  // Counted from the right: entries[length - hops] is what the outermost trusted proxy saw. A
  // header with fewer entries than proxies was not written by them: the socket is all we know.
  const seen = entries.length >= hops ? entries[entries.length - hops] : undefined;
  if (seen && seen !== 'unknown' && !seen.startsWith('_')) return addressKey(seen);
  return socket && addressKey(socket);
}
