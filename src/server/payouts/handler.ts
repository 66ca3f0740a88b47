/**
 * The back office's handler (issue 14): a second `(Request) => Response`, mounted apart from the
 * checkout (default `/api/back-office`), behind the merchant's mandatory `authorize`. It serves a
 * payout form's requirements, sends payouts, lists payouts and transactions, creates and lists
 * payment links, pushes payout moves over Server-Sent Events, and takes the provider's payout
 * webhooks (through the checkout's own receiver), so a merchant doing payouts only needs no
 * `resolveOrder`.
 */
import { isKnownCurrency, type PayoutStatus } from '../../protocol';
import {
  BACK_OFFICE_PATHS,
  type PayoutEventWire,
  type PayoutResultWire,
  type PayoutView,
} from '../../protocol/back-office';
import { createProviderClient, MAX_PER_PAGE } from '../../provider/client';
import type { PayoutPositions } from '../../provider/payouts';
import { createProviderTransport } from '../../provider/transport';
import type { PayoutOutcome } from '../checkout';
import {
  allowOrigin,
  CheckoutError,
  clientSignal,
  eventStream,
  failureAnswer,
  handlerLogger,
  isCrossSiteWithoutOrigin,
  jsonAnswer,
  preflightAnswer,
  readJson as readBodyJson,
} from '../http';
import { createBackgroundWork, type DueWorkSummary } from '../jobs';
import { createMemoryStore, createRecords, put } from '../store';
import { linkInput, payoutInput, wholeNumber } from './inputs';
import {
  checkPayoutsOptions,
  DEFAULT_BACK_OFFICE_PATH,
  isProduction,
  type PayoutsHandlerOptions,
} from './options';
import { createPaymentLinks, LINKS_PER_PAGE, MAX_LINKS_PER_PAGE } from './payment-links';
import { backOfficePayoutKind, payoutPositionKind } from './payout-records';
import { createPayoutWebhookReceiver } from './payout-webhooks';
import { createServedHosts } from './served-hosts';
import { linkView, payoutView, transactionPageView } from './views';

export type { PayoutsHandlerOptions } from './options';

export interface PayoutsHandler {
  (request: Request): Promise<Response>;
  /**
   * Pushes a confirmed payout move to the back office's stream. Give it to the checkout handler
   * when both are mounted and the provider's one webhook URL points at the checkout:
   * `createCheckoutHandler({ ..., onPayoutOutcome: payouts.publishPayoutOutcome })`.
   */
  publishPayoutOutcome(outcome: PayoutOutcome): Promise<void>;
  /** Resolves once background work (webhook confirmation) has finished; for tests and shutdown. */
  idle(): Promise<void>;
  /**
   * Runs every due payout confirmation once, for a cron on serverless platforms
   * (`pollDueWork: false`), as the checkout handler's `runDueWork()` does.
   * @example export const GET = async () => Response.json(await payouts.runDueWork());
   */
  runDueWork(options?: { readonly maxJobs?: number | undefined }): Promise<DueWorkSummary>;
  close(): void;
}

const MAX_BODY_BYTES = 16 * 1024;
const YEAR_MS = 400 * 24 * 3600 * 1000;
/** The stream `/events` follows; eventStream() keeps it under `events:` like the checkout's. */
const PAYOUT_STREAM = 'back-office:payouts';
const COUNTRY_OF: Readonly<Record<string, string>> = { NGN: 'NG', GBP: 'GB', USD: 'US' };
const STATUSES: readonly PayoutStatus[] = ['Pending', 'Completed', 'Failed', 'Reversed'];

/**
 * @example
 * const payouts = createPayoutsHandler({
 *   secretKey: process.env.PROVIDER_SECRET_KEY,
 *   baseUrl: process.env.PROVIDER_BASE_URL,
 *   authorize: async (request) => (await staffSession(request))?.role === 'finance',
 *   onPayoutOutcome: async ({ reference, status, reason }) => { await ledger.record(reference, status, reason); },
 * });
 * // Node: http.createServer(toNodeListener(payouts)); the provider's webhook URL: …/api/back-office/webhooks
 */
