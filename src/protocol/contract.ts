/**
 * The contract between the widget and the companion: what the browser sends, what it gets back,
 * the error codes, the event names and the query parameter of a bank's return. Written once and
 * imported by both `src/flow` and `src/server`; types and constants only, so the widget pays for
 * nothing it does not read.
 */
import type { Money } from './money';
import type { Channel, PaymentStatus } from './types';

/** The companion's routes under its base path, as the browser calls them. */
export const COMPANION_PATHS = {
  session: '/session',
  initiate: '/initiate',
  authenticate: '/authenticate',
  finalize: '/finalize',
  status: '/status',
  events: '/events',
  bankReturn: '/return',
  challenge: '/challenge',
  challengeFrame: '/challenge/frame',
  /** Card on the provider's hosted page: POST opens (or reopens) the order's page. */
  cardPage: '/card-page',
  /** POST (no body): what became of the hosted card page (a payment, a cancel, or nothing yet). */
  cardPagePayment: '/card-page/payment',
  webhooks: '/webhooks',
} as const;

/** The query parameter a full-page bank redirect comes back with: `?paydrop_return=REF`. */
export const RETURN_PARAM = 'paydrop_return';

/**
 * With RETURN_PARAM, after the provider's hosted card page in the same tab: the page's link alias
 * (`?paydrop_return=REF&paydrop_card=ALIAS`), whose payment the widget had no reference for yet.
 */
export const CARD_RETURN_PARAM = 'paydrop_card';

/** What the widget calls the hosted card page's payment before its reference is known. */
export const hostedPageReference = (alias: string): string => `card:${alias}`;

/** The Server-Sent Events event name that carries a payment's status. */
export const STATUS_EVENT = 'status';

/** The virtual account of a PayByTransfer payment, as the companion sends it. */
export interface VirtualAccountWire {
  readonly bank: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly note: string;
  /** ISO 8601, on the provider's clock. */
  readonly expiresAt: string;
}

/** What the browser learns about its payment: never more than the customer needs. */
export interface PaymentViewWire {
  readonly reference: string;
  readonly channel: Channel;
  readonly status: PaymentStatus;
  readonly amount: Money;
  readonly fees: Money;
  readonly virtualAccount: VirtualAccountWire | null;
  readonly bankAuthUrl: string | null;
  /**
   * The provider's clock when this was written (ISO 8601), as the companion measures it from the
   * `Date` of the provider's answers (its own clock until one came): `virtualAccount.expiresAt`
   * is on that clock, so the widget counts down from here, correcting the customer's clock too.
   */
  readonly serverTime: string;
}

/** One channel the customer may choose. */
export interface ChannelChoiceWire {
  readonly name: Channel;
  readonly description: string | null;
}

/**
 * Where the customer types a card: on the provider's hosted page (the default, PCI DSS SAQ A for
 * the merchant), or in the companion's isolated card frame (opt-in, SAQ D).
 */
export type CardEntry = 'hosted' | 'direct';

/**
 * Who is being paid, from the companion's `merchant` option (issue 23): the checkout names them
 * at the top. Absent when the option is not set (and from companions before it existed).
 */
export interface MerchantWire {
  /** 1 to 80 characters. */
  readonly name: string;
  /** https: (http: on localhost); shown beside the name, as decoration. */
  readonly logoUrl?: string;
  /** #rrggbb for the light dialog, sent only when it keeps its contrast there (merchant.ts). */
  readonly brandColor?: string;
  /** The same, for the dark dialog. */
  readonly brandColorDark?: string;
}

/** What the customer is paying for, as `POST /session` answers it. */
export interface CheckoutViewWire {
  readonly amount: Money;
  readonly description: string;
  readonly channels: readonly ChannelChoiceWire[];
  /** How Card is paid in this checkout; absent from companions before it existed ('direct'). */
  readonly cardEntry?: CardEntry;
  /** Who is being paid; absent without the companion's `merchant` option. */
  readonly merchant?: MerchantWire;
}

/** The answer to `POST /card-page`: the provider's page for this order's card payment. */
export interface CardPageWire {
  /** Opens `POST /card-page/payment` for this page. */
  readonly token: string;
  /** The provider's hosted payment page (https, or http on loopback for the sandbox). */
  readonly url: string;
  /** The alias of the payment link behind the page. */
  readonly alias: string;
}

/** The answer to `POST /card-page/payment`. */
export interface CardPagePaymentWire {
  /** The payment made on the page, once the companion knows it (the return page or a webhook). */
  readonly payment: PaymentViewWire | null;
  /** The token opening that payment (`/status`, `/events`), with `payment`. */
  readonly token: string | null;
  /** The customer cancelled on the provider's page, and no payment is known. */
  readonly cancelled: boolean;
}

/** The answer to `POST /session`. */
export interface SessionViewWire {
  readonly token: string;
  readonly checkout: CheckoutViewWire;
  /** A payment of this checkout or order that is still live (or already succeeded), to resume. */
  readonly payment: PaymentViewWire | null;
}

