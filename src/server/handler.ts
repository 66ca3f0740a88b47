/**
 * The companion as one function from Request to Response. It answers only what a checkout
 * needs — start, initiate, the authentication check, finalize, status, the status stream, the
 * bank's return page, the challenge page — and the provider's webhooks. No payouts, no links,
 * no list, no pass-through: nothing else answers.
 */
import * as v from 'valibot';
import { createProviderClient } from '../provider/client';
import { createProviderTransport } from '../provider/transport';
import { CheckoutError, toCheckoutError } from './errors';
import { eventStream } from './events';
import { type CheckoutHandlerOptions, type CheckoutLogger, checkOptions } from './options';
import { ASSETS, challengeFrame, challengePage, missingPage, returnPage } from './pages';
import { createPaymentService } from './payments';
import { readCapped } from './read-body';
import { InitiateInput, issuesOf, SessionInput } from './schemas';
import { createMemoryStore } from './store';
import { type CheckoutClaims, createTokenSigner } from './token';
import { createWebhookReceiver } from './webhooks';

/** Browser bodies are small: an order id, a channel, a card. */
const MAX_BODY_BYTES = 8 * 1024;

export interface CheckoutHandler {
  (request: Request): Promise<Response>;
  /** Resolves once background work (webhook confirmation) has finished; for tests and shutdown. */
  idle(): Promise<void>;
  /** Cancels pending re-checks. The handler answers 503 afterwards. */
  close(): void;
}

