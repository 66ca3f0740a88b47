/**
 * The companion as one function from Request to Response. It answers only what a checkout
 * needs — start, initiate, the authentication check, finalize, status, the status stream, the
 * bank's return page, the challenge page — and the provider's webhooks. No payouts, no links,
 * no list, no pass-through: nothing else answers. Here: the parts wired together and the
 * dispatch; whose pages may call is checkout-origins.ts, each route's work routes.ts, the
 * token's check call-claims.ts, a checkout's event-stream places event-stream-slots.ts.
 */
import { createProviderClock } from '../../protocol/provider-clock';
import { createProviderClient } from '../../provider/client';
import { providerFetch } from '../../provider/provider-fetch';
import { createProviderTransport } from '../../provider/transport';
import {
  CheckoutError,
  createScriptFiles,
  failureAnswer,
  handlerLogger,
  isCrossSiteWithoutOrigin,
  jsonAnswer,
  preflightAnswer,
  SCRIPT_PATH,
} from '../http';
import {
  createBackgroundWork,
  createJobPicker,
  type DueWorkSummary,
  type JobPicker,
} from '../jobs';
import { createMemoryStore } from '../store';
import { createAttemptLimits, resolveLimits } from './attempt-limits';
import { createCallClaims } from './call-claims';
import { cardFrameAsset, cardPreflight, checkCardOrigin } from './card-frame';
import { createCheckoutOrigins } from './checkout-origins';
import { createEventStreamSlots } from './event-stream-slots';
import { createHostedCard } from './hosted-card';
import { type CheckoutHandlerOptions, checkOptions, tokenSecretsOf } from './options';
import { createOutcomes, PAYMENT_QUEUE } from './outcomes';
import { ASSETS } from './pages';
import { createPaymentRecords } from './payment-records';
import { createPaymentService } from './payments';
import type { PayoutWorkFactory } from './payout-work';
import { createCheckoutRoutes } from './routes';
import { createStatusCache } from './status-cache';
import { createTokenSigner } from './token';
import { createValidationCache, VALIDATION_CACHE_MS } from './validation-cache';
import { createWebhookReceiver } from './webhooks';

/** Default of maxEventStreamsPerCheckout: many tabs of one customer, not 3,000 of a stranger. */
const MAX_EVENT_STREAMS_PER_CHECKOUT = 20;
/**
 * The load balancers' check (issue 21, item 6). Not in COMPANION_PATHS, the browser's contract:
 * no page calls it, and every byte there is in every customer's paydrop.js.
 */
const HEALTH_PATH = '/health';
/** Default of runDueWork's maxJobs: a minute's cron call ends well inside a function's time. */
const MAX_JOBS_PER_RUN = 1000;

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

/**
 * The checkout's handler, with the payout confirmations it runs handed in (the public
 * createCheckoutHandler, in src/server/checkout-handler.ts, hands in the payouts room's).
 */
export function createCheckoutHandlerWith(
  options: CheckoutHandlerOptions,
  /** The payouts room's confirmations (src/server's createCheckoutHandler hands them in). */
  payoutWork: PayoutWorkFactory,
): CheckoutHandler {
  checkOptions(options);
  const basePath = (options.basePath ?? '/api/checkout').replace(/\/+$/, '');
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const tokenSecrets = tokenSecretsOf(options);
  const logger = handlerLogger(options.logger, {
    secretKey: options.secretKey,
    tokenSecrets,
    webhookSecrets: options.webhookSecrets,
  });
  const store = options.store ?? createMemoryStore();
  const signer = createTokenSigner(tokenSecrets);
  const now = options.now ?? Date.now;
  // The provider's now, measured from the Date of its answers: a transfer's expiry is on its
  // clock, and the browser counts down to it from the time we give it (issue 12, item 3).
  const providerClock = createProviderClock(now);
  const send = options.fetch ?? providerFetch;
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
  const background = createBackgroundWork({ logger, waitUntil: options.waitUntil });
  const scriptFile = createScriptFiles();
  // Serverless (issue 22, item 3): no timers and no store calls at start-up (a Worker may not
  // open a connection outside a request); due work runs when runDueWork() is called.
  const poll = options.pollDueWork !== false;

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
  const payouts = payoutWork({ options, provider, store, logger, now, jobs: jobPicker });
  // Pending confirmations are jobs in the store; this only wakes the picker (CONVENTIONS 19).
  jobs = createJobPicker({
    store,
    now,
    logger,
    background: background.run,
    poll,
    queues: {
      [PAYMENT_QUEUE]: outcomes.runJob,
      ...payouts.queues,
    },
  });
  // Payouts whose webhooks never arrive are found by sweeping the list, for a merchant who
  // listens for payout outcomes.
  if (options.onPayoutOutcome && poll) background.run(() => payouts.startSweeping());
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
    payouts: payouts.webhook,
    logger,
    hosted,
  });

  const eventStreamSlot = createEventStreamSlots(
    options.maxEventStreamsPerCheckout ?? MAX_EVENT_STREAMS_PER_CHECKOUT,
  );
  const { publicOrigin, shopOriginsFor, publicUrlOf, originAllowed, logRefusal, corsHeaders } =
    createCheckoutOrigins({ publicUrl: options.publicUrl, allowedOrigins, basePath, logger });

  const json = (body: unknown, headers: Headers, status = 200) => jsonAnswer(body, status, headers);
  const ROUTES = createCheckoutRoutes({
    options,
    store,
    signer,
    logger,
    payments,
    claims: createCallClaims({ signer, hosted }),
    receiveWebhook,
    originAllowed,
    shopOriginsFor,
    publicOrigin,
    allowedOrigins,
    eventStreamSlot,
  });

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
    if (background.closed) reason = 'shutting_down';
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
      if (background.closed)
        throw new CheckoutError('unavailable', 'The checkout server is shutting down.');
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
      if (!isWebhook && request.method !== 'GET' && isCrossSiteWithoutOrigin(request)) {
        throw new CheckoutError(
          'cross_site_request',
          'Refused (cross_site_request): a cross-site call without an Origin is not accepted.',
        );
      }
      if (request.method === 'OPTIONS')
        return preflightAnswer('authorization, content-type, last-event-id', headers);
      return await route(request, url, path, headers);
    } catch (error) {
      const { failure, response } = failureAnswer(error, { requestId, logger, path, headers });
      if (failure.code === 'cross_site_request' || failure.code === 'origin_not_allowed')
        logRefusal(request, path, failure);
      return response;
    }
  }

  return Object.assign(handle, {
    idle: background.idle,
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
      background.close();
      jobs?.close();
    },
  });
}