export function createPayoutsHandler(options: PayoutsHandlerOptions): PayoutsHandler {
  checkPayoutsOptions(options);
  const basePath = (options.basePath ?? DEFAULT_BACK_OFFICE_PATH).replace(/\/+$/, '');
  // The same redaction as the checkout's: a provider answer, a hook's error or authorize's
  // exception that quotes the key never reaches a log line.
  const logger = handlerLogger(options.logger, options);
  const hosts = createServedHosts({
    publicUrl: options.publicUrl,
    allowedHosts: options.allowedHosts,
    development: !isProduction(),
  });
  const store = options.store ?? createMemoryStore();
  const paymentLinks = createPaymentLinks(store, () => Date.now());
  const typed = createRecords(store);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  // Shared with the webhook receiver, which remembers positions under the same keys.
  const payoutPositions: PayoutPositions = {
    get: (reference) => typed.get(payoutPositionKind, reference),
    set: async (reference, position) => {
      await typed.commit([put(payoutPositionKind, reference, position, YEAR_MS)]);
    },
  };
  const provider = createProviderClient(
    { baseUrl: options.baseUrl, secretKey: options.secretKey, payoutPositions },
    createProviderTransport({
      baseUrl: options.baseUrl,
      listBaseUrl: options.listBaseUrl,
      secretKey: options.secretKey,
      timeoutMs: options.timeouts?.providerMs,
      fetch: options.fetch,
    }),
  );
  const background = createBackgroundWork({ logger, waitUntil: options.waitUntil });

  const remembered = (reference: string) => typed.get(backOfficePayoutKind, reference);

  /** The payout's view under both its references, and its event: one commit. */
  async function publish(view: PayoutView, previousStatus: PayoutStatus | null): Promise<void> {
    const event: PayoutEventWire = { type: 'payout', payout: view, previousStatus };
    await typed.commit([
      put(backOfficePayoutKind, view.reference, view),
      ...(view.tenantReference ? [put(backOfficePayoutKind, view.tenantReference, view)] : []),
      { op: 'append', stream: `events:${PAYOUT_STREAM}`, value: event },
    ]);
  }

  async function publishPayoutOutcome(outcome: PayoutOutcome): Promise<void> {
    const known = await remembered(outcome.reference);
    const final = outcome.status === 'Failed' || outcome.status === 'Reversed';
    await publish(
      {
        reference: outcome.reference,
        tenantReference: outcome.tenantReference ?? known?.tenantReference ?? null,
        status: outcome.status,
        amount: outcome.amount,
        reason: final ? outcome.reason : null,
        createdAt: known?.createdAt ?? null,
        updatedAt: outcome.occurredAt,
      },
      outcome.previousStatus,
    );
  }

  const webhooks = createPayoutWebhookReceiver({
    options,
    provider,
    store,
    logger,
    background: background.run,
    now: Date.now,
    onPayoutOutcome: async (outcome) => {
      await publishPayoutOutcome(outcome);
      await options.onPayoutOutcome?.(outcome);
    },
  });

  const json = (body: unknown, status = 200) => jsonAnswer(body, status);
  const readJson = (request: Request) => readBodyJson(request, MAX_BODY_BYTES, { logger });

  /**
   * Staff pages only, in this order: a host we serve (DNS rebinding), an origin that is our own
   * page or one the merchant allowed (another site's page), and then the merchant's login. A
   * request with no Origin at all (curl, a server) passes the first two only to meet `authorize`,
   * which must authenticate it; the browser always sends an Origin with a POST.
   */
  async function admit(request: Request): Promise<void> {
    const refusal = hosts.refusal(request);
    if (refusal) {
      logger.warn(
        'paydrop: back-office request refused: it names a host this handler does not serve (a DNS-rebinding page?)',
        {
          host: refusal.host,
          allow: refusal.allow,
        },
      );
      throw new CheckoutError(
        'host_not_allowed',
        'This back office does not serve the host this request was sent to.',
      );
    }
    const origin = request.headers.get('origin');
    if (origin !== null && !hosts.isOwnOrigin(origin, request) && !allowedOrigins.has(origin)) {
      logger.warn('paydrop: back-office request refused: another origin', {
        origin: origin.slice(0, 200),
        allow: `allowedOrigins: ['${origin.slice(0, 200)}'], if it is your own back-office page`,
      });
      throw new CheckoutError('origin_not_allowed', 'This origin may not use the back office.');
    }
    if (isCrossSiteWithoutOrigin(request))
      throw new CheckoutError('cross_site_request', 'Cross-site requests are refused.');
    let allowed = false;
    try {
      allowed = (await options.authorize(request)) === true;
    } catch (error) {
      logger.error('paydrop: authorize threw; the request is refused', { error: String(error) });
    }
    if (!allowed) throw new CheckoutError('unauthorized', 'Sign in to use the back office.');
  }

  async function sendPayout(request: Request): Promise<Response> {
    const input = payoutInput(await readJson(request));
    // The provider client retries a lost answer with this same tenantReference and body, and the
    // browser resends the same tenantReference if our own answer is lost: one transfer either way.
    const outcome = await provider.sendFundTransfer(input);
    let result: PayoutResultWire;
    if (outcome.status === 'accepted') {
      const known = await remembered(outcome.reference);
      const view: PayoutView = known ?? {
        reference: outcome.reference,
        tenantReference: outcome.tenantReference,
        status: 'Pending',
        amount: input.amount,
        reason: null,
        createdAt: new Date().toISOString(),
        updatedAt: null,
      };
      if (!known) await publish(view, null);
      result = { status: 'accepted', payout: view };
      return json(result, 202);
    }
    result =
      outcome.status === 'invalid'
        ? { status: 'invalid', failures: outcome.failures }
        : { status: outcome.status, message: outcome.message };
    return json(result, outcome.status === 'conflict' ? 409 : 422);
  }

  async function listPayouts(url: URL): Promise<Response> {
    const status = url.searchParams.get('status');
    if (status !== null && !STATUSES.includes(status as PayoutStatus))
      throw new CheckoutError('invalid_request', `status must be one of ${STATUSES.join(', ')}.`);
    const limit = wholeNumber(url.searchParams.get('limit'), 50, 1, 500, 'limit');
    const payouts: PayoutView[] = [];
    for await (const payout of provider.payouts({
      newestFirst: true,
      ...(status ? { status: status as PayoutStatus } : {}),
    })) {
      payouts.push(payoutView(payout, await remembered(payout.reference)));
      if (payouts.length >= limit) break;
    }
    return json({ payouts });
  }

  async function route(request: Request, path: string, url: URL): Promise<Response> {
    const method = request.method;
    if (path === BACK_OFFICE_PATHS.webhooks) {
      if (method !== 'POST') throw new CheckoutError('method_not_allowed', 'POST webhooks here.');
      return webhooks.receive(request);
    }
    await admit(request);
    if (path === BACK_OFFICE_PATHS.requirements && method === 'GET') {
      const currency = url.searchParams.get('currency') ?? '';
      if (!isKnownCurrency(currency))
        throw new CheckoutError('invalid_request', 'currency must be a supported currency code.');
      const country = url.searchParams.get('country') ?? COUNTRY_OF[currency] ?? '';
      const amountMinor = wholeNumber(
        url.searchParams.get('amountMinor'),
        100,
        1,
        Number.MAX_SAFE_INTEGER,
        'amountMinor',
      );
      const requirements = await provider.payoutRequirements({
        amount: { amountMinor, currency },
        beneficiaryBankCountry: country,
      });
      return json({ requirements });
    }
    if (path === BACK_OFFICE_PATHS.payouts && method === 'POST') return sendPayout(request);
    if (path === BACK_OFFICE_PATHS.payouts && method === 'GET') return listPayouts(url);
    const one = /^\/payouts\/([\w.:-]{1,128})$/.exec(path)?.[1];
    if (one && method === 'GET') {
      const payout = await provider.getPayout(one);
      if (!payout) throw new CheckoutError('not_found', 'No payout has this reference.');
      return json({ payout: payoutView(payout, await remembered(payout.reference)) });
    }
    if (path === BACK_OFFICE_PATHS.transactions && method === 'GET') {
      const page = wholeNumber(url.searchParams.get('page'), 1, 1, 1_000_000, 'page');
      const perPage = wholeNumber(url.searchParams.get('perPage'), 20, 1, MAX_PER_PAGE, 'perPage');
      return json(transactionPageView(await provider.transactionPage(page, perPage)));
    }
    if (path === BACK_OFFICE_PATHS.links && method === 'POST') {
      const input = linkInput(await readJson(request));
      const link = linkView(
        await provider.createPaymentLink({
          name: input.name,
          description: input.description,
          linkType: input.linkType,
          currency: input.currency,
          ...(input.amountMinor
            ? { amount: { amountMinor: input.amountMinor, currency: input.currency } }
            : {}),
        }),
      );
      await paymentLinks.add(link);
      return json({ link }, 201);
    }
    if (path === BACK_OFFICE_PATHS.links && method === 'GET') {
      const limit = wholeNumber(
        url.searchParams.get('limit'),
        LINKS_PER_PAGE,
        1,
        MAX_LINKS_PER_PAGE,
        'limit',
      );
      return json(await paymentLinks.page(limit, url.searchParams.get('after')));
    }
    if (path === BACK_OFFICE_PATHS.events && method === 'GET') {
      return eventStream(
        store,
        PAYOUT_STREAM,
        request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId'),
        clientSignal(request),
        new Headers(),
      );
    }
    const known = Object.values(BACK_OFFICE_PATHS).some((known) => known === path) || one;
    throw known
      ? new CheckoutError('method_not_allowed', `${method} is not allowed here.`)
      : new CheckoutError('not_found', 'No such back-office path.');
  }

  /** A back office on another origin the merchant allowed: CORS with credentials, for it alone. */
  function withCors(request: Request, response: Response): Response {
    const origin = request.headers.get('origin');
    if (!origin || !allowedOrigins.has(origin)) return response;
    const headers = new Headers(response.headers);
    allowOrigin(headers, origin, allowedOrigins, { credentials: true });
    return new Response(response.body, { status: response.status, headers });
  }

  async function answer(request: Request, requestId: string): Promise<Response> {
    if (background.closed)
      return new CheckoutError('unavailable', 'The back office is shutting down.').toResponse(
        requestId,
      );
    const url = new URL(request.url);
    if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
      return new CheckoutError('not_found', 'Not the back office.').toResponse(requestId);
    const origin = request.headers.get('origin');
    if (request.method === 'OPTIONS' && origin && allowedOrigins.has(origin))
      return preflightAnswer('content-type, last-event-id');
    try {
      return await route(request, url.pathname.slice(basePath.length) || '/', url);
    } catch (error) {
      return failureAnswer(error, { requestId, logger, path: url.pathname }).response;
    }
  }

  const handler = async (request: Request): Promise<Response> =>
    withCors(request, await answer(request, crypto.randomUUID()));

  return Object.assign(handler, {
    publishPayoutOutcome,
    idle: background.idle,
    async runDueWork(given?: { readonly maxJobs?: number | undefined }) {
      const maxJobs = given?.maxJobs ?? 1000;
      if (!Number.isInteger(maxJobs) || maxJobs < 1)
        throw new TypeError('runDueWork: maxJobs must be a whole number of 1 or more.');
      return webhooks.runAllDue(maxJobs);
    },
    close() {
      background.close();
      webhooks.close();
    },
  });
}
