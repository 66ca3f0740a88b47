/**
 * Reading the provider's answers: one function per endpoint, from `unknown` to a clean type or a
 * typed ProviderError. A failed call never turns into `undefined`. Unknown extra fields are
 * tolerated (the provider may add some); missing or mistyped promised fields are refused.
 */
import * as v from 'valibot';
import {
  type FailedRequest,
  InsufficientBalanceError,
  ProviderAuthError,
  ProviderConflictError,
  ProviderError,
  type ProviderErrorOptions,
  ProviderNotFoundError,
  ProviderProtocolError,
  ProviderRateLimitError,
  ProviderUnavailableError,
  ProviderValidationError,
} from './errors';
import { type Money, MoneyError, parseMinorString, toMinor } from './money';
import type {
  AuthenticationCheck,
  ChannelValidation,
  Finalization,
  FundTransferAccepted,
  Initiation,
  LinkType,
  PaymentLink,
  PaymentStatus,
  PaymentStatusReport,
  PayoutRequirement,
  PayoutStatus,
  TransactionPage,
  VirtualAccount,
  WebhookEvent,
  WebhookEventName,
} from './types';

/** One HTTP answer from the provider, body already read as JSON (or `undefined` if empty). */
export interface ProviderAnswer {
  readonly status: number;
  readonly body: unknown;
  /** The `Retry-After` header, when the answer had one. */
  readonly retryAfter?: string | null | undefined;
  readonly request?: FailedRequest | undefined;
}

/**
 * Reads a fetch Response into a ProviderAnswer. A body that is not JSON is a protocol error
 * (or, on a 5xx, the provider being unavailable: gateways answer 502 pages in HTML).
 */
export async function readAnswer(
  response: Response,
  request?: FailedRequest,
): Promise<ProviderAnswer> {
  const text = await response.text();
  const retryAfter = response.headers.get('retry-after');
  if (text.trim() === '') return { status: response.status, body: undefined, retryAfter, request };
  try {
    return { status: response.status, body: JSON.parse(text), retryAfter, request };
  } catch (cause) {
    // A gateway's HTML 429 or 502 still says what happened through its status and headers.
    if (response.status >= 400) {
      return { status: response.status, body: undefined, retryAfter, request };
    }
    throw new ProviderProtocolError(
      `The provider answered ${response.status} with a body that is not JSON.`,
      { status: response.status, request, cause },
    );
  }
}

const ErrorBody = v.looseObject({
  isSuccess: v.optional(v.unknown()),
  error: v.nullish(v.string()),
  message: v.nullish(v.string()),
  responseCode: v.nullish(v.string()),
  type: v.nullish(v.string()),
  title: v.nullish(v.string()),
  detail: v.nullish(v.string()),
  status: v.nullish(v.union([v.number(), v.boolean()])),
  failures: v.optional(v.array(v.string())),
  extensions: v.optional(v.looseObject({ traceId: v.optional(v.string()) })),
});

/**
 * Turns a refused call into the matching error class. Used by every parser here; exported for
 * callers that get an answer no parser expects.
 */
export function errorFromAnswer(answer: ProviderAnswer): ProviderError {
  const parsed = v.safeParse(ErrorBody, answer.body);
  const body = parsed.success ? parsed.output : undefined;
  const bodyStatus = typeof body?.status === 'number' ? body.status : undefined;
  const status = answer.status >= 400 ? answer.status : (bodyStatus ?? answer.status);
  const options: ProviderErrorOptions = {
    status,
    request: answer.request,
    responseCode: body?.responseCode ?? undefined,
    traceId: body?.extensions?.traceId,
  };
  const message =
    body?.detail ??
    body?.message ??
    body?.error ??
    body?.title ??
    `The provider answered ${status}.`;

  if (body?.type === 'ValidationException' || body?.failures !== undefined) {
    return new ProviderValidationError(message, body?.failures ?? [], options);
  }
  if (status === 400 && /balance/i.test(`${body?.error ?? ''} ${body?.message ?? ''}`)) {
    return new InsufficientBalanceError(message, options);
  }
  if (status === 401 || status === 403) return new ProviderAuthError(message, options);
  if (status === 404) return new ProviderNotFoundError(message, options);
  if (status === 409) return new ProviderConflictError(message, options);
  if (status === 429) {
    return new ProviderRateLimitError(message, parseRetryAfter(answer.retryAfter), options);
  }
  if (status >= 500 || status === 0) return new ProviderUnavailableError(message, options);
  return new ProviderError(message, options);
}

