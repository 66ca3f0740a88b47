/**
 * Which hosts the back office serves (issue 20, item 5): the defence against DNS rebinding.
 *
 * A page on attacker.example can make its own name resolve to 127.0.0.1 (or to the merchant's
 * internal address) once it has loaded. Its fetches are then same-origin for the browser: they
 * carry `Origin: http://attacker.example` and `Host: attacker.example`, reach the back office, and
 * read the answers. An origin check that compares the Origin with the request's own URL (built
 * from that Host) waves them through, which is what the handler did before. The root fix is that
 * "our own origin" comes from the hosts we serve, never from what the request says it is: every
 * host a request names (Host, the URL's host, X-Forwarded-Host, Forwarded's host=) must be one of
 * them, so a proxy's forwarded host can narrow but never widen what gets in.
 */

/** Loopback names a developer's browser uses for a server on their own machine, any port. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface ServedHostsOptions {
  readonly publicUrl?: string | undefined;
  readonly allowedHosts?: readonly string[] | undefined;
  /** Loopback names are served too (NODE_ENV is not production). */
  readonly development: boolean;
}

/** Why a request was refused, for the log: the host it named and the setting that would admit it. */
export interface HostRefusal {
  readonly host: string;
  readonly allow: string;
}

export interface ServedHosts {
  /** Undefined when every host the request names is served; otherwise what to log. */
  refusal(request: Request): HostRefusal | undefined;
  /**
   * Whether `origin` is this back office's own page: the publicUrl's origin, or an http(s) origin
   * whose host and port are the request's own Host, once refusal() has vouched for that Host.
   */
  isOwnOrigin(origin: string, request: Request): boolean;
}

/** `shop.example`, `shop.example:8443`, `[::1]:3000` → the lower-case name without port or final dot. */
function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host.trim()}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash)
      return undefined;
    return url.hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** A name for allowedHosts, as written: no scheme, no port, no path. */
export function isHostName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/i.test(
      value,
    )
  );
}

/** Every host the request names: its URL's, its Host header's, and any a proxy forwarded. */
function namedHosts(request: Request): string[] {
  const hosts = [new URL(request.url).host];
  const host = request.headers.get('host');
  if (host !== null) hosts.push(host);
  const forwardedHost = request.headers.get('x-forwarded-host');
  if (forwardedHost !== null) hosts.push(...forwardedHost.split(','));
  const forwarded = request.headers.get('forwarded');
  if (forwarded !== null) {
    for (const match of forwarded.matchAll(/(?:^|[;,\s])host\s*=\s*("[^"]*"|[^;,\s]*)/gi))
      hosts.push((match[1] ?? '').replace(/^"|"$/g, ''));
  }
  return hosts.map((one) => one.trim());
}

export function createServedHosts(options: ServedHostsOptions): ServedHosts {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const served = new Set(
    [
      ...(options.publicUrl ? [new URL(options.publicUrl).hostname] : []),
      ...(options.allowedHosts ?? []),
    ].map((name) => name.toLowerCase().replace(/\.$/, '')),
  );
  const serves = (hostname: string | undefined): hostname is string =>
    hostname !== undefined &&
    (served.has(hostname) || (options.development && LOOPBACK.has(hostname)));

  return {
    refusal(request) {
      for (const host of namedHosts(request)) {
        const hostname = hostnameOf(host);
        if (serves(hostname)) continue;
        const shown = host.slice(0, 200);
        return {
          host: shown,
          allow:
            hostname === undefined
              ? 'none: the host is not a valid host name'
              : `allowedHosts: ['${hostname}'] (or a publicUrl on that host), if your staff really open the back office there`,
        };
      }
      return undefined;
    },
    isOwnOrigin(origin, request) {
      if (origin === publicOrigin) return true;
      let parsed: URL;
      try {
        parsed = new URL(origin);
      } catch {
        return false;
      }
      if (parsed.origin !== origin) return false;
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
      const host = request.headers.get('host') ?? new URL(request.url).host;
      return parsed.host === host.toLowerCase() && serves(hostnameOf(parsed.host));
    },
  };
}
