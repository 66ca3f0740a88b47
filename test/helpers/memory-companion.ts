/**
 * The companion in front of the real sandbox handler, both in memory and on one fake clock: for
 * tests of limits that count attempts over hours (issue 20). Calls carry the client's address in
 * `x-test-client` (read by `clientAddress`), so one test can play many clients.
 */
import { createSandboxHandler } from '../../src/sandbox';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandler,
  createMemoryStore,
  type PaymentOutcome,
} from '../../src/server';
import { ORDERS } from './companion';
import { testCard } from './sandbox';

const KEY = 'sk_test_limits_0123456789abcdef';

export interface MemoryRig {
  readonly handler: CheckoutHandler;
  readonly store: ReturnType<typeof createMemoryStore>;
  readonly outcomes: PaymentOutcome[];
  /** Provider calls, `METHOD /path`. */
  readonly providerCalls: string[];
  /** Initiations (every channel) that reached the provider. */
  initiations(): number;
  /** Moves the companion's clock; runs what came due. */
  advance(seconds: number): Promise<void>;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** A session for `order`, from `client`; its token. */
  session(order: string, client?: string, extra?: Record<string, unknown>): Promise<string>;
  /**
   * One card attempt as the widget makes it (session, initiate, authenticate, finalize): the
   * initiate's answer when refused, else finalize's.
   */
  card(order: string, number: string, client?: string): Promise<Answer>;
}

/** An answer of the companion, its JSON body as tests read it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  readonly body: any;
}

interface CallOptions {
  readonly body?: unknown;
  readonly token?: string | undefined;
  readonly client?: string | undefined;
  /** The Cookie header the browser would send. */
  readonly cookie?: string | undefined;
  /** The Origin header, e.g. 'null' for the card frame. */
  readonly origin?: string | undefined;
}

export function memoryCompanion(
  overrides: Partial<CheckoutHandlerOptions> = {},
  /**
   * `initiateDelayMs`: each provider initiation takes this long, as over a network;
   * `providerDown`: while true, the provider answers 503 to everything.
   */
  rigOptions: { initiateDelayMs?: number; providerDown?: () => boolean } = {},
): MemoryRig {
  let time = Date.now();
  const now = () => time;
  const sandbox = createSandboxHandler({ secretKey: KEY });
  const store = createMemoryStore({ now });
  const outcomes: PaymentOutcome[] = [];
  const providerCalls: string[] = [];
  const handler = createCheckoutHandler({
    secretKey: KEY,
    baseUrl: 'http://127.0.0.1:9',
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    // Card testing is tried through the companion's own card entry (the direct path).
    cardEntry: 'direct',
    onPaymentOutcome: (outcome) => {
      outcomes.push(outcome);
    },
    logger: { warn: () => {}, error: () => {} },
    store,
    now,
    clientAddress: (request) => request.headers.get('x-test-client'),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      providerCalls.push(`${request.method} ${url.pathname}`);
      if (rigOptions.providerDown?.())
        return new Response(JSON.stringify({ isSuccess: false, message: 'down' }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      if (rigOptions.initiateDelayMs && url.pathname.endsWith('/initiate'))
        await new Promise((resolve) => setTimeout(resolve, rigOptions.initiateDelayMs));
      return sandbox(request);
    },
    ...overrides,
  });

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    // A card is sent by the card frame alone (issue 19): POST /card from its opaque origin, as
    // companion.ts's companionCall does for the journeys over HTTP.
    const given = options.body as { channel?: unknown; card?: unknown } | undefined;
    if (method === 'POST' && path === '/initiate' && given?.channel === 'Card' && given.card) {
      const { channel: _channel, ...rest } = given;
      return call(method, '/card', { ...options, body: rest, origin: 'null' });
    }
    const headers: Record<string, string> = {};
    if (options.origin) headers.origin = options.origin;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.client) headers['x-test-client'] = options.client;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await handler(
      new Request(`http://shop.test/api/checkout${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      }),
    );
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  }

  async function session(order: string, client?: string, extra: Record<string, unknown> = {}) {
    const answer = await call('POST', '/session', { body: { order, ...extra }, client });
    if (answer.status !== 200) throw new Error(`session: ${JSON.stringify(answer.body)}`);
    return answer.body.token as string;
  }

  return {
    handler,
    store,
    outcomes,
    providerCalls,
    initiations: () =>
      providerCalls.filter((line) => line.startsWith('POST') && line.endsWith('/initiate')).length,
    async advance(seconds) {
      time += seconds * 1000;
      await handler.runDue();
    },
    call,
    session,
    async card(order, number, client) {
      const token = await session(order, client);
      const initiated = await call('POST', '/initiate', {
        token,
        client,
        body: { channel: 'Card', card: testCard(number) },
      });
      if (initiated.status !== 200) return initiated;
      const paymentToken = initiated.body.token as string;
      await call('POST', '/authenticate', { token: paymentToken, client });
      return call('POST', '/finalize', { token: paymentToken, client });
    },
  };
}