/** Seconds to wait from a `Retry-After` header (delta-seconds or an HTTP date). */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Only an HTTP-date (RFC 9110 IMF-fixdate); Date.parse alone reads '1.5' or '-1' as dates.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text))
    return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Runs the envelope checks every endpoint shares and returns the validated `value`. */
function envelopeValue<S extends v.GenericSchema>(
  answer: ProviderAnswer,
  schema: S,
): v.InferOutput<S> {
  const body = answer.body;
  if (!isRecord(body)) {
    if (answer.status >= 400) throw errorFromAnswer(answer);
    throw new ProviderProtocolError('The provider answered without a JSON envelope.', {
      status: answer.status,
      request: answer.request,
    });
  }
  if (answer.status >= 400 || body.isSuccess === false) throw errorFromAnswer(answer);
  return shaped(answer, body.value, schema, 'value');
}

function shaped<S extends v.GenericSchema>(
  answer: ProviderAnswer,
  input: unknown,
  schema: S,
  where: string,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const problems = result.issues
    .slice(0, 5)
    .map((issue) => `${[where, v.getDotPath(issue)].filter(Boolean).join('.')}: ${issue.message}`);
  throw new ProviderProtocolError(
    `The provider's answer does not have the promised shape (${problems.join('; ')}).`,
    { status: answer.status, request: answer.request },
  );
}

/** Converts a major-unit amount, turning a bad one into a protocol error rather than a crash. */
function majorToMoney(answer: ProviderAnswer, amount: number, currency: string): Money {
  try {
    return { amountMinor: toMinor(amount, currency), currency };
  } catch (cause) {
    if (!(cause instanceof MoneyError)) throw cause;
    throw new ProviderProtocolError(
      `The provider sent an amount that is not money: ${cause.message}`,
      {
        status: answer.status,
        request: answer.request,
        cause,
      },
    );
  }
}

const Text = v.string();
const NonEmptyText = v.pipe(v.string(), v.minLength(1));
const Amount = v.pipe(v.number(), v.finite(), v.minValue(0));

/**
 * The status operation spells success `Successfull`; other answers of the same provider spell it
 * differently. Every spelling we have seen is read here and nowhere else.
 */
export function normalizePaymentStatus(text: string): PaymentStatus | undefined {
  switch (text.trim().toUpperCase()) {
    case 'SUCCESSFULL':
    case 'SUCCESSFUL':
    case 'SUCCESS':
    case 'SUCCEEDED':
    case 'COMPLETED':
      return 'SUCCESSFUL';
    case 'PENDING':
    case 'PROCESSING':
      return 'PENDING';
    case 'FAILED':
    case 'FAILURE':
    case 'DECLINED':
      return 'FAILED';
    default:
      return undefined;
  }
}

/** `Reuseable` (sic) on the wire, 0 and 1 in requests. */
export function normalizeLinkType(value: string | number): LinkType | undefined {
  if (value === 0 || value === 'OneTime') return 'OneTime';
  if (value === 1 || value === 'Reuseable' || value === 'Reusable') return 'Reusable';
  return undefined;
}

/** Payout states, case-insensitively. */
export function normalizePayoutStatus(text: string): PayoutStatus | undefined {
  switch (text.trim().toLowerCase()) {
    case 'pending':
      return 'Pending';
    case 'completed':
    case 'successful':
    case 'success':
      return 'Completed';
    case 'failed':
      return 'Failed';
    case 'reversed':
      return 'Reversed';
    default:
      return undefined;
  }
}