/** Wraps a logger so that no line can carry the secret key, whatever a message quotes. */
function redactingLogger(logger: CheckoutLogger, secrets: readonly string[]): CheckoutLogger {
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

const consoleLogger: CheckoutLogger = {
  warn: (message, details) => console.warn(message, details ?? ''),
  error: (message, details) => console.error(message, details ?? ''),
};

/**
 * @example
 * const checkout = createCheckoutHandler({
 *   secretKey: process.env.PROVIDER_SECRET_KEY,
 *   baseUrl: process.env.PROVIDER_BASE_URL,
 *   resolveOrder: async (id) => ({ amountMinor: 250050, currency: 'NGN', description: `Order ${id}` }),
 *   onPaymentOutcome: async (outcome) => { if (outcome.status === 'SUCCESSFUL') await fulfil(outcome.orderId); },
 * });
 * // Next.js: export const GET = checkout, POST = checkout;  Node: http.createServer(toNodeListener(checkout))
 */
export function createCheckoutHandler(options: CheckoutHandlerOptions): CheckoutHandler {
  checkOptions(options);
  const basePath = (options.basePath ?? '/api/checkout').replace(/\/+$/, '');
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const logger = redactingLogger(options.logger ?? consoleLogger, [
    options.secretKey,
    options.tokenSecret ?? '',
  ]);
  const store = options.store ?? createMemoryStore();
  const signer = createTokenSigner(options.tokenSecret ?? options.secretKey);
  const provider = createProviderClient(
    options,
    createProviderTransport({
      baseUrl: options.baseUrl,
      listBaseUrl: options.listBaseUrl,
      secretKey: options.secretKey,
      timeoutMs: options.timeouts?.providerMs,
      fetch: options.fetch,
    }),
  );
  const pending = new Set<Promise<unknown>>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;

  function background(work: () => Promise<unknown>): void {
    if (closed) return;
    const running = work()
      .catch((error) => logger.error('paydrop: background work failed', { error: String(error) }))
      .finally(() => pending.delete(running));
    pending.add(running);
    options.waitUntil?.(running);
  }

  function later(delayMs: number, work: () => void): void {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, delayMs);
    timers.add(timer);
  }

  const payments = createPaymentService({
    options,
    provider,
    store,
    signer,
    logger,
    now: Date.now,
    background,
    later,
  });
  const receiveWebhook = createWebhookReceiver({
    options,
    provider,
    payments,
    store,
    logger,
    background,
    later,
  });

  function publicUrlOf(request: Request): string {
    return options.publicUrl?.replace(/\/+$/, '') ?? new URL(request.url).origin + basePath;
  }

  /** Same origin as the companion, or one the merchant allowed. */
  function originAllowed(origin: string, request: Request): boolean {
    return origin === new URL(publicUrlOf(request)).origin || allowedOrigins.has(origin);
  }

  function corsHeaders(request: Request): Headers {
    const headers = new Headers({ vary: 'Origin' });
    const origin = request.headers.get('origin');
    if (origin && allowedOrigins.has(origin)) {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-expose-headers', 'x-request-id, retry-after');
    }
    return headers;
  }

  function json(body: unknown, headers: Headers, status = 200): Response {
    headers.set('content-type', 'application/json; charset=utf-8');
    headers.set('cache-control', 'no-store');
    return new Response(JSON.stringify(body), { status, headers });
  }

  async function readJson(request: Request): Promise<unknown> {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new CheckoutError(
        'unsupported_media_type',
        'Send JSON with Content-Type: application/json.',
      );
    }
    const text = await readCapped(request, MAX_BODY_BYTES, { logger });
    if (text === undefined)
      throw new CheckoutError(
        'body_too_large',
        `The body must be at most ${MAX_BODY_BYTES / 1024} KB.`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new CheckoutError('invalid_json', 'The body is not valid JSON.');
    }
  }

  function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
    const result = v.safeParse(schema, input);
    if (!result.success) {
      throw new CheckoutError('invalid_request', 'The request is not valid.', {
        issues: issuesOf(result.issues),
      });
    }
    return result.output;
  }

  function tokenOf(request: Request, url: URL): string {
    const header = request.headers.get('authorization');
    const token = header?.startsWith('Bearer ')
      ? header.slice(7).trim()
      : url.searchParams.get('token');
    if (!token) throw new CheckoutError('unauthorized', 'This call needs the checkout token.');
    return token;
  }

  async function claimsOf(
    request: Request,
    url: URL,
    scope?: CheckoutClaims['scope'],
  ): Promise<CheckoutClaims> {
    const check = signer.verify(tokenOf(request, url), Math.floor(Date.now() / 1000));
    if (!check.ok) {
      throw new CheckoutError(
        'unauthorized',
        check.reason === 'expired'
          ? 'The checkout has expired; start it again.'
          : 'The checkout token is not valid.',
      );
    }
    // A frame ticket opens the challenge markup and nothing else; a checkout token, not that.
    if (check.claims.scope !== scope) {
      throw new CheckoutError('unauthorized', 'The checkout token is not valid here.');
    }
    return check.claims;
  }

  /** The token of one payment; it opens that payment and no other. */
  async function paymentClaims(
    request: Request,
    url: URL,
    scope?: CheckoutClaims['scope'],
  ): Promise<CheckoutClaims & { reference: string }> {
    const claims = await claimsOf(request, url, scope);
    if (!claims.reference) throw new CheckoutError('not_initiated', 'Start the payment first.');
    return claims as CheckoutClaims & { reference: string };
  }

  async function route(
    request: Request,
    url: URL,
    path: string,
    headers: Headers,
  ): Promise<Response> {
    const method = request.method;
    const publicUrl = publicUrlOf(request);
    const assetsUrl = `${publicUrl}/assets`;
    /** The page that opened the checkout: the only one that may frame the challenge, or hear it. */
    const pageOrigin = (claims: CheckoutClaims) => claims.origin ?? new URL(publicUrl).origin;
    const key = `${method} ${path}`;
    switch (key) {
      case 'POST /session': {
        const input = parse(SessionInput, await readJson(request));
        return json(
          await payments.startSession(input, request.headers.get('origin'), request),
          headers,
        );
      }
      case 'POST /initiate': {
        const claims = await claimsOf(request, url);
        const input = parse(InitiateInput, await readJson(request));
        const allowedReturn = (target: string) => originAllowed(new URL(target).origin, request);
        return json(await payments.initiate(claims, input, publicUrl, allowedReturn), headers);
      }
      case 'POST /authenticate': {
        const claims = await paymentClaims(request, url);
        const token = tokenOf(request, url);
        const challengeUrl = `${publicUrl}/challenge?token=${encodeURIComponent(token)}`;
        return json(await payments.authenticate(claims.reference, challengeUrl), headers);
      }
      case 'POST /finalize': {
        const claims = await paymentClaims(request, url);
        return json(await payments.finalize(claims.reference), headers);
      }
      case 'GET /status': {
        const claims = await paymentClaims(request, url);
        return json(await payments.status(claims.reference), headers);
      }
      case 'GET /events': {
        const claims = await paymentClaims(request, url);
        const lastEventId =
          request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
        return eventStream(store, claims.reference, lastEventId, request.signal, headers);
      }
      case 'GET /return': {
        const reference = url.searchParams.get('reference') ?? '';
        if (!/^[\w.:-]{1,128}$/.test(reference))
          return missingPage('This link is not a payment return.');
        const { returnTo } = await payments.bankReturn(reference);
        return returnPage(assetsUrl, reference, returnTo);
      }
      case 'GET /challenge': {
        const claims = await paymentClaims(request, url);
        if (!(await payments.challengeHtml(claims.reference)))
          return missingPage('No verification is waiting.');
        // The issuer's markup can read its frame's URL: it gets a ticket for itself, not the token.
        const ticket = signer.sign({
          ...claims,
          scope: 'frame',
          exp: Math.min(claims.exp, Math.floor(Date.now() / 1000) + 15 * 60),
        });
        const frameUrl = `${publicUrl}/challenge/frame?token=${encodeURIComponent(ticket)}`;
        return challengePage(assetsUrl, frameUrl, claims.reference, pageOrigin(claims));
      }
      case 'GET /challenge/frame': {
        const claims = await paymentClaims(request, url, 'frame');
        const markup = await payments.challengeHtml(claims.reference);
        return markup
          ? challengeFrame(markup, pageOrigin(claims))
          : missingPage('No verification is waiting.');
      }
      case 'POST /webhooks':
        return receiveWebhook(request);
      default: {
        const name = path.slice('/assets/'.length);
        // hasOwn: 'constructor' or 'toString' is no asset.
        const asset =
          method === 'GET' && path.startsWith('/assets/') && Object.hasOwn(ASSETS, name)
            ? ASSETS[name]
            : undefined;
        if (asset) {
          return new Response(asset.body, {
            headers: {
              'content-type': asset.type,
              'cache-control': 'public, max-age=300',
              'x-content-type-options': 'nosniff',
            },
          });
        }
        const known = [
          '/session',
          '/initiate',
          '/authenticate',
          '/finalize',
          '/status',
          '/events',
          '/return',
          '/challenge',
          '/challenge/frame',
          '/webhooks',
        ];
        if (known.includes(path))
          throw new CheckoutError('method_not_allowed', `${method} is not allowed here.`);
        throw new CheckoutError('not_found', 'There is nothing here.');
      }
    }
  }

  async function handle(request: Request): Promise<Response> {
    const requestId = crypto.randomUUID();
    const url = new URL(request.url);
    const headers = corsHeaders(request);
    headers.set('x-request-id', requestId);
    try {
      if (closed) throw new CheckoutError('unavailable', 'The checkout server is shutting down.');
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        throw new CheckoutError('not_found', 'There is nothing here.');
      }
      const path = url.pathname.slice(basePath.length) || '/';
      const origin = request.headers.get('origin');
      const isWebhook = path === '/webhooks';
      if (!isWebhook && origin !== null && !originAllowed(origin, request)) {
        throw new CheckoutError(
          request.method === 'GET' || request.method === 'OPTIONS'
            ? 'origin_not_allowed'
            : 'cross_site_request',
          'This origin may not use this checkout.',
        );
      }
      // A browser that says the call is cross-site but sends no Origin is not to be trusted either.
      if (
        !isWebhook &&
        request.method !== 'GET' &&
        origin === null &&
        request.headers.get('sec-fetch-site') === 'cross-site'
      ) {
        throw new CheckoutError('cross_site_request', 'Cross-site calls are not accepted.');
      }
      if (request.method === 'OPTIONS') {
        headers.set('access-control-allow-methods', 'GET, POST');
        headers.set('access-control-allow-headers', 'authorization, content-type, last-event-id');
        headers.set('access-control-max-age', '600');
        return new Response(null, { status: 204, headers });
      }
      return await route(request, url, path, headers);
    } catch (error) {
      const failure = toCheckoutError(error);
      if (
        failure.code === 'internal' ||
        failure.code === 'unavailable' ||
        failure.code === 'timeout'
      ) {
        logger.error(`paydrop: ${failure.code} (${requestId})`, {
          message: failure.message,
          cause:
            failure.cause instanceof Error
              ? `${failure.cause.name}: ${failure.cause.message}`
              : undefined,
        });
      }
      return failure.toResponse(requestId, headers);
    }
  }

  return Object.assign(handle, {
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  });
}
