/**
 * The companion as one function from Request to Response. It answers only what a checkout
 * needs — start, initiate, the authentication check, finalize, status, the status stream, the
 * bank's return page, the challenge page — and the provider's webhooks. No payouts, no links,
 * no list, no pass-through: nothing else answers.
 */
import * as v from 'valibot';
import { COMPANION_PATHS } from '../../protocol/contract';
import { createProviderClock } from '../../protocol/provider-clock';
import { createProviderClient } from '../../provider/client';
import { createProviderTransport } from '../../provider/transport';
import { clientAddressOf } from '../http/client-address';
import { CheckoutError, toCheckoutError } from '../http/errors';
import { clientSignal, eventStream } from '../http/events';
import { readCapped } from '../http/read-body';
import { redactingLogger } from '../http/redacting-logger';
import { createScriptFiles, SCRIPT_PATH } from '../http/script-files';
import { type ShopOrigins, shopOriginsOf } from '../http/shop-origin';
import { createJobPicker, type DueWorkSummary, type JobPicker } from '../jobs/jobs';
import { createPayoutOutcomes, PAYOUT_QUEUE, SWEEP_QUEUE } from '../payouts/payout-outcomes';
import { createMemoryStore } from '../store/store';
import { createAttemptLimits, resolveLimits } from './attempt-limits';
import {
  CARD_FRAME_PATH,
  CARD_PATH,
  cardFrameAsset,
  cardFramePage,
  cardPreflight,
  checkCardOrigin,
} from './card-frame';
import { CARD } from './channels';
import { createHostedCard } from './hosted-card';
import {
  type CheckoutHandlerOptions,
  type CheckoutLogger,
  checkOptions,
  tokenSecretsOf,
} from './options';
import { createOutcomes, PAYMENT_QUEUE } from './outcomes';
import { ASSETS, challengeFrame, challengePage, missingPage, returnPage } from './pages';
import { paymentKeysOf, rememberPaymentKey } from './payment-key-cookie';
import { createPaymentRecords } from './payment-records';
import { createPaymentService } from './payments';
import {
  CARD_ON_INITIATE_ISSUE,
  CardInput,
  CardPageInput,
  InitiateInput,
  issuesOf,
  SessionInput,
} from './schemas';
import { createStatusCache } from './status-cache';
import { type CheckoutClaims, createTokenSigner } from './token';
import { createValidationCache, VALIDATION_CACHE_MS } from './validation-cache';
import { createWebhookReceiver } from './webhooks';

/** Browser bodies are small: an order id, a channel, a card. */
const MAX_BODY_BYTES = 8 * 1024;
/** Default of maxEventStreamsPerCheckout: many tabs of one customer, not 3,000 of a stranger. */
const MAX_EVENT_STREAMS_PER_CHECKOUT = 20;
/**
 * The load balancers' check (issue 21, item 6). Not in COMPANION_PATHS, the browser's contract:
 * no page calls it, and every byte there is in every customer's paydrop.js.
 */
const HEALTH_PATH = '/health';
/** Default of runDueWork's maxJobs: a minute's cron call ends well inside a function's time. */
const MAX_JOBS_PER_RUN = 1000;
/** What a checkout past its stream count is told to wait: a stream closes when a tab does. */
const STREAM_RETRY_AFTER_SECONDS = 5;