const PaymentStatusText = v.pipe(
  v.string(),
  v.check((text) => normalizePaymentStatus(text) !== undefined, 'is not a known payment status'),
  v.transform((text) => normalizePaymentStatus(text) as PaymentStatus),
);

const TransferInfo = v.looseObject({
  note: Text,
  bank: NonEmptyText,
  account_number: NonEmptyText,
  account_name: NonEmptyText,
  expiration: v.pipe(v.string(), v.isoTimestamp()),
  mode: v.optional(Text),
});

const InitiationValue = v.looseObject({
  paymentStatus: NonEmptyText,
  message: v.nullish(Text),
  bankAuthURL: v.nullish(Text),
  paymentItem: v.looseObject({
    channel: NonEmptyText,
    message: v.nullish(Text),
    amount: Amount,
    fees: v.nullish(Amount),
    reference: NonEmptyText,
    paymentReference: NonEmptyText,
    metaData: v.nullish(
      v.looseObject({
        'transfer-info': v.optional(TransferInfo),
        AuthUrl: v.optional(NonEmptyText),
      }),
    ),
  }),
});

/**
 * Endpoint 3. The response carries no currency, so the caller passes the one it asked for.
 * @example parseInitiation(answer, { currency: 'NGN' }).virtualAccount?.accountNumber
 */
export function parseInitiation(answer: ProviderAnswer, request: { currency: string }): Initiation {
  const value = envelopeValue(answer, InitiationValue);
  const item = value.paymentItem;
  const info = item.metaData?.['transfer-info'];
  const expiresAt = info ? new Date(info.expiration) : undefined;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) {
    throw new ProviderProtocolError(
      `The provider sent an expiration that is not a date: "${info?.expiration}".`,
      { status: answer.status, request: answer.request },
    );
  }
  const virtualAccount: VirtualAccount | null =
    info && expiresAt
      ? {
          bank: info.bank,
          accountNumber: info.account_number,
          accountName: info.account_name,
          note: info.note,
          expiresAt: expiresAt.toISOString(),
        }
      : null;
  return {
    paymentStatus: value.paymentStatus,
    message: value.message ?? item.message ?? '',
    channel: item.channel,
    reference: item.reference,
    paymentReference: item.paymentReference,
    amount: majorToMoney(answer, item.amount, request.currency),
    fees: majorToMoney(answer, item.fees ?? 0, request.currency),
    virtualAccount,
    bankAuthUrl: item.metaData?.AuthUrl || value.bankAuthURL || null,
  };
}

const ValidationValue = v.looseObject({
  isValid: v.boolean(),
  channels: v.array(
    v.looseObject({
      id: Text,
      name: NonEmptyText,
      alias: v.nullish(Text),
      description: v.nullish(Text),
    }),
  ),
});

/** Endpoint 2. */
export function parseChannelValidation(answer: ProviderAnswer): ChannelValidation {
  const value = envelopeValue(answer, ValidationValue);
  return {
    isValid: value.isValid,
    channels: value.channels.map((channel) => ({
      id: channel.id,
      name: channel.name,
      alias: channel.alias ?? channel.name,
      description: channel.description ?? null,
    })),
  };
}

const AuthenticationValue = v.looseObject({
  status: v.nullish(Text),
  IsAuthenticationEnabled: v.boolean(),
  Recommendation: v.nullish(Text),
  message: v.nullish(Text),
  authenticationhtml: v.nullish(Text),
});

/** Endpoint 4. */
export function parseAuthenticationCheck(answer: ProviderAnswer): AuthenticationCheck {
  const value = envelopeValue(answer, AuthenticationValue);
  const html = value.authenticationhtml?.trim() ? value.authenticationhtml : null;
  if (value.IsAuthenticationEnabled && html === null) {
    throw new ProviderProtocolError(
      'The provider asked for authentication but sent no authenticationhtml.',
      { status: answer.status, request: answer.request },
    );
  }
  return {
    status: value.status ?? '',
    authenticationRequired: value.IsAuthenticationEnabled,
    recommendation: value.Recommendation ?? '',
    message: value.message ?? '',
    challengeHtml: value.IsAuthenticationEnabled ? html : null,
  };
}

