/**
 * What both handlers (the checkout's and the back office's) log through, and the one wrapper they
 * put around it, so that no log line can carry the secret key or the token secret, whatever a
 * message or its details quote: a provider that echoes the request, a merchant hook whose error
 * names the key, a stack. Here in the http room because every room above logs.
 */

/** The merchant's logger (default: the console). Public as `CheckoutLogger`. */
export interface CheckoutLogger {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** The default when the merchant gives none. */
export const consoleLogger: CheckoutLogger = {
  warn: (message, details) => console.warn(message, details ?? ''),
  error: (message, details) => console.error(message, details ?? ''),
};

/** Wraps `logger` so that every string it is given, however deep, loses each of `secrets`. */
export function redactingLogger(
  logger: CheckoutLogger,
  secrets: readonly string[],
): CheckoutLogger {
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return secrets.reduce(
        (text, secret) => (secret ? text.split(secret).join('[redacted]') : text),
        value,
      );
    }
    if (Array.isArray(value)) return value.map(redact);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redact(inner)]));
    }
    return value;
  };
  return {
    warn: (message, details) =>
      logger.warn(redact(message) as string, redact(details) as Record<string, unknown>),
    error: (message, details) =>
      logger.error(redact(message) as string, redact(details) as Record<string, unknown>),
  };
}

/** Every secret a handler holds, none of which may reach a log line. */
export interface HandlerSecrets {
  readonly secretKey: string;
  /** The checkout token's signing secrets (the checkout's handler only). */
  readonly tokenSecrets?: readonly string[] | undefined;
  /** The Standard Webhooks signing secrets. */
  readonly webhookSecrets?: readonly string[] | undefined;
}

/**
 * The logger a handler writes through: the merchant's (or the console), redacting every secret
 * the handler holds. Both handlers make theirs here, so neither can forget one.
 */
export function handlerLogger(
  given: CheckoutLogger | undefined,
  secrets: HandlerSecrets,
): CheckoutLogger {
  return redactingLogger(given ?? consoleLogger, [
    secrets.secretKey,
    ...(secrets.tokenSecrets ?? []),
    ...(secrets.webhookSecrets ?? []),
  ]);
}
