// Standard Webhooks signing and verification: https://www.standardwebhooks.com/
// (spec: https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
// Both the sandbox (which signs) and the companion server (which verifies) import this file, so it
// uses only web-standard APIs and imports nothing of ours.

/**
 * The three headers that carry a Standard Webhooks signature.
 *
 * @example
 * const headers: WebhookHeaders = await signWebhook({ id, timestamp, body, secret });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Why a webhook was rejected.
 *
 * @example
 * if (error instanceof WebhookVerificationError && error.reason === 'too-old') {
 *   // a replay, or a delivery stuck in a queue for too long
 * }
 */
export type WebhookVerificationReason =
  | 'missing-headers'
  | 'bad-timestamp'
  | 'too-old'
  | 'too-new'
  | 'bad-signature'
  | 'bad-secret';

/**
 * Thrown when a webhook cannot be trusted, or when a configured secret is unusable. Its message
 * never contains a secret, so it is safe to log.
 *
 * @example
 * try {
 *   await verifyWebhook({ headers: request.headers, body, secrets: [secret] });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) return new Response(error.message, { status: 400 });
 *   throw error;
 * }
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError' as const;
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_VERSION = 'v1';
const SIGNATURE_BYTES = 32; // HMAC-SHA256
const SECRET_BYTES = 24;
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Signs a webhook body, for the sender.
 *
 * @example
 * const headers = await signWebhook({
 *   id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
 *   timestamp: Math.floor(Date.now() / 1000),
 *   body: JSON.stringify(event),
 *   secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
 * });
 */
export async function signWebhook(options: {
  id: string;
  timestamp: number;
  body: string;
  secret: string;
}): Promise<WebhookHeaders> {
  const { id, timestamp, body, secret } = options;
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(
      `A webhook timestamp must be whole seconds since the epoch, got ${timestamp}.`,
    );
  }
  const key = await importSecret(secret, 0, 'sign');
  const signature = await crypto.subtle.sign(
    'HMAC',
    key,
    signedContent(id, String(timestamp), body),
  );
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `${SIGNATURE_VERSION},${encodeBase64(new Uint8Array(signature))}`,
  };
}

/**
 * Creates a fresh secret in the `whsec_` form that Standard Webhooks senders and receivers share.
 *
 * @example
 * const secret = generateWebhookSecret(); // 'whsec_…', store it on both sides
 */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/**
 * Checks that a webhook was signed with one of `secrets` and is fresh, for the receiver. Pass
 * the raw body exactly as received: parsing and re-serialising it changes the bytes and breaks
 * the signature.
 *
 * @throws {WebhookVerificationError} with the `reason` the webhook was rejected for.
 * @example
 * const body = await request.text();
 * const { id } = await verifyWebhook({
 *   headers: request.headers,
 *   body,
 *   secrets: [currentSecret, previousSecret],
 * });
 */
