/**
 * What the widget asks of the companion, as a port the model is given (the real one speaks HTTP
 * in src/widget/companion-http.ts; tests hand in fakes), and the checks every companion answer
 * passes before the model trusts it: a malformed or hostile answer is refused, never rendered.
 */
// From the modules themselves, not the index: the widget bundles nothing else of the protocol.
import {
  type BrowserFailureReason,
  type CardEntry,
  type ChannelChoiceWire,
  type CheckoutErrorCode,
  type CheckoutViewWire,
  isBrowserFailureReason,
  type MerchantWire,
  type PaymentViewWire,
  type SessionViewWire,
  type VirtualAccountWire,
} from '../protocol/contract';
import type { Money } from '../protocol/money';
import { CHANNELS, type Channel, type PaymentStatus } from '../protocol/types';
import { isSafeUrl } from '../protocol/url';

export { type BrowserFailureReason, isSafeUrl, type PaymentStatus };

/** The contract's virtual account, its expiry parsed to epoch ms on the server's clock. */
export interface VirtualAccountView extends Omit<VirtualAccountWire, 'expiresAt'> {
  readonly expiresAt: number;
}

/** The contract's payment view, its instants parsed to epoch ms on the server's clock. */
export interface PaymentView extends Omit<PaymentViewWire, 'virtualAccount' | 'serverTime'> {
  readonly virtualAccount: VirtualAccountView | null;
  /** Epoch ms on the server's clock when the answer was written. */
  readonly serverTime: number;
}

export type ChannelChoice = ChannelChoiceWire;

/** Who is being paid (issue 23), as checked: each part that is not given is undefined. */
export type MerchantView = { readonly [K in keyof MerchantWire]: MerchantWire[K] | undefined };

/** The contract's session answer, its checkout flattened in and its payment parsed. */
export interface SessionView extends Omit<CheckoutViewWire, 'merchant'> {
  readonly token: SessionViewWire['token'];
  readonly payment: PaymentView | null;
  /** Absent when the companion names no merchant, or names one that fails a check. */
  readonly merchant?: MerchantView | undefined;
}

/** What a paid order or link is, as `already_paid` from the session carries it, checked. */
export type PaidCheckout = Pick<SessionView, 'amount' | 'description' | 'merchant'>;

import type { CardDetails } from '../protocol/card-input';

export type { CardDetails };

export interface InitiateRequest {
  readonly channel: Channel;
  readonly customer?: CustomerDetails | undefined;
  readonly card?: CardDetails | undefined;
  /** The merchant page a full-page redirect (to the bank) comes back to. */
  readonly returnTo?: string | undefined;
}

export interface CustomerDetails {
  readonly firstName?: string;
  readonly lastName?: string;
  readonly email?: string;
  readonly phone?: string;
}

/** The companion, as the model sees it. Every method rejects with a CompanionFailure. */
export interface CompanionPort {
  startSession(target: { order: string } | { link: string }): Promise<SessionView>;
  initiate(
    token: string,
    request: InitiateRequest,
  ): Promise<{ token: string; payment: PaymentView }>;
  status(token: string): Promise<StatusAnswer>;
  /**
   * Pushes status changes until the returned function is called; each with the event as
   * `parseStatus` reads it (why a payment failed rides along, issue 12).
   */
  watch(
    token: string,
    onStatus: (status: PaymentStatus, answer?: StatusAnswer) => void,
  ): () => void;
}

/** The card's own calls, made by the card chunk (src/widget/channels/card/card-calls.ts). */
export interface CardCalls {
  /** The authentication check; the URL of the challenge page when one is needed. */
  authenticate(token: string): Promise<{ challengeUrl: string | null }>;
  /** Charges the card once authentication is over; why it failed, when the provider said. */
  finalize(token: string): Promise<Finalization>;
}

/** The companion over HTTP: the port, plus a bare POST for the calls chunks make themselves. */
export interface HttpCompanion extends CompanionPort {
  /** The companion's origin, the only one its pages' messages may come from. */
  readonly origin: string;
  /** The companion's absolute URL (the endpoint), under which its pages live: the card frame's. */
  readonly base: string;
  /** POSTs to a companion path with the payment's token (and a JSON body); the answer unchecked, or a failure. */
  post(path: string, token: string, body?: unknown): Promise<unknown>;
}

/**
 * The companion's codes (the contract's) that the widget tells apart; any other, such as one the
 * companion adds later, becomes `internal`.
 */