const FinalizationValue = v.looseObject({ status: PaymentStatusText, message: v.nullish(Text) });

/** Endpoint 5. */
export function parseFinalization(answer: ProviderAnswer): Finalization {
  const value = envelopeValue(answer, FinalizationValue);
  return { status: value.status, message: value.message ?? '' };
}

const AmountInfo = v.looseObject({ currencyCode: NonEmptyText, amount: Amount });

const StatusValue = v.looseObject({
  paymentReference: NonEmptyText,
  amount: AmountInfo,
  paymentStatus: PaymentStatusText,
});

/**
 * What arrived, as an extra the status answer may carry: `amountPaid` in major units like
 * `amount`, as a number or `{ currencyCode, amount }`. Anything else is left out, never a reason
 * to refuse the whole answer.
 */
function amountPaidOf(given: unknown, currency: string): Money | undefined {
  const paid = isRecord(given) ? given : { amount: given, currencyCode: currency };
  const code = paid.currencyCode;
  const amount = paid.amount;
  if (typeof code !== 'string' || typeof amount !== 'number' || !(amount >= 0)) return undefined;
  try {
    return { amountMinor: toMinor(amount, code), currency: code };
  } catch {
    return undefined;
  }
}

/** Endpoint 6; `Successfull` becomes SUCCESSFUL. */
export function parsePaymentStatus(answer: ProviderAnswer): PaymentStatusReport {
  const value = envelopeValue(answer, StatusValue);
  const amount = majorToMoney(answer, value.amount.amount, value.amount.currencyCode);
  const message = (answer.body as { message?: unknown }).message;
  const amountPaid = amountPaidOf(value.amountPaid, amount.currency);
  return {
    paymentReference: value.paymentReference,
    amount,
    paymentStatus: value.paymentStatus,
    ...(typeof message === 'string' && message ? { message } : {}),
    ...(amountPaid ? { amountPaid } : {}),
  };
}

const LinkValue = v.looseObject({
  id: NonEmptyText,
  name: Text,
  description: v.nullish(Text),
  alias: NonEmptyText,
  link: NonEmptyText,
  amountInfo: v.nullish(AmountInfo),
  linkType: v.pipe(
    v.union([v.string(), v.number()]),
    v.check((type) => normalizeLinkType(type) !== undefined, 'is not OneTime or Reuseable'),
    v.transform((type) => normalizeLinkType(type) as LinkType),
  ),
  status: NonEmptyText,
  createdDate: Text,
  environment: v.nullish(Text),
});

/** Endpoint 1; `Reuseable` becomes Reusable. */
export function parsePaymentLink(answer: ProviderAnswer): PaymentLink {
  const value = envelopeValue(answer, LinkValue);
  return {
    id: value.id,
    name: value.name,
    description: value.description ?? '',
    alias: value.alias,
    url: value.link,
    amount: value.amountInfo
      ? majorToMoney(answer, value.amountInfo.amount, value.amountInfo.currencyCode)
      : null,
    linkType: value.linkType,
    status: value.status,
    createdAt: value.createdDate,
    environment: value.environment ?? '',
  };
}

const PaymentMethodsValue = v.array(
  v.looseObject({
    name: NonEmptyText,
    currency: NonEmptyText,
    requireFileUpload: v.optional(v.boolean(), false),
    paymentDestination: v.optional(Text, ''),
    metaData: v.optional(v.record(v.string(), v.string()), {}),
  }),
);

/** Endpoint 7. */
export function parsePayoutRequirements(answer: ProviderAnswer): PayoutRequirement[] {
  return envelopeValue(answer, PaymentMethodsValue).map((method) => ({
    name: method.name,
    currency: method.currency,
    requireFileUpload: method.requireFileUpload,
    paymentDestination: method.paymentDestination,
    fields: method.metaData,
  }));
}