export interface CheckoutHandler {
  (request: Request): Promise<Response>;
  /** Resolves once background work (webhook confirmation) has finished; for tests and shutdown. */
  idle(): Promise<void>;
  /**
   * Runs the background work that is due now (confirmations, reconciliation) and resolves when
   * it is done. Due work runs by itself within a second; this is for simulations that move the
   * clock given as `now` (the chaos tests and bench).
   */
  runDue(): Promise<void>;
  /**
   * Claims and runs every background job that is due (confirming payments and reporting their
   * outcomes, confirming payouts, sweeping the transaction list) and the work they make due, then
   * resolves with what it did. For platforms without a long-lived process (`pollDueWork: false`):
   * call it from a cron trigger or scheduled function every minute. Several instances may call it
   * at once; each job is claimed by one. Stops once `maxJobs` (default 1000) have run, a claim's
   * batch past it at most, saying `more`.
   * @example
   * // Vercel: app/api/checkout-cron/route.ts, scheduled in vercel.json's "crons"
   * export async function GET(request: Request) {
   *   const secret = process.env.CRON_SECRET;
   *   if (!secret || request.headers.get('authorization') !== `Bearer ${secret}`)
   *     return new Response('Unauthorized', { status: 401 });
   *   return Response.json(await checkout.runDueWork());
   * }
   */
  runDueWork(options?: { readonly maxJobs?: number | undefined }): Promise<DueWorkSummary>;
  /** Stops looking for due work; pending work stays in the store. The handler answers 503 afterwards. */
  close(): void;
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
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const tokenSecrets = tokenSecretsOf(options);
  const logger = redactingLogger(options.logger ?? consoleLogger, [
    options.secretKey,
    ...tokenSecrets,
  ]);
  const store = options.store ?? createMemoryStore();
  const signer = createTokenSigner(tokenSecrets);
  const now = options.now ?? Date.now;
  // The provider's now, measured from the Date of its answers: a transfer's expiry is on its
  // clock, and the browser counts down to it from the time we give it (issue 12, item 3).
  const providerClock = createProviderClock(now);
  const send = options.fetch ?? fetch;
  const provider = createProviderClient(
    options,
    createProviderTransport({
      baseUrl: options.baseUrl,
      listBaseUrl: options.listBaseUrl,
      secretKey: options.secretKey,
      timeoutMs: options.timeouts?.providerMs,
      fetch: async (input, init) => {
        const sentAt = now();
        const response = await send(input, init);
        // A gateway's 5xx carries the gateway's clock, not the provider's.
        if (response.status < 500)
          providerClock.observe(response.headers.get('date'), sentAt, now());
        return response;
      },
    }),
  );
  const pending = new Set<Promise<unknown>>();
  let closed = false;
  const scriptFile = createScriptFiles();
  // Serverless (issue 22, item 3): no timers and no store calls at start-up (a Worker may not
  // open a connection outside a request); due work runs when runDueWork() is called.
  const poll = options.pollDueWork !== false;

  function background(work: () => Promise<unknown>): void {
    if (closed) return;
    const running = work()
      .catch((error) => logger.error('paydrop: background work failed', { error: String(error) }))
      .finally(() => pending.delete(running));
    pending.add(running);
    options.waitUntil?.(running);
  }

  // Limits against card testing and floods (issue 20), counted in the store.
  const limits = createAttemptLimits({
    store,
    now,
    limits: resolveLimits(options.limits),
    beforeCardAttempt: options.beforeCardAttempt,
  });
  // What the browser is told of time (a payment's serverTime, a transfer's expiry) is the provider's.
  const records = createPaymentRecords(store, providerClock.now);
  const status = createStatusCache(provider, now);
  const validateChannels = createValidationCache(
    provider,
    now,
    options.validationCacheMs ?? VALIDATION_CACHE_MS,
  );
  // Open event streams per checkout (its sid), on this instance: see eventStreamSlot.
  const maxStreams = options.maxEventStreamsPerCheckout ?? MAX_EVENT_STREAMS_PER_CHECKOUT;
  const openStreams = new Map<string, number>();
  let jobs: JobPicker | undefined;
  const jobPicker = () => jobs as JobPicker;
  const outcomes = createOutcomes({
    options,
    provider,
    store,
    records,
    status,
    logger,
    now,
    jobs: jobPicker,
    limits,
  });
  const payouts = createPayoutOutcomes({ options, provider, store, logger, now, jobs: jobPicker });
  // Pending confirmations are jobs in the store; this only wakes the picker (CONVENTIONS 19).
  jobs = createJobPicker({
    store,
    now,
    logger,
    background,
    poll,
    queues: {
      [PAYMENT_QUEUE]: outcomes.runJob,
      [PAYOUT_QUEUE]: payouts.runJob,
      [SWEEP_QUEUE]: () => payouts.sweep(),
    },
  });
  // Payouts whose webhooks never arrive are found by sweeping the list, for a merchant who
  // listens for payout outcomes.
  if (options.onPayoutOutcome && poll) background(() => payouts.startSweeping());
  // Work left by an earlier run of this process (or another instance) is picked up at start.
  if (poll) jobs.wake();
  /** Without polling, the sweep is started by the first runDueWork(), and never moved. */
  let sweeping: Promise<void> | undefined;