const KNOWN_CODES = [
  'order_not_found',
  'unauthorized',
  'rate_limited',
  'invalid',
  'unavailable',
  'timeout',
  'conflict',
  'already_paid',
  'payment_pending',
  'internal',
] as const satisfies readonly CheckoutErrorCode[];

/**
 * Why a call to the companion failed, as a stable code the model and the merchant act on: one of
 * the contract's, or the widget's own when no usable answer came (`network`, `bad_response`).
 */
export type CompanionFailureCode = (typeof KNOWN_CODES)[number] | 'network' | 'bad_response';

/**
 * An earlier payment of the same checkout or order that `/initiate` answered with instead of a new
 * one (`already_paid`, `payment_pending`), and the token to follow it with (issue 9).
 */
export interface EarlierPayment {
  readonly payment: PaymentView;
  readonly token: string;
}

export class CompanionFailure extends Error {
  override readonly name = 'CompanionFailure' as const;
  constructor(
    readonly code: CompanionFailureCode,
    message: string,
    readonly requestId: string | null = null,
    /** With `already_paid` and `payment_pending`: the earlier payment to show or follow. */
    readonly earlier: EarlierPayment | null = null,
    /** With `already_paid` from the session: what was paid, to title the dialog for it. */
    readonly checkout: PaidCheckout | null = null,
  ) {
    super(message);
  }
}

export const STATUSES: readonly PaymentStatus[] = ['PENDING', 'SUCCESSFUL', 'FAILED'];

/**
 * Checks are written out by hand rather than with a schema library: every kilobyte here is
 * paid for by every customer, and these few shapes need a few lines each.
 */
function refuse(): never {
  throw new CompanionFailure(
    'bad_response',
    'The checkout server sent an answer that cannot be trusted.',
  );
}

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : refuse();
}

