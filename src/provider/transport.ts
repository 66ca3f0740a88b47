/**
 * How every call reaches the provider: the key in `X-Api`, a deadline on each attempt, and
 * retries with capped, jittered backoff only where a second attempt cannot do harm. Network,
 * time and randomness come in as options so tests can fake them.
 */
import {
  errorFromAnswer,
  type FailedRequest,
  type OperationName,
  type ProviderAnswer,
  ProviderError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  readAnswer,
  SECRET_KEY_HEADER,
} from '../protocol';
import { providerFetch } from './provider-fetch';

/**
 * When a call may be sent again:
 * - `safe`: reads (status, the authentication check), retried on connection errors, timeouts,
 *   429 and 5xx;
 * - `idempotent`: writes the provider dedupes by a key of ours (the fund transfer's
 *   tenantReference), retried the same way with the same body;
 * - `never`: initiation and finalize; a timeout is reported, never sent blindly again.
 */
export type RetryPolicy = 'safe' | 'idempotent' | 'never';

export interface ProviderTransportOptions {
  /** The provider's `{base_url}`, e.g. https://api.provider.example or a sandbox's URL. */
  readonly baseUrl: string;
  /** `{sandbox_base_url}` for the transaction list; defaults to `baseUrl`. */
  readonly listBaseUrl?: string | undefined;
  readonly secretKey: string;
  /** Deadline of one attempt, in ms. Default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Attempts in all for retryable calls. Default 3. */
  readonly attempts?: number | undefined;
  /** First backoff step in ms (doubles each time, full jitter). Default 200. */
  readonly backoffMs?: number | undefined;
  /** Longest single wait between attempts, Retry-After included, in ms. Default 5000. */
  readonly maxBackoffMs?: number | undefined;
  /**
   * Default: fetch, or on Node fetch's own dispatcher without its streams (provider-fetch.ts).
   * Called with `redirect: 'manual'`: redirects are followed by the transport, on the
   * provider's origin only.
   */
  readonly fetch?: typeof fetch | undefined;
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  readonly random?: (() => number) | undefined;
}

export interface ProviderCall {
  readonly operation: OperationName;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly retry: RetryPolicy;
  /** Per-call deadline override, in ms. */
  readonly timeoutMs?: number | undefined;
}

export interface ProviderTransport {
  send(call: ProviderCall): Promise<ProviderAnswer>;
}

/** A base URL must be absolute http(s); a missing one is a start-up error, not a 500 later. */
export function checkBaseUrl(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${name} is required: the provider's base URL (or a sandbox's).`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value is not quoted: a key pasted into the wrong setting must not reach a log.
    throw new TypeError(`${name} must be an absolute URL such as https://api.provider.example.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${name} must be an http: or https: URL, not ${url.protocol}.`);
  }
  return url.href.replace(/\/+$/, '');
}

export function checkSecretKey(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError('secretKey is required: the merchant secret key for the X-Api header.');
  }
  return value;
}

/**
 * A provider that quotes the request back (some echo headers in their errors) must not carry the
 * key into an error message or a log: every string in the answer loses it here.
 */
