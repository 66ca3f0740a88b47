/**
 * A companion (createCheckoutHandler) served over HTTP on loopback in front of a real sandbox,
 * with the sandbox's webhooks pointed at it: the whole server side, as a merchant runs it.
 */
import { afterEach, expect } from 'vitest';
import { serve } from '../../src/node/serve';
import {
  type CheckoutHandler,
  type CheckoutHandlerOptions,
  createCheckoutHandler,
  type PaymentOutcome,
  type PayoutOutcome,
} from '../../src/server';
import { deliveriesEnded, type Sandbox, startSandbox } from './sandbox';

export const ORDERS: Record<
  string,
  { amountMinor: number; currency: string; description: string }
> = {
  'order-ngn': { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
  'order-gbp': { amountMinor: 4_999, currency: 'GBP', description: 'Merino scarf' },
  'order-usd': { amountMinor: 1_800, currency: 'USD', description: 'Enamel mug' },
};

export interface CompanionRig {
  readonly sandbox: Sandbox;
  readonly handler: CheckoutHandler;
  /** e.g. http://127.0.0.1:5123/api/checkout */
  readonly url: string;
  readonly origin: string;
  readonly paymentOutcomes: PaymentOutcome[];
  readonly payoutOutcomes: PayoutOutcome[];
  /** Every line the companion logged, to prove the key is never in one. */
  readonly logLines: string[];
  /** Every call the companion made to the provider: method and path. */
  readonly providerCalls: Array<{ method: string; path: string }>;
  /**
   * Moves the sandbox's clock and the companion's together, as if `seconds` had passed: a
   * provider outage of minutes, and the companion's backoff through it, in milliseconds. Resolves
   * once the companion has run what came due.
   */
  advance(seconds: number): Promise<void>;
  /**
   * Stops the companion's clock where it is until the returned function is called, so that a
   * burst of calls on a loaded machine all land inside the same cache second.
   */
  holdClock(): () => void;
  close(): Promise<void>;
}

export async function startCompanion(
  overrides: Partial<CheckoutHandlerOptions> = {},
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
): Promise<CompanionRig> {
  const sandbox = await startSandbox(sandboxOptions);
  const paymentOutcomes: PaymentOutcome[] = [];
  const payoutOutcomes: PayoutOutcome[] = [];
  const logLines: string[] = [];
  const providerCalls: Array<{ method: string; path: string }> = [];
  let handler: CheckoutHandler | undefined;
  let offsetMs = 0;
  let heldAt: number | undefined;
  const running = await serve((request) => {
    if (!handler) return Promise.resolve(new Response('starting', { status: 503 }));
    return handler(request);
  });
  const countingFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    providerCalls.push({ method: init?.method ?? 'GET', path: url.pathname + url.search });
    return fetch(input, init);
  };
  handler = createCheckoutHandler({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    // 'order-ngn:42' is order 42 of the NGN kind: each test can use orders of its own.
    resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
    // The card tests here type the card in the companion's card entry (the direct path);
    // the hosted page's journeys set cardEntry: 'hosted'.
    cardEntry: 'direct',
    onPaymentOutcome: (outcome) => {
      paymentOutcomes.push(outcome);
    },
    onPayoutOutcome: (outcome) => {
      payoutOutcomes.push(outcome);
    },
    logger: {
      warn: (message, details) => logLines.push(`warn ${message} ${JSON.stringify(details ?? {})}`),
      error: (message, details) =>
        logLines.push(`error ${message} ${JSON.stringify(details ?? {})}`),
    },
    fetch: countingFetch,
    now: () => heldAt ?? Date.now() + offsetMs,
    ...overrides,
  });
  const url = `${running.url}/api/checkout`;
  await sandbox.request('POST', '/__sandbox/config', { webhookUrl: `${url}/webhooks` });
  return {
    sandbox,
    handler,
    url,
    origin: running.url,
    paymentOutcomes,
    payoutOutcomes,
    logLines,
    providerCalls,
    holdClock() {
      heldAt = Date.now() + offsetMs;
      return () => {
        heldAt = undefined;
      };
    },
    async advance(seconds) {
      const moved = await sandbox.request('POST', '/__sandbox/clock', { advanceSeconds: seconds });
      expect(moved.status).toBe(200);
      offsetMs += seconds * 1000;
      await handler?.runDue();
    },
    async close() {
      handler?.close();
      await running.close();
      await sandbox.close();
    },
  };
}