function text(value: unknown, max: number, pattern?: RegExp): string {
  return typeof value === 'string' && value.length <= max && (!pattern || pattern.test(value))
    ? value
    : refuse();
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T {
  return allowed.includes(value as T) ? (value as T) : refuse();
}

function instant(value: unknown): number {
  const ms = Date.parse(text(value, 40));
  return Number.isFinite(ms) ? ms : refuse();
}

function safeUrl(value: unknown): string {
  const url = text(value, 2048);
  return isSafeUrl(url) ? url : refuse();
}

function money(value: unknown): Money {
  const given = record(value);
  const amountMinor = given.amountMinor;
  if (!Number.isSafeInteger(amountMinor) || (amountMinor as number) < 0) refuse();
  return { amountMinor: amountMinor as number, currency: text(given.currency, 3, /^[A-Z]{3}$/) };
}

function payment(value: unknown): PaymentView {
  const given = record(value);
  const account = given.virtualAccount === null ? null : record(given.virtualAccount);
  return {
    reference: text(given.reference, 128, /^[\w.:-]+$/),
    channel: oneOf(given.channel, CHANNELS),
    status: oneOf(given.status, STATUSES),
    amount: money(given.amount),
    fees: money(given.fees),
    virtualAccount: account && {
      bank: text(account.bank, 120),
      accountNumber: text(account.accountNumber, 20, /^\d{6,20}$/),
      accountName: text(account.accountName, 200),
      note: text(account.note, 500),
      expiresAt: instant(account.expiresAt),
    },
    bankAuthUrl: given.bankAuthUrl === null ? null : safeUrl(given.bankAuthUrl),
    serverTime: instant(given.serverTime),
  };
}

/** The merchant, or undefined: a missing or malformed one costs the customer nothing but it. */
function merchant(value: unknown): MerchantView | undefined {
  try {
    const given = record(value);
    const color = (color: unknown) =>
      color === undefined ? undefined : text(color, 7, /^#[\da-f]{6}$/i);
    return {
      name: text(given.name, 80),
      logoUrl: given.logoUrl === undefined ? undefined : safeUrl(given.logoUrl),
      brandColor: color(given.brandColor),
      brandColorDark: color(given.brandColorDark),
    };
  } catch {
    return undefined;
  }
}

export function parseSession(body: unknown): SessionView {
  const given = record(body);
  const checkout = record(given.checkout);
  const channels = Array.isArray(checkout.channels) ? checkout.channels : refuse();
  return {
    token: text(given.token, 4096),
    amount: money(checkout.amount),
    description: text(checkout.description, 200),
    // Checked where it is read (the card chunk): anything but 'direct' is the hosted page.
    cardEntry: checkout.cardEntry as CardEntry,
    merchant: merchant(checkout.merchant),
    // Channels this widget does not know are left out rather than shown blank.
    channels: channels.map(record).flatMap((channel) =>
      CHANNELS.includes(channel.name as Channel)
        ? [
            {
              name: channel.name as Channel,
              description: channel.description == null ? null : text(channel.description, 300),
            },
          ]
        : [],
    ),
    payment: given.payment === null ? null : payment(given.payment),
  };
}

export function parseInitiation(body: unknown): { token: string; payment: PaymentView } {
  const given = record(body);
  return { token: text(given.token, 4096), payment: payment(given.payment) };
}

/** The challenge page must be the companion's own: its origin is the only one trusted to report. */
export function parseAuthentication(
  body: unknown,
  companionOrigin: string,
): { challengeUrl: string | null } {
  const given = record(body);
  if (given.authenticationRequired === false) return { challengeUrl: null };
  if (given.authenticationRequired !== true) refuse();
  const url = safeUrl(given.challengeUrl);
  return new URL(url).origin === companionOrigin ? { challengeUrl: url } : refuse();
}

/** The card's finalize answer: its status, and why it failed when the provider said (issue 12). */
export interface Finalization {
  readonly status: PaymentStatus;
  readonly reason?: BrowserFailureReason | undefined;
}

export function parseFinalization(body: unknown): Finalization {
  const given = record(body);
  const status = oneOf(given.status, STATUSES);
  // A reason this widget does not know (or one the companion never tells a browser) is left
  // out, never shown wrong.
  const reason = isBrowserFailureReason(given.reason) ? given.reason : undefined;
  return status === 'FAILED' && reason ? { status, reason } : { status };
}

/**
 * A status answer: the status, the provider's now (null when absent), and with FAILED why and,
 * for a transfer short of the amount, what arrived (issue 12). A reason or an amount that does
 * not pass its check is left out, never shown wrong; the status still counts.
 */
export interface StatusAnswer {
  readonly status: PaymentStatus;
  readonly serverTime: number | null;
  readonly reason?: BrowserFailureReason | undefined;
  readonly paid?: Money | undefined;
}

export function parseStatus(body: unknown): StatusAnswer {
  const given = record(body);
  const status = oneOf(given.status, STATUSES);
  let paid: Money | undefined;
  try {
    paid = given.paid === undefined ? undefined : money(given.paid);
  } catch {
    // Left out: the failure is still told, without the amounts.
  }
  return {
    status,
    serverTime: given.serverTime === undefined ? null : instant(given.serverTime),
    reason: isBrowserFailureReason(given.reason) ? given.reason : undefined,
    paid,
  };
}

function clip(value: unknown, max: number): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/** A refusal from the companion, by its stable code; unknown codes become `internal`. */
export function parseFailure(status: number, body: unknown): CompanionFailure {
  const error = (body as { error?: Record<string, unknown> } | null)?.error ?? {};
  const code = error.code;
  if (typeof code !== 'string') {
    return new CompanionFailure(
      status >= 500 ? 'unavailable' : 'bad_response',
      `The checkout server answered ${status}.`,
    );
  }
  const mapped = (KNOWN_CODES as readonly string[]).includes(code)
    ? code
    : code === 'not_found'
      ? 'order_not_found'
      : code === 'invalid_request'
        ? 'invalid'
        : 'internal';
  return new CompanionFailure(
    mapped as CompanionFailureCode,
    clip(error.message, 300) ?? code.slice(0, 300),
    clip(error.requestId, 64),
    mapped === 'already_paid' || mapped === 'payment_pending' ? earlierPayment(body) : null,
    mapped === 'already_paid' ? paidCheckout(body) : null,
  );
}

/** What a paid link or order is, checked; none when absent or when it fails a check. */
function paidCheckout(body: unknown): PaidCheckout | null {
  try {
    const given = record(record(body).checkout);
    return {
      description: text(given.description, 200),
      amount: money(given.amount),
      merchant: merchant(given.merchant),
    };
  } catch {
    return null;
  }
}

/** The earlier payment a refusal carries, checked as any payment is; none when it fails a check. */
function earlierPayment(body: unknown): EarlierPayment | null {
  try {
    const given = record(body);
    if (given.payment === undefined || given.token === undefined) return null;
    return { payment: payment(given.payment), token: text(given.token, 4096) };
  } catch {
    return null;
  }
}
