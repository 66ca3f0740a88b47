/**
 * The payouts handler's options, checked once at start-up. Unlike the checkout's, there is no
 * `resolveOrder`: a merchant doing payouts only has no orders. There is a mandatory `authorize`:
 * payouts move the merchant's money, so nothing answers until the merchant's own staff login says so.
 */
import { checkBaseUrl, checkSecretKey } from '../../provider/transport';
import type { PayoutOutcome } from '../checkout';
import type { CheckoutLogger } from '../http';
import { type CheckoutStore, isMemoryStore } from '../store';
import { isHostName } from './served-hosts';

export interface PayoutsHandlerOptions {
  /** The merchant's secret key; sent to the provider in X-Api and nowhere else. */
  readonly secretKey: string;
  /** The provider's `{base_url}` (or a sandbox's). */
  readonly baseUrl: string;
  /** The provider's `{sandbox_base_url}` for the transaction list. Default: baseUrl. */
  readonly listBaseUrl?: string | undefined;
  /**
   * Your staff login: true when this request may see and move money. Called for every request
   * except the provider's webhooks, after the host and origin checks. Required; there is no
   * default that lets anyone in. Authenticate the request itself (your session cookie, a staff
   * token): never admit on its Origin or Sec-Fetch-Site alone, which a client that is not a
   * browser (curl, a script) simply leaves out.
   * @example authorize: async (request) => (await sessions.staffOf(request))?.can('payouts') === true
   */
  readonly authorize: (request: Request) => Promise<boolean> | boolean;
  /** Where the handler is mounted. Default `/api/back-office`; never under the checkout's path. */
  readonly basePath?: string | undefined;
  /**
   * The URL your staff reach this handler at, e.g. `https://admin.shop.example/api/back-office`:
   * its host is one the handler serves, and its origin is the back-office page's own. Requests
   * naming any other host (a DNS-rebinding page's `Host: attacker.example`) are refused with 403
   * `host_not_allowed` whatever `authorize` says. Under NODE_ENV=production give this or
   * `allowedHosts`; otherwise the loopback names (localhost, 127.0.0.1, [::1]) are served too.
   * @example publicUrl: 'https://admin.shop.example/api/back-office'
   */
  readonly publicUrl?: string | undefined;
  /**
   * More host names the handler serves (no scheme, no port), besides publicUrl's. Every host a
   * request names must be served: its Host header, its URL's host, and X-Forwarded-Host or
   * Forwarded's `host=` when a proxy sets them (so list the internal name too if your proxy
   * rewrites Host).
   * @example allowedHosts: ['admin.shop.example', 'backoffice.internal']
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Page origins of your back office when it is on another origin than the handler. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Webhook signing secrets (Standard Webhooks), as the checkout handler takes them. */
  readonly webhookSecrets?: readonly string[] | undefined;
  /** Called once per payout move, confirmed with the provider (Pending → Completed / Failed → Reversed). */
  readonly onPayoutOutcome?: ((outcome: PayoutOutcome) => Promise<void> | void) | undefined;
  /** Default: in memory. Pass the checkout's store to share payout positions and outcomes with it. */
  readonly store?: CheckoutStore | undefined;
  readonly logger?: CheckoutLogger | undefined;
  readonly timeouts?: { readonly providerMs?: number | undefined };
  /** As the checkout's: keeps a payout webhook's confirmation alive past the response. */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
  /**
   * As the checkout's: `false` on serverless platforms, where no timer runs between requests;
   * call `runDueWork()` from a cron. The memory store is refused with it in production.
   * @example pollDueWork: false
   */
  readonly pollDueWork?: boolean | undefined;
  readonly fetch?: typeof fetch | undefined;
}

export const DEFAULT_BACK_OFFICE_PATH = '/api/back-office';

export function checkPayoutsOptions(options: PayoutsHandlerOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createPayoutsHandler needs an options object.');
  }
  checkSecretKey(options.secretKey);
  checkBaseUrl('baseUrl', options.baseUrl);
  if (options.listBaseUrl !== undefined) checkBaseUrl('listBaseUrl', options.listBaseUrl);
  if (typeof options.authorize !== 'function') {
    throw new TypeError(
      'authorize is required: a function (request) => boolean that admits your staff, e.g. from your login session. Payouts move money.',
    );
  }
  const basePath = options.basePath;
  if (basePath !== undefined && !/^\/[\w\-./]*$/.test(basePath)) {
    throw new TypeError(`basePath must be a path starting with "/", not "${basePath}".`);
  }
  if (basePath !== undefined && /^\/api\/checkout(\/|$)/.test(basePath)) {
    throw new TypeError(
      'basePath must not be under the checkout handler’s /api/checkout: the browser of a customer must never reach payouts.',
    );
  }
  if (options.publicUrl !== undefined) checkBaseUrl('publicUrl', options.publicUrl);
  if (
    options.allowedHosts !== undefined &&
    (!Array.isArray(options.allowedHosts) || !options.allowedHosts.every(isHostName))
  ) {
    const bad = Array.isArray(options.allowedHosts)
      ? options.allowedHosts.find((host) => !isHostName(host))
      : options.allowedHosts;
    throw new TypeError(
      `allowedHosts must be host names without scheme, port or path, such as 'admin.shop.example'; it holds ${JSON.stringify(bad)}.`,
    );
  }
  if (
    isProduction() &&
    options.publicUrl === undefined &&
    (options.allowedHosts ?? []).length === 0
  ) {
    throw new TypeError(
      "publicUrl or allowedHosts is required under NODE_ENV=production: the hosts your staff reach the back office at (e.g. publicUrl: 'https://admin.shop.example/api/back-office'), so that a DNS-rebinding page naming another host is refused.",
    );
  }
  for (const origin of options.allowedOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new TypeError(`allowedOrigins holds "${origin}", which is not an origin.`);
    }
  }
  if (options.onPayoutOutcome !== undefined && typeof options.onPayoutOutcome !== 'function') {
    throw new TypeError('onPayoutOutcome must be a function when given.');
  }
  if (options.pollDueWork !== undefined && typeof options.pollDueWork !== 'boolean')
    throw new TypeError('pollDueWork must be true or false when given.');
  if (
    options.pollDueWork === false &&
    isProduction() &&
    (options.store === undefined || isMemoryStore(options.store))
  ) {
    throw new TypeError(
      "pollDueWork: false (serverless) needs a store that outlives an invocation under NODE_ENV=production: in memory, payout confirmations waiting for the cron are lost between invocations. Pass the checkout's store (createRedisStore({ url }) from 'paydrop/server/redis', or PostgreSQL).",
    );
  }
}

/** Loopback names are served only outside production (a developer's machine). */
export function isProduction(): boolean {
  return typeof process !== 'undefined' && process.env?.NODE_ENV === 'production';
}
