/**
 * Every failure of a provider call is a ProviderError or one of its few subclasses, so callers
 * branch on `error.name` (a literal) or `instanceof`, never on message text. No error ever holds
 * a header: the secret key travels in `X-Api` and must not reach a log through an error.
 */

/** Which call failed: method and URL only, never headers or body. */
export interface FailedRequest {
  readonly method: string;
  readonly url: string;
}

export interface ProviderErrorOptions {
  readonly status: number;
  readonly request?: FailedRequest | undefined;
  readonly responseCode?: string | undefined;
  readonly traceId?: string | undefined;
  readonly cause?: unknown;
}

/** The provider refused or failed a call; `status` is the HTTP status (0 when none came back). */
export class ProviderError extends Error {
  override readonly name: string = 'ProviderError';
  readonly status: number;
  readonly request: FailedRequest | undefined;
  readonly responseCode: string | undefined;
  readonly traceId: string | undefined;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.request = options.request;
    this.responseCode = options.responseCode;
    this.traceId = options.traceId;
  }
}

/** 400 ValidationException: `failures` holds one text per violated rule. */
export class ProviderValidationError extends ProviderError {
  override readonly name = 'ProviderValidationError' as const;
  readonly failures: readonly string[];

  constructor(message: string, failures: readonly string[], options: ProviderErrorOptions) {
    super(message, options);
    this.failures = failures;
  }
}

/** 400 on a fund transfer whose amount exceeds the wallet's balance. */
export class InsufficientBalanceError extends ProviderError {
  override readonly name = 'InsufficientBalanceError' as const;
}

/** 401: the secret key is missing or wrong. */
export class ProviderAuthError extends ProviderError {
  override readonly name = 'ProviderAuthError' as const;
}

/** 404: no such payment, link, payout or path. */
export class ProviderNotFoundError extends ProviderError {
  override readonly name = 'ProviderNotFoundError' as const;
}

/** 409: the request clashes with the resource's state (a paid one-time link, a reused reference). */
export class ProviderConflictError extends ProviderError {
  override readonly name = 'ProviderConflictError' as const;
}

/** 429: slow down; `retryAfterSeconds` comes from the `Retry-After` header when present. */
export class ProviderRateLimitError extends ProviderError {
  override readonly name = 'ProviderRateLimitError' as const;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    retryAfterSeconds: number | undefined,
    options: ProviderErrorOptions,
  ) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 5xx, or no answer at all (status 0): the provider could not serve the call. */
export class ProviderUnavailableError extends ProviderError {
  override readonly name = 'ProviderUnavailableError' as const;
}

/** No answer within the deadline: the call may or may not have taken effect. */
export class ProviderTimeoutError extends ProviderError {
  override readonly name = 'ProviderTimeoutError' as const;
}

/** The answer was not what the interface promises: not JSON, or a field missing or mistyped. */
export class ProviderProtocolError extends ProviderError {
  override readonly name = 'ProviderProtocolError' as const;
}