const FundTransferValue = v.looseObject({ reference: NonEmptyText, tenantReference: NonEmptyText });

/**
 * Endpoint 8. 202 and 200 both mean accepted; refusals become ProviderValidationError
 * (with every failed rule), InsufficientBalanceError or ProviderConflictError.
 */
export function parseFundTransfer(answer: ProviderAnswer): FundTransferAccepted {
  const value = envelopeValue(answer, FundTransferValue);
  return { reference: value.reference, tenantReference: value.tenantReference };
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const TransactionListBody = v.looseObject({
  status: v.boolean(),
  data: v.array(
    v.looseObject({
      id: v.union([NonEmptyText, v.pipe(v.number(), v.transform(String))]),
      amount: v.pipe(v.number(), v.integer()),
      currency: NonEmptyText,
      status: Text,
    }),
  ),
  meta: v.looseObject({
    page: v.pipe(v.number(), v.integer(), v.minValue(1)),
    pageCount: Count,
    total: Count,
    perPage: v.pipe(v.number(), v.integer(), v.minValue(1)),
    skipped: Count,
  }),
});

/** Endpoint 9: its own envelope; amounts are already integer subunits. */
export function parseTransactionPage(answer: ProviderAnswer): TransactionPage {
  if (answer.status >= 400 || (answer.body as { status?: unknown } | undefined)?.status === false) {
    throw errorFromAnswer(answer);
  }
  const body = shaped(answer, answer.body, TransactionListBody, 'body');
  return {
    items: body.data.map((item) => ({
      id: item.id,
      amount: { amountMinor: item.amount, currency: item.currency },
      status: item.status,
      raw: item,
    })),
    meta: body.meta,
    isLastPage: body.meta.page >= body.meta.pageCount,
  };
}

const WEBHOOK_EVENTS: readonly WebhookEventName[] = [
  'payment.success',
  'payment.failed',
  'payout.success',
  'payout.failed',
  'payout.reversed',
];

/** Reads the first field that holds a non-empty string among several possible names. */
function firstText(record: Record<string, unknown>, names: readonly string[]): string | null {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a webhook tolerantly: the payload shape is not shown by the provider, so the event name
 * and reference are looked for under the names real providers use. The result is a hint to be
 * confirmed with the status operation, never proof. Returns undefined for what cannot be a
 * webhook of ours (no known event, no reference).
 */
export function parseWebhookEvent(body: unknown): WebhookEvent | undefined {
  if (!isRecord(body)) return undefined;
  const eventName = firstText(body, ['event', 'eventType', 'type', 'event_type']);
  const event = WEBHOOK_EVENTS.find((name) => name === eventName?.trim().toLowerCase());
  if (!event) return undefined;
  const data = isRecord(body.data) ? body.data : isRecord(body.payload) ? body.payload : body;
  const isPayout = event.startsWith('payout.');
  const reference = isPayout
    ? firstText(data, ['reference', 'transactionReference', 'tenantReference'])
    : firstText(data, ['paymentReference', 'reference', 'transactionReference']);
  if (reference === null) return undefined;
  const currency = firstText(data, ['currency', 'currencyCode'])?.toUpperCase() ?? null;
  return {
    id: firstText(body, ['id', 'eventId', 'webhookId']),
    event,
    reference,
    tenantReference: firstText(data, ['tenantReference']),
    status: firstText(data, ['status', 'paymentStatus']),
    amount: currency === null ? null : webhookAmount(data.amount, currency, isPayout),
  };
}

function webhookAmount(amount: unknown, currency: string, isPayout: boolean): Money | null {
  try {
    // Payout amounts follow the fund transfer (minor-unit digit string); payments, initiation.
    if (isPayout && typeof amount === 'string') {
      return { amountMinor: parseMinorString(amount), currency };
    }
    if (typeof amount === 'number' || typeof amount === 'string') {
      return { amountMinor: toMinor(amount, currency), currency };
    }
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
  }
  return null;
}