/**
 * The answer to `POST /initiate`. `paymentKey`, with a payment this browser started or showed the
 * key of: kept by the widget for the order and sent back as `paymentKeys` to `POST /session`,
 * the only way to see that payment's account or bank link again (issue 20).
 */
export interface InitiationWire {
  readonly token: string;
  readonly payment: PaymentViewWire;
  readonly paymentKey?: string;
}

/**
 * Why a payment failed, when the provider said why (issue 12): the one list of causes, declared
 * here once. The companion's outcome (`PaymentOutcome.reason`) carries it whole; the browser hears
 * `BrowserFailureReason`; the widget's `CheckoutFailureCode` (src/flow/checkout-step.ts) is built
 * from that. Absent when the provider gave no reason.
 */
export const PAYMENT_FAILURE_REASONS = [
  'card_declined',
  'insufficient_funds',
  'card_expired',
  'verification_failed',
  'bank_declined',
  'transfer_short',
  'expired',
] as const;

export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

/**
 * Reasons that tell a card tester the number is real and live (issue 20): the companion tells the
 * browser `card_declined` instead, and only the merchant's server hears them.
 */
export const CARD_REVEALING_REASONS = [
  'insufficient_funds',
  'card_expired',
] as const satisfies readonly PaymentFailureReason[];

/** Why a payment failed, as the companion tells the browser: every reason but the revealing ones. */
export type BrowserFailureReason = Exclude<
  PaymentFailureReason,
  (typeof CARD_REVEALING_REASONS)[number]
>;

/** A reason the browser may be told, checked: anything else (or a revealing one) is no reason. */
export function isBrowserFailureReason(value: unknown): value is BrowserFailureReason {
  return (
    (PAYMENT_FAILURE_REASONS as readonly unknown[]).includes(value) &&
    !(CARD_REVEALING_REASONS as readonly unknown[]).includes(value)
  );
}

/** The answer to `POST /finalize`; `reason` with a FAILED status the provider explained. */
export interface FinalizationWire {
  readonly reference: string;
  readonly status: PaymentStatus;
  readonly reason?: BrowserFailureReason;
}

/** What a status event and `GET /status` carry. */
export interface StatusWire {
  readonly reference: string;
  readonly status: PaymentStatus;
  /** The provider's now, as `PaymentViewWire.serverTime` (a status event carries none). */
  readonly serverTime?: string;
  /** With FAILED, why, when the provider said (issue 12), as the browser may hear it. */
  readonly reason?: BrowserFailureReason;
  /** With `transfer_short`: what arrived in the account, when the provider said. */
  readonly paid?: Money;
}

/** Every `error.code` the companion can answer, with its HTTP status. */
export const CHECKOUT_ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  not_found: 404,
  method_not_allowed: 405,
  origin_not_allowed: 403,
  cross_site_request: 403,
  unauthorized: 401,
  forbidden: 403,
  /**
   * The back office refused a request naming a host it does not serve (its Host, or a forwarded
   * host): a DNS-rebinding page, or a publicUrl / allowedHosts left unset (issue 20).
   */
  host_not_allowed: 403,
  order_not_found: 404,
  link_not_supported: 400,
  channel_unavailable: 409,
  already_paid: 409,
  /**
   * An earlier payment of this checkout or order may still succeed (a card whose finalize answer
   * was lost, a bank payment settling): the body's `payment` is that payment, to watch with
   * `/status` or `/events` until it is SUCCESSFUL or FAILED. Never offer a new payment meanwhile.
   */
  payment_pending: 409,
  not_initiated: 409,
  conflict: 409,
  invalid: 422,
  rate_limited: 429,
  timeout: 504,
  unavailable: 502,
  internal: 500,
  /** A framework read the body before the handler and left nothing usable (issue 13). */
  body_already_read: 500,
} as const;

export type CheckoutErrorCode = keyof typeof CHECKOUT_ERROR_STATUS;

/** The body of every refusal the companion answers. */
export interface ErrorBodyWire {
  readonly error: {
    readonly code: CheckoutErrorCode;
    readonly message: string;
    readonly requestId: string;
    readonly issues?: readonly string[];
  };
  /**
   * With `already_paid` and `payment_pending` from `/initiate`: the earlier payment of this
   * checkout or order (SUCCESSFUL, or PENDING while it settles) and its token, so the widget shows
   * that payment's success or watches it instead of offering another.
   */
  readonly payment?: PaymentViewWire;
  /** With `payment`: the checkout token bound to it, for `/status` and `/events`. */
  readonly token?: string;
  /**
   * With `already_paid` from `/session`: what the order or payment link is, so the widget titles
   * the dialog for it ("Checkout Invoice 0042") rather than a bare "Checkout" (issue 12, item 7).
   */
  readonly checkout?: PaidCheckoutWire;
}

/** What a paid order or payment link is, as `already_paid` from `/session` carries it. */
export type PaidCheckoutWire = Pick<CheckoutViewWire, 'amount' | 'description' | 'merchant'>;
