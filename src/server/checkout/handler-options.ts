/**
 * The checkout handler's options, and what its hooks are given: the types alone. They are checked
 * in options.ts.
 */
import type { Channel, Money, PayoutStatus } from '../../protocol';
import type { CardEntry, PaymentFailureReason } from '../../protocol/contract';
import type { CheckoutLogger, TrustProxy } from '../http';
import type { CheckoutStore } from '../store';
import type { CardAttemptContext, CheckoutLimits } from './attempt-limits';
import type { MerchantOptions } from './merchant';

/** What the merchant's server decided an order costs. */
export interface ResolvedOrder {
  /** In the currency's minor unit: 250050 is NGN 2,500.50. */
  readonly amountMinor: number;
  readonly currency: string;
  readonly description: string;
  /**
   * The channels this order may be paid by (a few of the protocol's CHANNELS); the provider's offer is
   * narrowed to them. Default: every channel the provider offers for the amount.
   */
  readonly channels?: readonly Channel[] | undefined;
  /**
   * True when the order, or a one-time payment link, is paid already: the customer is told so at
   * once, before choosing how to pay. Default false.
   */
  readonly paid?: boolean | undefined;
  /**
   * How this order's customer enters a card; overrides the handler's `cardEntry`.
   * @example { amountMinor: 1800, currency: 'USD', description: 'Mug', cardEntry: 'direct' }
   */
  readonly cardEntry?: CardEntry | undefined;
}

/**
 * Where the customer types a card. `'hosted'`: on the provider's payment page (PCI DSS SAQ A).
 * `'direct'`: in the companion's isolated card frame, which sends the card to the companion and
 * on to the provider; only for merchants the provider lets send card details (SAQ D).
 */
export type { CardEntry };

/** A payment's final outcome, reported once per reference. */
export interface PaymentOutcome {
  readonly reference: string;
  readonly status: 'SUCCESSFUL' | 'FAILED';
  /** The order the checkout was for, or null for a payment link or an unknown reference. */
  readonly orderId: string | null;
  readonly linkAlias: string | null;
  readonly channel: Channel | null;
  /** What the provider reports was paid. */
  readonly amount: Money;
  /** False when the provider's amount differs from the one the merchant decided. */
  readonly amountMatches: boolean;
  /**
   * True when this order (or this checkout of a payment link) already had a SUCCESSFUL outcome
   * under another reference: money taken twice, to refund. The customer is shown the first.
   */
  readonly duplicate: boolean;
  /** The reference of that first success when `duplicate`, else null. */
  readonly duplicateOf: string | null;
  /** With FAILED, why, when the provider said: the widget's `error.code` for the same cause. */
  readonly reason?: PaymentFailureReason;
  /** With `transfer_short`: what arrived (the rest is missing), when the provider said. */
  readonly paid?: Money;
}

/** A payout's move, reported once per state. */
export interface PayoutOutcome {
  readonly reference: string;
  readonly tenantReference: string | null;
  readonly status: PayoutStatus;
  readonly previousStatus: PayoutStatus | null;
  /** What the provider lists as sent, in minor units. */
  readonly amount: Money;
  /** The provider's reason with Failed or Reversed, e.g. "Invalid beneficiary account details."; else null. */
  readonly reason: string | null;
  /** When the provider says the move happened (ISO 8601): the webhook's time, else when confirmed. */
  readonly occurredAt: string;
}

// The logger type lives in the http room, where both handlers' logging is; named here too, as
// every checkout file has always found it.
export type { CheckoutLogger };

