/**
 * The sandbox as one function from Request to Response: authentication, routing, faults and the
 * provider's error envelopes. The Node server in `server.ts` only translates I/O around it, so
 * the same handler can be mounted inside another server (the demo's, at `/sandbox`).
 */
import { type OperationName, PATHS, SECRET_KEY_HEADER } from '../protocol';
import { bankDecision, bankPage } from './channels/bank/pages';
import { cancelOnLink, challengeOnLink, linkPage, payOnLink } from './channels/card/link-pages';
import { challengeResult } from './channels/card/pages';
import type { OperationFault } from './faults';
import { refusal } from './responses';
import * as controls from './routes/controls';
import { createPaymentLink } from './routes/links';
import {
  authenticate,
  finalize,
  initiate,
  paymentStatus,
  type RouteContext,
  validateChannels,
} from './routes/payments';
import { fundTransfer, paymentMethods } from './routes/payouts';
import { listTransactions } from './routes/transactions';
import { SandboxRefusal } from './state';
import { SANDBOX_TEST_KEY } from './test-data';
import { closeWorld, createWorld, type World, type WorldOptions } from './world';

type Route = (context: RouteContext) => Response | Promise<Response>;

interface RouteEntry {
  readonly method: 'GET' | 'POST';
  readonly pattern: RegExp;
  readonly route: Route;
  /** Named for fault scripts; controls and pages have none and take no faults. */
  readonly operation?: OperationName;
  /** The names of the pattern's groups, in order. Default: one group, `reference`. */
  readonly params?: readonly string[];
}

const REFERENCE = '([^/]{1,128})';

function exact(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

const OPERATIONS: readonly RouteEntry[] = [
  {
    method: 'POST',
    pattern: exact(PATHS.paymentLink),
    route: createPaymentLink,
    operation: 'paymentLink',
  },
  {
    method: 'POST',
    pattern: exact(PATHS.validate),
    route: validateChannels,
    operation: 'validate',
  },
  { method: 'POST', pattern: exact(PATHS.initiate), route: initiate, operation: 'initiate' },
  {
    method: 'GET',
    pattern: new RegExp(`^${PATHS.authenticate}${REFERENCE}$`),
    route: authenticate,
    operation: 'authenticate',
  },
  { method: 'POST', pattern: exact(PATHS.finalize), route: finalize, operation: 'finalize' },
  {
    method: 'GET',
    pattern: new RegExp(`^${PATHS.status}${REFERENCE}$`),
    route: paymentStatus,
    operation: 'status',
  },
  {
    method: 'POST',
    pattern: exact(PATHS.paymentMethods),
    route: paymentMethods,
    operation: 'paymentMethods',
  },
  {
    method: 'POST',
    pattern: exact(PATHS.fundTransfer),
    route: fundTransfer,
    operation: 'fundTransfer',
  },
  {
    method: 'GET',
    pattern: exact(PATHS.transactions),
    route: listTransactions,
    operation: 'transactions',
  },
];

const CONTROLS: readonly RouteEntry[] = [
  { method: 'GET', pattern: /^\/__sandbox\/config$/, route: controls.describeConfig },
  { method: 'POST', pattern: /^\/__sandbox\/config$/, route: controls.configure },
  { method: 'GET', pattern: /^\/__sandbox\/payments$/, route: controls.listPayments },
  { method: 'GET', pattern: /^\/__sandbox\/payouts$/, route: controls.listPayouts },
  { method: 'GET', pattern: /^\/__sandbox\/webhooks$/, route: controls.listWebhooks },
  { method: 'GET', pattern: /^\/__sandbox\/wallets$/, route: controls.listWallets },
  {
    method: 'POST',
    pattern: new RegExp(`^/__sandbox/payments/${REFERENCE}/transfer$`),
    route: controls.transfer,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/__sandbox/payments/${REFERENCE}/bank$`),
    route: controls.bank,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/__sandbox/payouts/${REFERENCE}/reverse$`),
    route: controls.reverse,
  },
  { method: 'POST', pattern: /^\/__sandbox\/clock$/, route: controls.moveClock },
];

