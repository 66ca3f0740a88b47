/**
 * What the companion answers the browser when something goes wrong: a stable machine-readable
 * `code` the widget can act on, a message safe to show a developer, and a request id to find the
 * server's log line. Provider internals (their messages, trace ids, URLs) never pass through.
 */

import { answerHeadersFor, textAnswer } from '../../node/hand-off';
import {
  ProviderConflictError,
  ProviderError,
  ProviderNotFoundError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderValidationError,
} from '../../protocol';
import {
  CHECKOUT_ERROR_STATUS,
  type CheckoutErrorCode,
  type PaidCheckoutWire,
  type PaymentViewWire,
} from '../../protocol/contract';
import { isStoreUnavailable } from '../store';
import type { CheckoutLogger } from './logger';

export { CHECKOUT_ERROR_STATUS, type CheckoutErrorCode };

export interface CheckoutErrorOptions {
  readonly cause?: unknown;
  /** Field-level problems of a bad request, e.g. `["order must be a string"]`. */
  readonly issues?: readonly string[];
  readonly retryAfterSeconds?: number | undefined;
  /** `already_paid` and `payment_pending`: the earlier payment to show or watch, and its token. */
  readonly payment?: { readonly view: PaymentViewWire; readonly token: string } | undefined;
  /** `already_paid` from `/session`: what was paid, so the dialog is titled for it (issue 12). */
  readonly checkout?: PaidCheckoutWire | undefined;
  /**
   * The HTTP status when not the code's own: `unavailable` is 502 when the provider fails, 503
   * when the companion itself cannot serve (its store is unreachable).
   */
  readonly status?: 503 | undefined;
}

export class CheckoutError extends Error {
  override readonly name = 'CheckoutError' as const;
  readonly code: CheckoutErrorCode;
  readonly status: number;
  readonly issues: readonly string[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly payment: CheckoutErrorOptions['payment'];
  readonly checkout: PaidCheckoutWire | undefined;

  constructor(code: CheckoutErrorCode, message: string, options: CheckoutErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? CHECKOUT_ERROR_STATUS[code];
    this.issues = options.issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.payment = options.payment;
    this.checkout = options.checkout;
  }

  /** The JSON answer for the browser. */
  toResponse(requestId: string, headers: Headers = new Headers()): Response {
    headers.set('content-type', 'application/json; charset=utf-8');
    headers.set('cache-control', 'no-store');
    headers.set('x-request-id', requestId);
    if (this.retryAfterSeconds !== undefined)
      headers.set('retry-after', String(this.retryAfterSeconds));
    const body = {
      error: {
        code: this.code,
        message: this.message,
        requestId,
        ...(this.issues ? { issues: this.issues } : {}),
      },
      ...(this.payment ? { payment: this.payment.view, token: this.payment.token } : {}),
      ...(this.checkout ? { checkout: this.checkout } : {}),
    };
    return textAnswer(JSON.stringify(body), { status: this.status, headers });
  }
}

/**
 * Maps a provider failure to the code the widget acts on. The provider's own text stays in the
 * server log (via `cause`), never in the answer.
 */
export function fromProviderError(error: ProviderError): CheckoutError {
  const options = { cause: error };
  if (error instanceof ProviderValidationError) {
    return new CheckoutError('invalid', 'The provider refused the payment details.', options);
  }
  if (error instanceof ProviderConflictError) {
    return new CheckoutError(
      'conflict',
      'The provider refused this step in the payment’s current state.',
      options,
    );
  }
  if (error instanceof ProviderNotFoundError) {
    return new CheckoutError('not_found', 'The provider does not know this payment.', options);
  }
  if (error instanceof ProviderRateLimitError) {
    return new CheckoutError('rate_limited', 'Too many requests; try again shortly.', {
      ...options,
      retryAfterSeconds: error.retryAfterSeconds ?? 1,
    });
  }
  if (error instanceof ProviderTimeoutError) {
    return new CheckoutError('timeout', 'The payment provider did not answer in time.', options);
  }
  return new CheckoutError(
    'unavailable',
    'The payment provider is unavailable; try again shortly.',
    options,
  );
}

/** How long a client is told to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** Any thrown value as a CheckoutError; what we do not recognise is `internal`. */
export function toCheckoutError(error: unknown): CheckoutError {
  if (error instanceof CheckoutError) return error;
  if (error instanceof ProviderError) return fromProviderError(error);
  // The one place a store's outage becomes an answer: 503 and when to try again, at once,
  // rather than `internal` (issue 20, item 6). The cause (which store, why) goes to the log.
  if (isStoreUnavailable(error)) {
    return new CheckoutError(
      'unavailable',
      'The checkout cannot reach its storage right now; try again shortly.',
      { cause: error, status: 503, retryAfterSeconds: STORE_RETRY_AFTER_SECONDS },
    );
  }
  return new CheckoutError('internal', 'The checkout server failed unexpectedly.', {
    cause: error,
  });
}

/** The codes that are the server's or the provider's fault: logged, with the cause. */
const LOGGED_CODES: ReadonlySet<CheckoutErrorCode> = new Set([
  'internal',
  'unavailable',
  'timeout',
]);

/**
 * The answer to a request that failed, in both handlers: the error as a CheckoutError, its JSON
 * answer, and a log line when the fault is the server's or the provider's (the request id ties
 * the line to the answer; the cause, which the answer never shows, is in the line). The logger is
 * the handler's redacting one, so a provider that quotes the key back leaves it out.
 */
export function failureAnswer(
  error: unknown,
  context: {
    readonly requestId: string;
    readonly logger: CheckoutLogger;
    /** The path asked for, for the log. */
    readonly path: string;
    readonly headers?: Headers | undefined;
  },
): { readonly failure: CheckoutError; readonly response: Response } {
  const failure = toCheckoutError(error);
  if (LOGGED_CODES.has(failure.code)) {
    context.logger.error(`paydrop: ${failure.code} (${context.requestId})`, {
      path: context.path,
      message: failure.message,
      cause:
        failure.cause instanceof Error
          ? `${failure.cause.name}: ${failure.cause.message}`
          : failure.cause === undefined
            ? undefined
            : String(failure.cause),
    });
  }
  return { failure, response: failure.toResponse(context.requestId, context.headers) };
}

/** A JSON answer of either handler: never cached, never sniffed as another type. */
export function jsonAnswer(
  body: unknown,
  status = 200,
  headers: Headers = new Headers(),
): Response {
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  // Written by this package's Node adapter as the text, without a body stream (textAnswer).
  return textAnswer(JSON.stringify(body), { status, headers });
}

/**
 * The headers to answer `request` with: marked for a request of this package's Node adapter, so
 * that jsonAnswer's answers are written without a body stream (answerHeadersFor, hand-off.ts).
 */
export function answerHeaders(request: Request): Headers {
  return answerHeadersFor(request);
}