export interface CheckoutHandlerOptions {
  /** The merchant's secret key; sent to the provider in X-Api and nowhere else. */
  readonly secretKey: string;
  /** The provider's `{base_url}` (or a sandbox's). Required. */
  readonly baseUrl: string;
  /** The provider's `{sandbox_base_url}` for the transaction list. Default: baseUrl. */
  readonly listBaseUrl?: string | undefined;
  /**
   * Turns the order id the browser sends into the amount the merchant decided. Return null for
   * an order that does not exist (or that this customer may not pay).
   * @example resolveOrder: async (id) => { const order = await db.orders.find(id); return order && { amountMinor: order.totalMinor, currency: 'NGN', description: `Order ${id}` }; }
   */
  readonly resolveOrder: (
    orderId: string,
    request: Request,
  ) => Promise<ResolvedOrder | null> | ResolvedOrder | null;
  /** The same for a payment link's alias; without it, links are not accepted. */
  readonly resolveLink?:
    | ((alias: string, request: Request) => Promise<ResolvedOrder | null> | ResolvedOrder | null)
    | undefined;
  /** The path the handler is mounted at. Default `/api/checkout`. */
  readonly basePath?: string | undefined;
  /**
   * The handler's public URL, e.g. https://shop.example/api/checkout, for the URLs it hands out
   * (the bank's return page, the challenge page). Default: per request, from `Forwarded`,
   * `X-Forwarded-Proto` + `X-Forwarded-Host`, `Host` and the socket; pages on it are the shop's own.
   */
  readonly publicUrl?: string | undefined;
  /** Page origins allowed to call from another origin, e.g. ['https://shop.example']. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Webhook signing secrets (Standard Webhooks, `whsec_…`); several while rotating. */
  readonly webhookSecrets?: readonly string[] | undefined;
  /**
   * Signs checkout tokens and payment keys: at least 32 characters (`openssl rand -base64 32`),
   * the same on every instance. Several while rotating: the first signs, all verify, so open
   * checkouts survive a new secret; drop the old one once tokens signed with it have expired
   * (tokenTtlSeconds). Required under NODE_ENV=production; elsewhere derived from secretKey,
   * which then cannot change without ending every open checkout.
   * @example tokenSecret: [process.env.TOKEN_SECRET, process.env.TOKEN_SECRET_PREVIOUS].filter(Boolean)
   */
  readonly tokenSecret?: string | readonly string[] | undefined;
  /** How long a checkout token lives, in seconds. Default 2 hours. */
  readonly tokenTtlSeconds?: number | undefined;
  readonly timeouts?: {
    /** Deadline of one provider call, in ms. Default 10 000. */
    readonly providerMs?: number | undefined;
  };
  /**
   * How long the provider's answer to "which channels take this amount" (endpoint 2) is reused
   * for the same currency and amount, in ms; 0 asks on every `/session`. Concurrent identical
   * asks share one call, failures are not kept, at most 1,000 amounts are remembered, per
   * instance. Default 60 000.
   * @example validationCacheMs: 30_000
   */
  readonly validationCacheMs?: number | undefined;
  /**
   * Open `/events` streams one checkout may hold at once (its token and the tokens issued from
   * it), per instance; the next is answered 429 `rate_limited` with Retry-After until one closes.
   * Default 20.
   * @example maxEventStreamsPerCheckout: 5
   */
  readonly maxEventStreamsPerCheckout?: number | undefined;
  readonly onPaymentOutcome?: ((outcome: PaymentOutcome) => Promise<void> | void) | undefined;
  readonly onPayoutOutcome?: ((outcome: PayoutOutcome) => Promise<void> | void) | undefined;
  /** Default: in memory. Supply a shared one when running several instances. */
  readonly store?: CheckoutStore | undefined;
  /** Default: console. Lines never hold the secret key. */
  readonly logger?: CheckoutLogger | undefined;
  /**
   * Where customers type their card. `'hosted'` (default): on the provider's hosted payment page,
   * in a window of the provider's origin; card data never reaches your pages or your server, which
   * keeps you in PCI DSS SAQ A. `'direct'`: in the companion's isolated card frame, which sends the
   * card through your server to the provider; only for merchants the provider allows to send card
   * details, and it puts you in SAQ D. An order can override it (`ResolvedOrder.cardEntry`).
   */
  readonly cardEntry?: CardEntry | undefined;
  /**
   * Who the customer is paying: the checkout shows the name (and the logo) at the top, and uses
   * the brand colour where it keeps its contrast (see MerchantOptions). The script tag needs
   * nothing more; each checkout carries it.
   * @example merchant: { name: 'Adire & Co.', logoUrl: 'https://shop.example/logo.svg', brandColor: '#0a7d5a' }
   */
  readonly merchant?: MerchantOptions | undefined;
  /**
   * For serverless and edge runtimes: given every piece of background work a request starts (a
   * webhook's confirmation and the `onPaymentOutcome` call, a finalize's settling), so the
   * platform keeps the function alive until it ends rather than freezing it after the response.
   * The work is also a job in the store: if the platform cuts it short, the next
   * `runDueWork()` finishes it.
   * @example import { waitUntil } from '@vercel/functions'; // or: from 'cloudflare:workers'
   * createCheckoutHandler({ ...options, waitUntil, pollDueWork: false });
   */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
  /**
   * Whether the handler looks for due background work itself, with a timer every second, and once
   * at start-up. Default true, for a long-lived process. `false` for serverless and edge platforms
   * (Vercel functions, Cloudflare Workers, AWS Lambda), where nothing runs between requests: no
   * timer, no store call at start-up; call `runDueWork()` from a cron trigger or scheduled
   * function instead (every minute), and give `waitUntil`. Needs a store that outlives an
   * invocation (Redis, PostgreSQL): under NODE_ENV=production the memory store is refused.
   * @example pollDueWork: false
   */
  readonly pollDueWork?: boolean | undefined;
  /**
   * The fetch the provider is called with. Default: the global fetch; on Node, the dispatcher
   * behind it, asked directly (src/provider/provider-fetch.ts): the same connections and
   * settings without fetch's streams.
   */
  readonly fetch?: typeof fetch | undefined;
  /**
   * The numbers of the limits against card testing and floods (docs/server.md, "Limits against
   * card testing"); each has a default, so this is only for what a shop's traffic says otherwise.
   * @example limits: { cardDeclinesPerOrder: 3, cardDeclinesPerAddress: 40 }
   */
  readonly limits?: CheckoutLimits | undefined;
  /**
   * The client's address for the per-address limits. Default: the socket's address, recorded by
   * `paydrop/server/node` (and `X-Forwarded-For` with `trustProxy`). On other runtimes give it
   * (return null when unknown: the per-address limits are then skipped, the others hold).
   * @example clientAddress: (request) => request.headers.get('cf-connecting-ip')
   */
  readonly clientAddress?: ((request: Request) => string | null | undefined) | undefined;
  /**
   * Believe `X-Forwarded-For` (or `Forwarded`) for the client's address, because this many of
   * your proxies stand in front (true: one). Never by default: from anyone else the header is a
   * forgery that would spread an attacker over addresses, or spend another customer's budget.
   * @example trustProxy: 1 // one load balancer
   */
  readonly trustProxy?: boolean | number | TrustProxy | undefined;
  /**
   * Your own check before a card reaches the provider (a CAPTCHA): return false, or throw, to
   * refuse the attempt (403 `forbidden`; throw a CheckoutError to answer otherwise). Runs after
   * the companion's own limits allowed it.
   * @example beforeCardAttempt: async ({ request }) => verifyCaptcha(request.headers.get('x-captcha'))
   */
  readonly beforeCardAttempt?:
    | ((context: CardAttemptContext) => Promise<boolean | undefined> | boolean | undefined)
    | undefined;
  /**
   * The companion's clock in epoch ms, for simulations that move time (the chaos tests move it
   * with the sandbox's). Default Date.now.
   */
  readonly now?: (() => number) | undefined;
}