const PAGES: readonly RouteEntry[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/pages/bank/${REFERENCE}$`),
    route: (c) => bankPage(c.world, c.params.reference ?? '', c.baseUrl),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/pages/bank/${REFERENCE}$`),
    route: (c) => bankDecision(c.world, c.params.reference ?? '', c.request),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/pages/challenge/${REFERENCE}$`),
    route: (c) => challengeResult(c.world, c.params.reference ?? '', c.request),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/pages/link/${REFERENCE}$`),
    route: (c) => linkPage(c.world, c.params.reference ?? '', c.baseUrl),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/pages/link/${REFERENCE}/pay$`),
    route: (c) => payOnLink(c.world, c.params.reference ?? '', c.baseUrl, c.request),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/pages/link/${REFERENCE}/challenge/${REFERENCE}$`),
    params: ['alias', 'reference'],
    route: (c) =>
      challengeOnLink(
        c.world,
        c.params.alias ?? '',
        c.params.reference ?? '',
        c.baseUrl,
        c.request,
      ),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/pages/link/${REFERENCE}/cancel$`),
    route: (c) => cancelOnLink(c.world, c.params.reference ?? ''),
  },
];

/** Responses the Node adapter must answer by cutting the connection instead. */
const DROPPED = new WeakSet<Response>();

/** Marks a response whose connection must be destroyed without an answer. */
function dropConnection(): Response {
  const response = new Response(null, { status: 599 });
  DROPPED.add(response);
  return response;
}

/** True when the handler wants the connection cut: a `drop` or `lostResponse` fault. */
export function isDroppedResponse(response: Response): boolean {
  return DROPPED.has(response);
}

export interface SandboxHandlerOptions extends WorldOptions {
  /** The key every API and control call must send in `X-Api`. Default: SANDBOX_TEST_KEY. */
  readonly secretKey?: string | undefined;
  /** The path the sandbox is mounted under, e.g. `/sandbox`; its `{base_url}`. Default: none. */
  readonly basePath?: string | undefined;
}

export interface SandboxHandler {
  (request: Request): Promise<Response>;
  /** The current world, for code in the same process (tests, the demo server). */
  readonly world: () => World;
  /** Cancels every timer and pending webhook. */
  readonly close: () => void;
}

/** Compares without stopping at the first difference, so timing tells nothing about the key. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let index = 0; index < b.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

function match(entries: readonly RouteEntry[], method: string, path: string) {
  let pathMatched = false;
  for (const entry of entries) {
    const found = entry.pattern.exec(path);
    if (!found) continue;
    pathMatched = true;
    if (entry.method === method || (method === 'HEAD' && entry.method === 'GET')) {
      const params: Record<string, string> = {};
      const names = entry.params ?? ['reference'];
      for (const [index, name] of names.entries()) {
        const raw = found[index + 1];
        if (raw === undefined) continue;
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          // A stray `%` is no reference anyone was given: not found, rather than a 500.
          return undefined;
        }
      }
      return { entry, params };
    }
  }
  return pathMatched ? 'wrong-method' : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Applies a fault that strikes before the operation runs; undefined means "go on". */
async function faultBefore(
  fault: OperationFault | undefined,
  world: World,
): Promise<Response | undefined> {
  switch (fault?.type) {
    case 'latency':
      await sleep(fault.ms + Math.floor(world.faultPlan.random() * (fault.jitterMs ?? 0)));
      return undefined;
    case 'error':
      return refusal(fault.status, `Injected fault: the provider answered ${fault.status}.`);
    case 'rateLimit':
      return refusal(429, 'Injected fault: too many requests.', {
        'retry-after': String(fault.retryAfterSeconds),
      });
    case 'drop':
      return dropConnection();
    case 'malformed':
      return new Response('{"value": {"paymentStatus": "REQUI', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    default:
      return undefined;
  }
}

/**
 * Every answer carries `Date` from the sandbox's own clock, as a real provider's does from its
 * own: a sandbox whose clock was moved says so, and the companion measures the provider's now
 * from it (issue 12). Set here, so the Node server does not write real time in its place.
 */
function dated(response: Response, now: number): Response {
  if (isDroppedResponse(response)) return response;
  try {
    response.headers.set('date', new Date(now).toUTCString());
    return response;
  } catch {
    // Immutable headers (a response passed through from elsewhere): copied with the date set.
    const headers = new Headers(response.headers);
    headers.set('date', new Date(now).toUTCString());
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }
}

export function createSandboxHandler(options: SandboxHandlerOptions = {}): SandboxHandler {
  const secretKey = options.secretKey ?? SANDBOX_TEST_KEY;
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  let world = createWorld(options);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (basePath && !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      return refusal(404, `Nothing is served at ${url.pathname}.`);
    }
    const path = url.pathname.slice(basePath.length) || '/';
    const baseUrl = url.origin + basePath;
    const method = request.method.toUpperCase();

    if (path.startsWith('/pages/')) return serve(PAGES, method, path, request, baseUrl);

    if (!sameSecret(request.headers.get(SECRET_KEY_HEADER) ?? '', secretKey)) {
      return refusal(
        401,
        `Missing or invalid secret key: send your secret key in the ${SECRET_KEY_HEADER} header.`,
      );
    }
    if (path === '/__sandbox/reset' && method === 'POST') {
      closeWorld(world);
      world = createWorld(options);
      return new Response(JSON.stringify({ reset: true }), {
        headers: { 'content-type': 'application/json' },
      });
    }
    if (path.startsWith('/__sandbox/')) return serve(CONTROLS, method, path, request, baseUrl);
    return serve(OPERATIONS, method, path, request, baseUrl);
  }

  async function serve(
    entries: readonly RouteEntry[],
    method: string,
    path: string,
    request: Request,
    baseUrl: string,
  ): Promise<Response> {
    const found = match(entries, method, path);
    if (found === undefined) return refusal(404, `There is no endpoint at ${path}.`);
    if (found === 'wrong-method') return refusal(405, `${method} is not allowed on ${path}.`);
    const { entry, params } = found;
    const current = world;
    const fault = entry.operation ? current.faultPlan.forOperation(entry.operation) : undefined;
    const early = await faultBefore(fault, current);
    if (early) return early;
    let response: Response;
    try {
      response = await entry.route({ world: current, request, baseUrl, params });
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) throw error;
      response = refusal(error.status, error.message);
    }
    // The change is made, but the caller never hears of it: the case idempotency exists for.
    if (fault?.type === 'lostResponse') return dropConnection();
    return response;
  }

  /** The list endpoint has its own envelope, for its refusals too: `{ status: false, message }`. */
  async function inListEnvelope(request: Request, response: Response): Promise<Response> {
    const path = new URL(request.url).pathname.slice(basePath.length);
    if (path !== PATHS.transactions || response.ok || isDroppedResponse(response)) return response;
    const body = (await response.json()) as { message?: string };
    const retryAfter = response.headers.get('retry-after');
    return new Response(
      JSON.stringify({ status: false, message: body.message ?? 'Refused.', data: [] }),
      {
        status: response.status,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          ...(retryAfter ? { 'retry-after': retryAfter } : {}),
        },
      },
    );
  }

  const handler = async (request: Request) => {
    let response: Response;
    try {
      response = await inListEnvelope(request, await handle(request));
    } catch (error) {
      console.error('paydrop sandbox: unexpected error', error);
      response = refusal(500, 'The sandbox failed unexpectedly; see its log.');
    }
    return dated(response, world.clock.now());
  };
  return Object.assign(handler, {
    world: () => world,
    close: () => closeWorld(world),
  });
}