/** A call to the companion as the widget makes it (JSON, optional bearer token). */
export async function companionCall(
  rig: CompanionRig,
  method: string,
  path: string,
  options: {
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
    rawBody?: string;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  // A card is sent by the card frame alone (issue 19): POST /card from its opaque origin
  // (`Origin: null`), without a channel. The journeys that pay by card call it as the frame does.
  const given = options.body as { channel?: unknown; card?: unknown } | undefined;
  if (method === 'POST' && path === '/initiate' && given?.channel === 'Card' && given.card) {
    const { channel: _channel, ...rest } = given;
    return companionCall(rig, method, '/card', {
      ...options,
      body: rest,
      headers: { ...options.headers, origin: 'null' },
    });
  }
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined || options.rawBody !== undefined)
    headers['content-type'] ??= 'application/json';
  const response = await fetch(rig.url + path, {
    method,
    headers,
    ...(options.rawBody !== undefined
      ? { body: options.rawBody }
      : options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : {}),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Session then initiation: a token bound to a fresh payment of `channel`. */
export async function startPayment(
  rig: CompanionRig,
  order: string,
  channel: 'PayByTransfer' | 'PayByAccount' | 'Card',
  extra: Record<string, unknown> = {},
) {
  const session = await companionCall(rig, 'POST', '/session', { body: { order } });
  if (session.status !== 200) throw new Error(`session failed: ${session.text}`);
  const initiated = await companionCall(rig, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel, ...extra },
  });
  if (initiated.status !== 200) throw new Error(`initiate failed: ${initiated.text}`);
  return {
    session: session.body,
    token: initiated.body.token as string,
    payment: initiated.body.payment,
    /** What the widget keeps to see this payment again from `/session` (issue 20). */
    paymentKey: initiated.body.paymentKey as string,
  };
}

/**
 * For test files that start a companion per test and prove the secret key never leaves it:
 * `start` (called in a test or a beforeEach) starts one on a sandbox with the secret key `key`.
 * After each test, the one it started is closed, `key` is expected in none of `seen` (the answers
 * the file recorded) and none of the companion's log lines, and `seen` is emptied.
 */
export function companionPerTest(key: string, seen: string[]) {
  let rig: CompanionRig | undefined;
  afterEach(async () => {
    if (rig) {
      await rig.close();
      expect(seen.filter((text) => text.includes(key))).toEqual([]);
      expect(rig.logLines.filter((line) => line.includes(key))).toEqual([]);
    }
    rig = undefined;
    seen.length = 0;
  });
  return async function start(
    overrides: Parameters<typeof startCompanion>[0] = {},
    sandboxOptions: Parameters<typeof startCompanion>[1] = {},
  ): Promise<CompanionRig> {
    rig = await startCompanion(overrides, { secretKey: key, ...sandboxOptions });
    return rig;
  };
}

/**
 * `call`: companionCall that pushes each answer's text to `seen`, and its headers too unless
 * `headers: false`, so that a test can prove afterwards that the key is in none of them.
 * `begin`: session then initiation of `channel` through that `call`, each expected to answer 200.
 */
export function recorder(seen: string[], options: { headers?: boolean } = {}) {
  const recordHeaders = options.headers ?? true;
  const call: typeof companionCall = async (...args) => {
    const answer = await companionCall(...args);
    if (recordHeaders) seen.push(answer.text, JSON.stringify([...answer.headers]));
    else seen.push(answer.text);
    return answer;
  };
  async function begin(
    rig: CompanionRig,
    order: string,
    channel: string,
    extra: object = {},
    headers: Record<string, string> = {},
  ) {
    const session = await call(rig, 'POST', '/session', { body: { order }, headers });
    expect(session.status, session.text).toBe(200);
    const initiated = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel, ...extra },
      headers,
    });
    expect(initiated.status, initiated.text).toBe(200);
    return {
      sessionToken: session.body.token as string,
      token: initiated.body.token as string,
      reference: initiated.body.payment.reference as string,
      payment: initiated.body.payment,
    };
  }
  return { call, begin };
}

/** A sandbox control called through the rig's sandbox, expected to answer 2xx; its JSON. */
export async function control(
  rig: CompanionRig,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: sandbox controls answer plain JSON
): Promise<any> {
  const response = await rig.sandbox.request(method, path, body);
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

/** The sandbox's control listing of its payments. */
// biome-ignore lint/suspicious/noExplicitAny: sandbox controls answer plain JSON
export async function sandboxPayments(rig: CompanionRig): Promise<any[]> {
  return (await control(rig, 'GET', '/__sandbox/payments')).payments;
}

/** Waits until the sandbox has delivered every webhook and the companion has acted on them. */
export async function webhooksSettled(rig: CompanionRig): Promise<void> {
  await deliveriesEnded(rig.sandbox);
  await rig.handler.idle();
}