function redact(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value.split(secret).join('[redacted]');
  if (Array.isArray(value)) return value.map((item) => redact(item, secret));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, redact(inner, secret)]),
    );
  }
  return value;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Redirects followed before giving up, as fetch (Fetch's limit). */
const MAX_REDIRECTS = 20;

/**
 * `url` sent with `init`, the provider's redirects followed here rather than by fetch: hop by
 * hop, and only on the provider's own origin. fetch would carry every header of the call, the
 * secret key among them, to whatever origin a redirect names (Fetch drops only Authorization),
 * so whatever fetch is given is asked with `redirect: 'manual'`, and a redirect to another origin
 * is answered as it is. As fetch: 303, and 301/302 after a POST, go on as a GET without a body.
 */
async function sendFollowing(
  send: typeof fetch,
  url: string,
  init: RequestInit & { readonly headers: Record<string, string> },
  request: FailedRequest,
): Promise<Response> {
  let at = new URL(url);
  let next = init;
  for (let hops = 0; ; hops++) {
    const response = await send(at.href, { ...next, redirect: 'manual' });
    const location = REDIRECT.has(response.status) ? response.headers.get('location') : null;
    const target = location === null ? null : URL.parse(location, at);
    if (target?.origin !== at.origin) return response;
    await response.body?.cancel();
    if (hops === MAX_REDIRECTS)
      throw new ProviderUnavailableError('The provider redirected the call too many times.', {
        status: response.status,
        request,
      });
    const toGet =
      response.status === 303
        ? next.method !== 'HEAD'
        : response.status <= 302 && next.method === 'POST';
    if (toGet) {
      const { 'content-type': _sent, ...headers } = next.headers;
      const { body: _body, ...rest } = next;
      next = { ...rest, method: 'GET', headers };
    }
    at = target;
  }
}

export function createProviderTransport(options: ProviderTransportOptions): ProviderTransport {
  const baseUrl = checkBaseUrl('baseUrl', options.baseUrl);
  const listBaseUrl = checkBaseUrl('listBaseUrl', options.listBaseUrl ?? options.baseUrl);
  const secretKey = checkSecretKey(options.secretKey);
  const send = options.fetch ?? providerFetch;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 200;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;

  function withoutSecret(answer: ProviderAnswer): ProviderAnswer {
    if (answer.body === undefined || !JSON.stringify(answer.body).includes(secretKey))
      return answer;
    return { ...answer, body: redact(answer.body, secretKey) };
  }

  async function attempt(call: ProviderCall, request: FailedRequest): Promise<ProviderAnswer> {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 10_000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await sendFollowing(
        send,
        request.url,
        {
          method: call.method,
          headers: {
            [SECRET_KEY_HEADER]: secretKey,
            accept: 'application/json',
            ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          signal: controller.signal,
        },
        request,
      );
      return withoutSecret(await readAnswer(response, request));
    } catch (cause) {
      if (cause instanceof ProviderError) throw cause;
      // The cause is dropped on purpose: fetch errors can quote the request, headers included.
      if (controller.signal.aborted) {
        throw new ProviderTimeoutError(`The provider did not answer within ${timeoutMs} ms.`, {
          status: 0,
          request,
        });
      }
      throw new ProviderUnavailableError('The provider could not be reached.', {
        status: 0,
        request,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  function retryable(error: unknown, policy: RetryPolicy): boolean {
    if (policy === 'never' || !(error instanceof ProviderError)) return false;
    return (
      error instanceof ProviderTimeoutError ||
      error instanceof ProviderUnavailableError ||
      error instanceof ProviderRateLimitError
    );
  }

  function waitBefore(retry: number, error: unknown): number {
    const ceiling = Math.min(maxBackoffMs, backoffMs * 2 ** retry);
    const jittered = Math.floor(random() * ceiling);
    if (error instanceof ProviderRateLimitError && error.retryAfterSeconds !== undefined) {
      return Math.min(maxBackoffMs, Math.max(jittered, error.retryAfterSeconds * 1000));
    }
    return jittered;
  }

  return {
    async send(call) {
      const base = call.operation === 'transactions' ? listBaseUrl : baseUrl;
      const request: FailedRequest = { method: call.method, url: base + call.path };
      for (let index = 0; ; index++) {
        try {
          const answer = await attempt(call, request);
          // 429 and 5xx come back as answers; turn them into errors here to decide on a retry.
          if (answer.status === 429 || answer.status >= 500) throw errorFromAnswer(answer);
          return answer;
        } catch (error) {
          if (index + 1 >= attempts || !retryable(error, call.retry)) throw error;
          await sleep(waitBefore(index, error));
        }
      }
    },
  };
}
