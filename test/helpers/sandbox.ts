/**
 * Test helpers for driving a real sandbox over HTTP on loopback, as a merchant's integration
 * would. Every server here listens on port 0 and is closed by the test that started it.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import type { FundTransferInput } from '../../src/provider/client';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox';

export type { Sandbox };

/** Starts a sandbox on a free port with fast webhook retries, unless told otherwise. */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ port: 0, webhookRetryDelaysMs: [50, 100, 200, 400], ...options });
}

/**
 * A sandbox (started with `options`) for each test of the file or `describe` this is called in:
 * started before the test and closed after it. The handle returned stands for the running test's
 * sandbox, so it is read in tests and hooks only.
 */
export function sandboxPerTest(options: SandboxOptions = {}): Sandbox {
  let current: Sandbox | undefined;
  beforeEach(async () => {
    current = await startSandbox(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return sandboxHandle(() => current);
}

/**
 * For each test, as `sandboxPerTest`: a webhook receiver, and a sandbox whose webhooks go to it.
 * Started in that order before the test; after it, the sandbox is closed, then the receiver.
 */
export function sandboxAndReceiverPerTest(): { sandbox: Sandbox; receiver: WebhookReceiver } {
  let current: { sandbox: Sandbox; receiver: WebhookReceiver } | undefined;
  beforeEach(async () => {
    const receiver = await startWebhookReceiver();
    current = { receiver, sandbox: await startSandbox({ webhookUrl: receiver.url }) };
  });
  afterEach(async () => {
    await current?.sandbox.close();
    await current?.receiver.close();
    current = undefined;
  });
  return {
    sandbox: sandboxHandle(() => current?.sandbox),
    receiver: receiverHandle(() => current?.receiver),
  };
}

function runningTest<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The ${what} exists only while a test runs.`);
  return value;
}

function sandboxHandle(current: () => Sandbox | undefined): Sandbox {
  const now = () => runningTest(current(), 'sandbox');
  return {
    get url() {
      return now().url;
    },
    get secretKey() {
      return now().secretKey;
    },
    get handler() {
      return now().handler;
    },
    request: (method, path, body) => now().request(method, path, body),
    close: () => now().close(),
  };
}

function receiverHandle(current: () => WebhookReceiver | undefined): WebhookReceiver {
  const now = () => runningTest(current(), 'webhook receiver');
  return {
    get url() {
      return now().url;
    },
    get received() {
      return now().received;
    },
    respondWith: (statuses) => now().respondWith(statuses),
    waitFor: (count, timeoutMs) => now().waitFor(count, timeoutMs),
    close: () => now().close(),
  };
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  readonly body: any;
  readonly text: string;
}

/** One call with the key set (unless `key` is given, `null` for none), JSON in, JSON out. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string | null; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<Answer> {
  const key = options.key === undefined ? sandbox.secretKey : options.key;
  const headers: Record<string, string> = { ...(key === null ? {} : { 'X-Api': key }) };
  if (body !== undefined || options.rawBody !== undefined)
    headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);
  const response = await fetch(sandbox.url + path, {
    method,
    headers,
    ...(options.rawBody !== undefined
      ? { body: options.rawBody }
      : body !== undefined
        ? { body: JSON.stringify(body) }
        : {}),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** POST /__sandbox/config with `body`, expected to answer 200. */
export async function configure(sandbox: Sandbox, body: Record<string, unknown>): Promise<void> {
  const answer = await call(sandbox, 'POST', '/__sandbox/config', body);
  expect(answer.status, answer.text).toBe(200);
}

/** POST /__sandbox/config with one fault rule: `steps` for the sandbox's `endpoint`. */
export function injectFault(sandbox: Sandbox, endpoint: string, steps: unknown[]): Promise<void> {
  return configure(sandbox, { faults: [{ endpoint, steps }] });
}

/** Moves the sandbox's clock `seconds` forward, expecting 200; the answer carries the new `now`. */
export async function advance(sandbox: Sandbox, seconds: number): Promise<Answer> {
  const answer = await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: seconds });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

/** The payment's status through the status operation, expecting 200. */
export async function paymentStatus(sandbox: Sandbox, reference: string): Promise<string> {
  const answer = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value.paymentStatus as string;
}

/** The control listing of payments, as it came (its status is not checked). */
// biome-ignore lint/suspicious/noExplicitAny: the control's JSON as it came
export async function listPayments(sandbox: Sandbox): Promise<any[]> {
  return (await call(sandbox, 'GET', '/__sandbox/payments')).body.payments;
}

/** The control listing of payouts, as it came (its status is not checked). */
// biome-ignore lint/suspicious/noExplicitAny: the control's JSON as it came
export async function listPayouts(sandbox: Sandbox): Promise<any[]> {
  return (await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts;
}

/** The wallet's balance in minor units, from the control listing (its status is not checked). */
export async function walletBalance(sandbox: Sandbox, currency = 'NGN'): Promise<number> {
  return (await call(sandbox, 'GET', '/__sandbox/wallets')).body.wallets[currency].balanceMinor;
}

/**
 * Waits until every webhook delivery the sandbox has made has ended: delivered (a 2xx came back,
 * so the receiver has it) or given up after its retries. A duplicate or a held-back event is a
 * delivery of its own, listed from the moment it is made: once none is pending, no more requests
 * are on their way to the receiver.
 */
export async function deliveriesEnded(sandbox: Sandbox): Promise<void> {
  await expect
    .poll(
      async () => {
        const answer = await call(sandbox, 'GET', '/__sandbox/webhooks');
        expect(answer.status).toBe(200);
        return answer.body.webhooks.every(
          (delivery: { state: string }) => delivery.state !== 'pending',
        );
      },
      { interval: 20 },
    )
    .toBe(true);
}

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  // biome-ignore lint/suspicious/noExplicitAny: the payload under test
  readonly json: any;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Statuses to answer with, one per delivery, then 200. */
  respondWith(statuses: number[]): void;
  /** Resolves once `count` webhooks have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint on loopback that records what it receives. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let script: number[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = script.shift() ?? 200;
      const body = Buffer.concat(chunks).toString('utf8');
      if (status >= 200 && status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        received.push({ headers: request.headers, body, json });
        for (const wake of waiters.splice(0)) wake();
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    respondWith(statuses) {
      script = [...statuses];
    },
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhooks, got ${received.length}`)),
          timeoutMs,
        );
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits for `predicate` to hold, polling every 20 ms, failing after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  predicate: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (predicate(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits `ms` milliseconds of real time. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Request bodies that succeed, to be varied by tests. */
export const TRANSFER_INITIATION = {
  amount: 2500.5,
  channel: 'PayByTransfer',
  currency: 'NGN',
  userInformation: {
    firstName: 'Ada',
    lastName: 'Obi',
    emailAddress: 'ada@example.com',
    phone: '+2348012345678',
  },
} as const;

export const BANK_INITIATION = {
  amount: 49.99,
  channel: 'PayByAccount',
  currency: 'GBP',
  metaData: { 'return-url': 'https://shop.example/return' },
} as const;

/** A card that expires in two years; `number` picks what the sandbox does with it. */
export function testCard(number: string) {
  return {
    number,
    expiryMonth: 12,
    expiryYear: new Date().getUTCFullYear() + 2,
    cvv: '123',
    holderName: 'Ada Obi',
  };
}

export function cardInitiation(number: string, currency = 'NGN') {
  return { amount: 1500, channel: 'Card', currency, card: testCard(number) };
}

export function fundTransfer(overrides: Record<string, unknown> = {}) {
  return {
    tenantReference: `t-${crypto.randomUUID()}`,
    amount: '150000',
    currencyCode: 'NGN',
    narration: 'Refund for order 1042',
    beneficiaryAccountName: 'Ada Obi',
    beneficiaryAccountNumber: '0123456789',
    paymentMethodType: 'BankCode',
    paymentMethodValue: '058',
    ...overrides,
  };
}

/** A fund transfer as the provider client takes it, with a fresh tenantReference. */
export function fundTransferInput(overrides: Partial<FundTransferInput> = {}): FundTransferInput {
  return {
    tenantReference: `refund-${crypto.randomUUID()}`,
    amount: { amountMinor: 150_000, currency: 'NGN' },
    narration: 'Refund for order 1042',
    beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
    paymentMethodType: 'BankCode',
    paymentMethodValue: '058',
    ...overrides,
  };
}