export async function verifyWebhook(options: {
  // WebhookHeaders is listed because an interface has no implicit index signature, and the
  // sandbox's tests hand signWebhook's result straight to verifyWebhook.
  headers: Headers | WebhookHeaders | Record<string, string | undefined>;
  body: string;
  secrets: readonly string[];
  /** How far the timestamp may be from now, either way, in seconds. Defaults to 300. */
  toleranceSeconds?: number;
  /** The clock, in milliseconds. Defaults to `Date.now`. */
  now?: () => number;
}): Promise<{ id: string; timestamp: number }> {
  const { headers, body, secrets } = options;
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(
      `toleranceSeconds must be a non-negative number, got ${toleranceSeconds}.`,
    );
  }

  // Secrets first: a misconfigured server should say so on every request, not hide behind
  // whatever happens to be wrong with the request in hand.
  if (secrets.length === 0) {
    throw new WebhookVerificationError('bad-secret', 'No webhook secret is configured.');
  }
  const keys = await Promise.all(
    secrets.map((secret, index) => importSecret(secret, index, 'verify')),
  );

  const id = readHeader(headers, 'webhook-id');
  const timestampHeader = readHeader(headers, 'webhook-timestamp');
  const signatureHeader = readHeader(headers, 'webhook-signature');
  if (id === undefined || timestampHeader === undefined || signatureHeader === undefined) {
    const missing = [
      id === undefined && 'webhook-id',
      timestampHeader === undefined && 'webhook-timestamp',
      signatureHeader === undefined && 'webhook-signature',
    ].filter(Boolean);
    throw new WebhookVerificationError(
      'missing-headers',
      `The webhook is missing the ${missing.join(', ')} header${missing.length > 1 ? 's' : ''}.`,
    );
  }

  // Number() alone would accept '1e9', ' 12', '0x10' and '1.0'; the spec wants plain digits.
  const timestamp = /^\d+$/.test(timestampHeader) ? Number(timestampHeader) : Number.NaN;
  if (!Number.isSafeInteger(timestamp)) {
    throw new WebhookVerificationError(
      'bad-timestamp',
      'The webhook-timestamp header is not a whole number of seconds since the epoch.',
    );
  }

  // The timestamp window is what makes a captured webhook useless for a replay later on.
  const nowSeconds = Math.floor(now() / 1000);
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new WebhookVerificationError(
      'too-old',
      `The webhook timestamp ${timestamp} is more than ${toleranceSeconds}s in the past.`,
    );
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      'too-new',
      `The webhook timestamp ${timestamp} is more than ${toleranceSeconds}s in the future.`,
    );
  }

  const content = signedContent(id, timestampHeader, body);
  const signatures = parseSignatures(signatureHeader);
  for (const key of keys) {
    for (const signature of signatures) {
      // subtle.verify compares in constant time, so a forger learns nothing from how long the
      // comparison took.
      if (await crypto.subtle.verify('HMAC', key, signature, content)) {
        return { id, timestamp };
      }
    }
  }
  throw new WebhookVerificationError(
    'bad-signature',
    signatures.length === 0
      ? `The webhook-signature header holds no ${SIGNATURE_VERSION} signature.`
      : 'No signature in the webhook-signature header matches a configured secret.',
  );
}

function signedContent(id: string, timestamp: string, body: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${id}.${timestamp}.${body}`);
}

/** `index` names the secret in the error, because the secret itself must never be shown. */
async function importSecret(
  secret: string,
  index: number,
  usage: 'sign' | 'verify',
): Promise<CryptoKey> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const keyBytes = decodeBase64(encoded);
  // Web Crypto refuses an empty HMAC key, and an empty key would be no secret anyway.
  if (keyBytes === undefined || keyBytes.length === 0) {
    throw new WebhookVerificationError(
      'bad-secret',
      `Webhook secret #${index + 1} is not base64 key bytes (optionally prefixed with ${SECRET_PREFIX}).`,
    );
  }
  return crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    usage,
  ]);
}

/**
 * The header may carry several space-separated `<version>,<signature>` entries so that a sender
 * can sign with an old and a new secret during rotation. Only v1 is defined; entries of any other
 * version are skipped, and so are v1 entries that cannot be an HMAC-SHA256, so a junk entry is just
 * a non-match.
 */
function parseSignatures(header: string): Uint8Array<ArrayBuffer>[] {
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const entry of header.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== SIGNATURE_VERSION) continue;
    const bytes = decodeBase64(entry.slice(comma + 1));
    if (bytes !== undefined && bytes.length === SIGNATURE_BYTES) signatures.push(bytes);
  }
  return signatures;
}

function readHeader(
  headers: Headers | WebhookHeaders | Record<string, string | undefined>,
  name: string,
): string | undefined {
  const value =
    headers instanceof Headers
      ? headers.get(name)
      : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return value === null || value === undefined || value === '' ? undefined : value;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