  const hosted = createHostedCard({ limits, provider, store, records, outcomes, now });
  const payments = createPaymentService({
    options,
    provider,
    store,
    signer,
    logger,
    now,
    records,
    status,
    outcomes,
    hosted,
    validateChannels,
    limits,
  });
  const receiveWebhook = createWebhookReceiver({
    options,
    store,
    records,
    outcomes,
    payouts,
    logger,
    hosted,
  });

  /**
   * Takes one of a checkout's event-stream places, or refuses with 429: one token held 3,000
   * open streams (issue 20, item 4). Counted per instance, in memory: a count in the shared store
   * would outlive an instance killed with its streams open (nothing would give those places
   * back), and a stranger spread over N instances still holds at most N × the limit. Answers the
   * release, called once when the stream ends.
   */
  function eventStreamSlot(checkoutId: string): () => void {
    const held = openStreams.get(checkoutId) ?? 0;
    if (held >= maxStreams) {
      throw new CheckoutError(
        'rate_limited',
        `This checkout already has ${maxStreams} open event streams; close one or try again shortly.`,
        { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
      );
    }
    openStreams.set(checkoutId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (openStreams.get(checkoutId) ?? 1) - 1;
      if (left <= 0) openStreams.delete(checkoutId);
      else openStreams.set(checkoutId, left);
    };
  }

  /** The shop's origins as each request names them, worked out once a request (~10 µs). */
  const shopOrigins = new WeakMap<Request, ShopOrigins>();
  function shopOriginsFor(request: Request): ShopOrigins {
    let origins = shopOrigins.get(request);
    if (!origins) {
      origins = shopOriginsOf(request);
      shopOrigins.set(request, origins);
    }
    return origins;
  }

  /** Where the companion's URLs point: publicUrl, or the shop's origin as the request names it. */
  function publicUrlOf(request: Request): string {
    return options.publicUrl?.replace(/\/+$/, '') ?? shopOriginsFor(request).expected + basePath;
  }

  /**
   * The shop's own pages (publicUrl's origin, or any the request names for this server: see
   * shop-origin.ts for why the proxy headers may be believed here), or one the merchant allowed.
   */
  function originAllowed(origin: string, request: Request): boolean {
    return (
      origin === publicOrigin ||
      allowedOrigins.has(origin) ||
      shopOriginsFor(request).accepted.has(origin)
    );
  }

  /**
   * Every refusal of a page's call, in the log (issue 21: a proxy set-up refused every call and
   * said nothing): the origin refused, the one expected, and what would let it in.
   */
  function logRefusal(request: Request, path: string, failure: CheckoutError): void {
    const origin = request.headers.get('origin');
    const shown = origin === null ? null : origin.slice(0, 200);
    const card = path === CARD_PATH;
    const expected = card
      ? 'null (the card frame)'
      : (publicOrigin ?? shopOriginsFor(request).expected);
    const allow = card
      ? 'none: card details are taken from the card frame alone'
      : shown === null || shown === 'null'
        ? 'none: a cross-site call without an origin (a sandboxed frame, a file) is never taken'
        : `publicUrl: '${shown}${basePath}' if ${shown} is this shop's own address (or let the proxy in front send X-Forwarded-Proto and X-Forwarded-Host), or allowedOrigins: ['${shown}'] if it is another site of yours`;
    logger.warn(`paydrop: ${failure.code}: refused ${request.method} ${path} from ${shown}`, {
      origin: shown,
      expected,
      allow,
    });
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

  /**
   * The payment a status check or stream is about: the token's, or, for the token of a hosted
   * card page, the payment that page made (once its return or webhook told of it). A customer
   * whose browser went to the provider's page in the same tab comes back with that token only.
   */
  async function watchedClaims(
    request: Request,
    url: URL,
  ): Promise<CheckoutClaims & { reference: string }> {
    const claims = await claimsOf(request, url);
    if (!claims.reference && claims.hosted) {
      const { reference } = await hosted.outcome(claims.hosted);
      if (reference) return { ...claims, reference };
    }
    if (!claims.reference) throw new CheckoutError('not_initiated', 'Start the payment first.');
    return claims as CheckoutClaims & { reference: string };
  }

  /** What one route is given: the request, its URL, the headers to answer with, the public URL. */
  interface RouteContext {
    readonly request: Request;
    readonly url: URL;
    readonly headers: Headers;
    readonly publicUrl: string;
  }
  type Route = (context: RouteContext) => Promise<Response>;

  /** The page that opened the checkout: the only one that may frame the challenge, or hear it. */
  const pageOrigin = (claims: CheckoutClaims, publicUrl: string) =>
    claims.origin ?? new URL(publicUrl).origin;

  /**
   * The companion's routes, by path (COMPANION_PATHS, as the widget calls them) and method, like
   * the sandbox's table: nothing else answers.
   */
  const ROUTES = new Map<string, Partial<Record<'GET' | 'POST', Route>>>([
    [
      COMPANION_PATHS.session,
      {
        POST: async ({ request, headers }) => {
          const input = parse(SessionInput, await readJson(request));
          // The keys of the payments this browser started: sent, or kept in its cookie.
          const paymentKeys = [...(input.paymentKeys ?? []), ...paymentKeysOf(request)];
          return json(
            await payments.startSession(
              { ...input, paymentKeys },
              request.headers.get('origin'),
              request,
            ),
            headers,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.initiate,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          const body = await readJson(request);
          if (body && typeof body === 'object' && Object.hasOwn(body, 'card')) {
            throw new CheckoutError('invalid_request', 'The request is not valid.', {
              issues: [`card ${CARD_ON_INITIATE_ISSUE}`],
            });
          }
          const input = parse(InitiateInput, body);
          const allowedReturn = (target: string) => originAllowed(new URL(target).origin, request);
          const client = { request, address: clientAddressOf(request, options) };
          const answer = await payments.initiate(claims, input, publicUrl, allowedReturn, client);
          rememberPaymentKey(headers, request, answer.paymentKey, publicUrl);
          return json(answer, headers);
        },
      },
    ],
    [
      COMPANION_PATHS.cardPage,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          // The body is optional: only a full-page redirect needs `returnTo`.
          const input = parse(
            CardPageInput,
            request.headers.get('content-type') === null ? {} : await readJson(request),
          );
          const allowedReturn = (target: string) => originAllowed(new URL(target).origin, request);
          const client = { request, address: clientAddressOf(request, options) };
          return json(
            await payments.openCardPage(claims, input, publicUrl, allowedReturn, client),
            headers,
          );
        },
      },
    ],
    [
      CARD_FRAME_PATH,
      {
        GET: async ({ request, publicUrl }) =>
          cardFramePage(`${publicUrl}/assets`, [
            ...new Set([
              ...(publicOrigin ? [publicOrigin] : []),
              ...shopOriginsFor(request).accepted,
              ...allowedOrigins,
            ]),
          ]),
      },
    ],
    [
      CARD_PATH,
      {
        // The card frame's own call (its origin checked in handle): the same initiation as
        // /initiate, with the card it alone may send.
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          const { card, customer } = parse(CardInput, await readJson(request));
          // Counted against the customer's address like any card attempt (issue 20).
          const client = { request, address: clientAddressOf(request, options) };
          return json(
            await payments.initiate(
              claims,
              { channel: CARD, card, customer },
              publicUrl,
              () => false,
              client,
            ),
            headers,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.cardPagePayment,
      {
        // POST, though it only reads: the widget's one call shape (a token, no body) is enough.
        POST: async ({ request, url, headers }) =>
          json(await payments.cardPagePayment(await claimsOf(request, url)), headers),
      },
    ],
    [
      COMPANION_PATHS.authenticate,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await paymentClaims(request, url);
          const token = tokenOf(request, url);
          const challengeUrl = `${publicUrl}${COMPANION_PATHS.challenge}?token=${encodeURIComponent(token)}`;
          return json(await payments.authenticate(claims.reference, challengeUrl), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.finalize,
      {
        POST: async ({ request, url, headers }) => {
          const claims = await paymentClaims(request, url);
          return json(await payments.finalize(claims.reference), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.status,
      {
        GET: async ({ request, url, headers }) => {
          const claims = await watchedClaims(request, url);
          return json(await payments.status(claims.reference), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.events,
      {
        GET: async ({ request, url, headers }) => {
          const claims = await watchedClaims(request, url);
          const lastEventId =
            request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
          await payments.watching(claims.reference);
          const release = eventStreamSlot(claims.sid);
          return eventStream(
            store,
            claims.reference,
            lastEventId,
            clientSignal(request),
            headers,
            release,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.bankReturn,
      {
        GET: async ({ url, publicUrl }) => {
          const reference = url.searchParams.get('reference');
          // The provider's hosted card page comes back with its link's alias too (or a cancel).
          const alias = url.searchParams.get('alias');
          const cancelled = url.searchParams.get('cancelled') === '1';
          const valid = (value: string | null) => value !== null && /^[\w.:-]{1,128}$/.test(value);
          if (
            alias !== null ? !valid(alias) || (!cancelled && !valid(reference)) : !valid(reference)
          )
            return missingPage('This link is not a payment return.');
          const { returnTo } = await payments.bankReturn(
            cancelled ? null : reference,
            alias,
            cancelled,
          );
          return returnPage(`${publicUrl}/assets`, cancelled ? '' : (reference ?? ''), returnTo, {
            alias,
            cancelled,
          });
        },
      },
    ],
    [
      COMPANION_PATHS.challenge,
      {
        GET: async ({ request, url, publicUrl }) => {
          const claims = await paymentClaims(request, url);
          if (!(await payments.challengeHtml(claims.reference)))
            return missingPage('No verification is waiting.');
          // The issuer's markup can read its frame's URL: it gets a ticket for itself, not the token.
          const ticket = signer.sign({
            ...claims,
            scope: 'frame',
            exp: Math.min(claims.exp, Math.floor(Date.now() / 1000) + 15 * 60),
          });
          const frameUrl = `${publicUrl}${COMPANION_PATHS.challengeFrame}?token=${encodeURIComponent(ticket)}`;
          return challengePage(
            `${publicUrl}/assets`,
            frameUrl,
            claims.reference,
            pageOrigin(claims, publicUrl),
          );
        },
      },
    ],
    [
      COMPANION_PATHS.challengeFrame,
      {
        GET: async ({ request, url, publicUrl }) => {
          const claims = await paymentClaims(request, url, 'frame');
          const markup = await payments.challengeHtml(claims.reference);
          return markup
            ? challengeFrame(markup, pageOrigin(claims, publicUrl))
            : missingPage('No verification is waiting.');
        },
      },
    ],
    [COMPANION_PATHS.webhooks, { POST: ({ request }) => receiveWebhook(request) }],
  ]);

  async function route(
    request: Request,
    url: URL,
    path: string,
    headers: Headers,
  ): Promise<Response> {
    const method = request.method;
    const routes = ROUTES.get(path);
    if (routes) {
      const run = method === 'GET' || method === 'POST' ? routes[method] : undefined;
      if (!run) throw new CheckoutError('method_not_allowed', `${method} is not allowed here.`);
      return run({ request, url, headers, publicUrl: publicUrlOf(request) });
    }
    const name = path.slice('/assets/'.length);
    const frameFile =
      method === 'GET' && path.startsWith('/assets/') ? await cardFrameAsset(name) : undefined;
    if (frameFile) return frameFile;
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
    throw new CheckoutError('not_found', 'There is nothing here.');
  }

  /** Whether the store answered the last health check; a change is logged, not every probe. */
  let storeAnswered = true;

  /**
   * GET {basePath}/health: 200 `{"ok":true}` when the store answers a read, 503 with the reason
   * when it does not (or the handler is closing), for load balancers. The read is of a key no
   * record uses: it proves the store is there and tells nothing of what it holds.
   */
  async function health(request: Request, requestId: string): Promise<Response> {
    const headers = new Headers({ 'x-request-id': requestId });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      headers.set('allow', 'GET, HEAD');
      return new CheckoutError(
        'method_not_allowed',
        `${request.method} is not allowed here.`,
      ).toResponse(requestId, headers);
    }
    let reason: 'shutting_down' | 'store_unavailable' | undefined;
    if (closed) reason = 'shutting_down';
    else {
      try {
        await store.get('paydrop:health');
        if (!storeAnswered) logger.warn('paydrop: health: the store answers again');
        storeAnswered = true;
      } catch (error) {
        reason = 'store_unavailable';
        if (storeAnswered)
          logger.error('paydrop: health: the store does not answer', { error: String(error) });
        storeAnswered = false;
      }
    }
    const answer = json(reason ? { ok: false, reason } : { ok: true }, headers, reason ? 503 : 200);
    return request.method === 'HEAD'
      ? new Response(null, { status: answer.status, headers: answer.headers })
      : answer;
  }

  async function handle(request: Request): Promise<Response> {
    const requestId = crypto.randomUUID();
    const headers = corsHeaders(request);
    headers.set('x-request-id', requestId);
    let url: URL;
    try {
      // A Request's URL is valid by construction, but a host header an adapter put in it may not
      // be (issue 9): that is the client's fault, a 400, never a 500.
      url = new URL(request.url);
    } catch {
      return new CheckoutError(
        'invalid_request',
        'The request URL or Host is not valid.',
      ).toResponse(requestId, headers);
    }
    let path = '/';
    try {
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        throw new CheckoutError('not_found', 'There is nothing here.');
      }
      path = url.pathname.slice(basePath.length) || '/';
      // A load balancer's question, with no Origin to check; it says nothing of orders or keys.
      if (path === HEALTH_PATH) return await health(request, requestId);
      // The script tag and its chunks: public files, the same for every page, so no origin is
      // checked. A page of another site gains a copy of code anyone can download; its calls to
      // this companion are still refused below.
      if (SCRIPT_PATH.test(path)) return await scriptFile(request, path.slice(1));
      if (closed) throw new CheckoutError('unavailable', 'The checkout server is shutting down.');
      const origin = request.headers.get('origin');
      const isWebhook = path === '/webhooks';
      // POST /card takes Origin: null (the card frame's opaque origin) and nothing else; the
      // frame's own files are fetched with it too.
      const isCard = checkCardOrigin(request, path, headers);
      if (isCard && request.method === 'OPTIONS') return cardPreflight(headers);
      if (!isWebhook && !isCard && origin !== null && !originAllowed(origin, request)) {
        const code =
          request.method === 'GET' || request.method === 'OPTIONS'
            ? 'origin_not_allowed'
            : 'cross_site_request';
        // The widget prints this to the console: the code, and where the answer is (not here: the
        // origin expected is for the merchant's log, not for any page that asks).
        throw new CheckoutError(
          code,
          `Refused (${code}): this page's origin may not use this checkout. The checkout server's log names the origin it expected and the option that allows this one.`,
        );
      }
      // A browser that says the call is cross-site but sends no Origin is not to be trusted either.
      if (
        !isWebhook &&
        request.method !== 'GET' &&
        origin === null &&
        request.headers.get('sec-fetch-site') === 'cross-site'
      ) {
        throw new CheckoutError(
          'cross_site_request',
          'Refused (cross_site_request): a cross-site call without an Origin is not accepted.',
        );
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
      if (failure.code === 'cross_site_request' || failure.code === 'origin_not_allowed')
        logRefusal(request, path, failure);
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
    runDue: () => (jobs as JobPicker).runDue(),
    async runDueWork(given?: { readonly maxJobs?: number | undefined }): Promise<DueWorkSummary> {
      const maxJobs = given?.maxJobs ?? MAX_JOBS_PER_RUN;
      if (!Number.isInteger(maxJobs) || maxJobs < 1)
        throw new TypeError('runDueWork: maxJobs must be a whole number of 1 or more.');
      if (options.onPayoutOutcome && !poll) {
        sweeping ??= payouts.startSweeping({ keepSchedule: true }).catch((error) => {
          sweeping = undefined;
          throw error;
        });
        await sweeping;
      }
      return (jobs as JobPicker).runAllDue(maxJobs);
    },
    close() {
      closed = true;
      jobs?.close();
    },
  });
}
