// How every call reaches the provider (src/provider/transport.ts): the key in X-Api and nowhere
// else, a deadline per attempt, and retries only where a second attempt cannot do harm. Network,
// time and randomness are faked by hand, so every retry and every wait is counted exactly.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorFromAnswer,
  type ProviderAnswer,
  ProviderError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from '../../../src/protocol';
import {
  createProviderTransport,
  type ProviderCall,
  type ProviderTransportOptions,
} from '../../../src/provider/transport';

const KEY = 'sk_test_transport_8f2c1d9e7b6a';
const BASE = 'https://api.provider.example';

/** One scripted answer: a Response to give, an error to throw, or a hang until aborted. */
type Step = (() => Response) | Error | 'hang';

interface RecordedCall {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
}

/** A fetch that records each call and plays `steps` in order (the last one repeats). */
function fakeFetch(steps: Step[]) {
  const calls: RecordedCall[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    const step = steps.length > 1 ? steps.shift() : steps[0];
    if (step === undefined) throw new Error('fake fetch: no step scripted');
    if (step instanceof Error) throw step;
    if (step === 'hang') {
      return new Promise<Response>((_, reject) => {
        const signal = init?.signal;
        signal?.addEventListener('abort', () =>
          reject(new DOMException('This operation was aborted', 'AbortError')),
        );
      });
    }
    return step();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function answer(
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): () => Response {
  return () =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
}

const OK = answer(200, { isSuccess: true, value: { ok: true } });
const ACCEPTED = answer(202, {
  isSuccess: true,
  value: { reference: 'PO-1', tenantReference: 'refund-1' },
});
const UNAVAILABLE = answer(503, { isSuccess: false, message: 'Service unavailable.' });
const SERVER_ERROR = answer(500, { isSuccess: false, message: 'Internal error.' });

/** What undici's fetch throws on a cut connection; this one even quotes the request's headers. */
function networkError(): TypeError {
  return new TypeError(`fetch failed (headers: X-Api: ${KEY})`, {
    cause: new Error(`other side closed; X-Api=${KEY}`),
  });
}

function rig(steps: Step[], options: Partial<ProviderTransportOptions> = {}) {
  const fake = fakeFetch(steps);
  const waits: number[] = [];
  let draws = 0;
  const transport = createProviderTransport({
    baseUrl: BASE,
    secretKey: KEY,
    fetch: fake.fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => {
      draws += 1;
      return 0.5;
    },
    ...options,
  });
  return { transport, calls: fake.calls, waits, draws: () => draws };
}

const STATUS: ProviderCall = {
  operation: 'status',
  method: 'GET',
  path: '/api/payment/pay/status/PAY-1',
  retry: 'safe',
};

const FUND_TRANSFER: ProviderCall = {
  operation: 'fundTransfer',
  method: 'POST',
  path: '/payout/Disbursement/Payout/FundTransfer',
  body: {
    tenantReference: 'refund-1',
    amount: '150000',
    currencyCode: 'NGN',
    narration: 'Refund for order 1042',
  },
  retry: 'idempotent',
};

const INITIATE: ProviderCall = {
  operation: 'initiate',
  method: 'POST',
  path: '/api/payment/pay/initiate',
  body: { amount: 2500.5, channel: 'PayByTransfer', currency: 'NGN' },
  retry: 'never',
};

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** The key must not be in anything a log or an error tracker would print. */
function expectNoKey(error: unknown): void {
  expect(error).toBeInstanceOf(ProviderError);
  const thrown = error as Error;
  expect(thrown.message).not.toContain(KEY);
  expect(thrown.name).not.toContain(KEY);
  expect(JSON.stringify(thrown)).not.toContain(KEY);
  expect(String(thrown.stack)).not.toContain(KEY);
  expect(inspect(thrown, { depth: 10 })).not.toContain(KEY);
}

describe('the secret key', () => {
  it('travels in X-Api on every call, with JSON headers, to the base URL', async () => {
    const { transport, calls } = rig([OK]);
    const result = await transport.send(FUND_TRANSFER);
    expect(result.status).toBe(200);
    expect(calls).toHaveLength(1);
    const [sent] = calls;
    expect(sent?.url).toBe(`${BASE}/payout/Disbursement/Payout/FundTransfer`);
    expect(sent?.method).toBe('POST');
    expect(sent?.headers.get('X-Api')).toBe(KEY);
    expect(sent?.headers.get('accept')).toBe('application/json');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(sent?.body ?? 'null')).toEqual(FUND_TRANSFER.body);
  });

  it('a GET carries the key but no body and no content-type', async () => {
    const { transport, calls } = rig([OK]);
    await transport.send(STATUS);
    expect(calls[0]?.headers.get('X-Api')).toBe(KEY);
    expect(calls[0]?.headers.has('content-type')).toBe(false);
    expect(calls[0]?.body).toBeUndefined();
  });

  it('is not in the error when fetch throws an error that quotes the headers', async () => {
    const { transport } = rig([networkError()], { attempts: 2 });
    const error = await failure(transport.send(STATUS));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).status).toBe(0);
    expectNoKey(error);
  });

  it('is not in the error after a timeout', async () => {
    const { transport } = rig(['hang'], { timeoutMs: 20 });
    const error = await failure(transport.send(INITIATE));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expectNoKey(error);
  });

  it.each([
    ['503', UNAVAILABLE],
    ['429', answer(429, { isSuccess: false, message: 'Slow down.' }, { 'retry-after': '1' })],
    ['401', answer(401, { isSuccess: false, message: 'Missing or invalid secret key.' })],
  ])('is not in the error of a %s, nor in the request it names', async (_, step) => {
    const { transport } = rig([step]);
    // 429 and 5xx are thrown by the transport; a 401 is handed back and a parser turns it into
    // an error with errorFromAnswer, as every endpoint's parser does.
    const error = await transport.send(STATUS).then(errorFromAnswer, (thrown: unknown) => thrown);
    expectNoKey(error);
  });

  it('is not in the error it throws when a 503 answer quotes the key back', async () => {
    const echo = answer(503, {
      isSuccess: false,
      message: `Upstream refused X-Api ${KEY}; try again later.`,
    });
    const { transport } = rig([echo]);
    const error = await failure(transport.send(STATUS));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expectNoKey(error);
  });
});

describe("'safe' calls (reads)", () => {
  it('retry a thrown network error and return the answer that finally came', async () => {
    const { transport, calls, waits } = rig([networkError(), networkError(), OK]);
    const result = await transport.send(STATUS);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ isSuccess: true, value: { ok: true } });
    expect(calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('give up after `attempts` network errors with ProviderUnavailableError', async () => {
    const { transport, calls, waits } = rig([networkError()], { attempts: 4 });
    const error = await failure(transport.send(STATUS));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(calls).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  it.each([500, 502, 503, 504])(
    'retry a %s, three attempts by default, then throw it',
    async (status) => {
      const { transport, calls } = rig([answer(status, { isSuccess: false, message: 'down' })]);
      const error = await failure(transport.send(STATUS));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as ProviderUnavailableError).status).toBe(status);
      expect((error as ProviderUnavailableError).request).toEqual({
        method: 'GET',
        url: `${BASE}/api/payment/pay/status/PAY-1`,
      });
      expect(calls).toHaveLength(3);
    },
  );

  it('retry a 5xx gateway page that is not JSON', async () => {
    const gateway = () =>
      new Response('<html><body>502 Bad Gateway</body></html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      });
    const { transport, calls } = rig([gateway, OK]);
    expect((await transport.send(STATUS)).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('on 429 wait at least Retry-After seconds before trying again', async () => {
    const { transport, calls, waits } = rig([
      answer(429, { isSuccess: false, message: 'Too many requests.' }, { 'retry-after': '2' }),
      OK,
    ]);
    expect((await transport.send(STATUS)).status).toBe(200);
    expect(calls).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThanOrEqual(5000);
  });

  it('on 429 cap the Retry-After wait at maxBackoffMs', async () => {
    const tooLong = answer(429, { isSuccess: false }, { 'retry-after': '120' });
    const { transport, waits } = rig([tooLong, OK], { maxBackoffMs: 3000 });
    await transport.send(STATUS);
    expect(waits).toEqual([3000]);
  });

  it('throw ProviderRateLimitError with retryAfterSeconds once every attempt got 429', async () => {
    const limited = answer(
      429,
      { isSuccess: false, message: 'Slow down.' },
      { 'retry-after': '1' },
    );
    const { transport, calls, waits } = rig([limited]);
    const error = await failure(transport.send(STATUS));
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect((error as ProviderRateLimitError).retryAfterSeconds).toBe(1);
    expect((error as ProviderRateLimitError).status).toBe(429);
    expect(calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1000);
  });

  it('back off with full jitter: random() times a ceiling that doubles', async () => {
    const { transport, waits, draws } = rig([UNAVAILABLE], {
      attempts: 5,
      backoffMs: 100,
      maxBackoffMs: 10_000,
    });
    await failure(transport.send(STATUS));
    // random() is 0.5: half of 100, 200, 400, 800.
    expect(waits).toEqual([50, 100, 200, 400]);
    expect(draws()).toBe(4);
  });

  it('the jitter comes from random(): other draws, other waits', async () => {
    const draws = [0, 0.25, 0.999];
    const { transport, waits } = rig([UNAVAILABLE], {
      attempts: 4,
      backoffMs: 100,
      maxBackoffMs: 10_000,
      random: () => draws.shift() ?? 0,
    });
    await failure(transport.send(STATUS));
    expect(waits).toEqual([0, 50, 399]);
  });

  it('never waits longer than maxBackoffMs, however many retries', async () => {
    const { transport, waits } = rig([UNAVAILABLE], {
      attempts: 8,
      backoffMs: 100,
      maxBackoffMs: 300,
      random: () => 0.999,
    });
    await failure(transport.send(STATUS));
    expect(waits).toHaveLength(7);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(300);
    expect(waits.at(-1)).toBe(299);
  });

  it.each([400, 401, 404, 409, 422])(
    'do not retry a %s: one call, the answer handed back',
    async (status) => {
      const { transport, calls, waits } = rig([
        answer(status, { isSuccess: false, message: 'refused' }),
        OK,
      ]);
      const result = await transport.send(STATUS);
      expect(result.status).toBe(status);
      expect(calls).toHaveLength(1);
      expect(waits).toEqual([]);
    },
  );

  it('attempts: 1 means no retry at all', async () => {
    const { transport, calls } = rig([UNAVAILABLE, OK], { attempts: 1 });
    await failure(transport.send(STATUS));
    expect(calls).toHaveLength(1);
  });
});

describe("'idempotent' calls (the fund transfer)", () => {
  it('retry with the identical body, method, URL and key until accepted', async () => {
    const { transport, calls } = rig([networkError(), UNAVAILABLE, ACCEPTED]);
    const result = await transport.send(FUND_TRANSFER);
    expect(result.status).toBe(202);
    expect(calls).toHaveLength(3);
    const [first, ...retries] = calls;
    for (const retry of retries) {
      expect(retry.body).toBe(first?.body);
      expect(retry.url).toBe(first?.url);
      expect(retry.method).toBe('POST');
      expect(retry.headers.get('X-Api')).toBe(KEY);
    }
    expect(JSON.parse(first?.body ?? 'null').tenantReference).toBe('refund-1');
  });

  it('retry after a timeout, with the same tenantReference', async () => {
    const { transport, calls } = rig(['hang', ACCEPTED], { timeoutMs: 20 });
    const result = await transport.send(FUND_TRANSFER);
    expect(result.status).toBe(202);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toBe(calls[0]?.body);
  });

  it.each([400, 409])('do not retry a %s refusal', async (status) => {
    const { transport, calls } = rig([answer(status, { isSuccess: false }), ACCEPTED]);
    expect((await transport.send(FUND_TRANSFER)).status).toBe(status);
    expect(calls).toHaveLength(1);
  });
});

describe("'never' calls (initiation, finalize)", () => {
  it('do not retry a 500: exactly one call', async () => {
    const { transport, calls, waits } = rig([SERVER_ERROR, OK]);
    const error = await failure(transport.send(INITIATE));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('do not retry a timeout: exactly one call', async () => {
    const { transport, calls } = rig(['hang', OK], { timeoutMs: 20 });
    const error = await failure(transport.send(INITIATE));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(calls).toHaveLength(1);
  });

  it('do not retry a cut connection: exactly one call', async () => {
    const { transport, calls } = rig([networkError(), OK]);
    await failure(transport.send(INITIATE));
    expect(calls).toHaveLength(1);
  });

  it('do not retry a 429 either', async () => {
    const { transport, calls } = rig([answer(429, {}, { 'retry-after': '1' }), OK]);
    expect(await failure(transport.send(INITIATE))).toBeInstanceOf(ProviderRateLimitError);
    expect(calls).toHaveLength(1);
  });
});

describe("the deadline (the transport's own timer, on vitest's fake clock)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The call's failure, and whether it has come yet. */
  function watched(promise: Promise<unknown>) {
    let settled = false;
    const error = failure(promise).finally(() => {
      settled = true;
    });
    return { error, settled: () => settled };
  }

  it('a fetch that never answers ends in ProviderTimeoutError after timeoutMs', async () => {
    const { transport, calls } = rig(['hang'], { timeoutMs: 50 });
    const call = watched(transport.send(INITIATE));
    await vi.advanceTimersByTimeAsync(49);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.settled()).toBe(true);
    const error = await call.error;
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).status).toBe(0);
    expect((error as ProviderTimeoutError).message).toContain('50 ms');
    expect(calls).toHaveLength(1);
  });

  it('applies to each attempt of a safe call, then throws the timeout', async () => {
    const { transport, calls } = rig(['hang'], { timeoutMs: 30, attempts: 2 });
    const call = watched(transport.send(STATUS));
    await vi.advanceTimersByTimeAsync(59);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.error).toBeInstanceOf(ProviderTimeoutError);
    expect(calls).toHaveLength(2);
  });

  it("a call's own timeoutMs overrides the transport's", async () => {
    const { transport } = rig(['hang'], { timeoutMs: 60_000 });
    const call = watched(transport.send({ ...INITIATE, timeoutMs: 40 }));
    await vi.advanceTimersByTimeAsync(39);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.error).toBeInstanceOf(ProviderTimeoutError);
  });

  it('the fetch is given an AbortSignal that fires at the deadline', async () => {
    let signal: AbortSignal | undefined;
    const fetch = ((_: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    }) as typeof globalThis.fetch;
    const transport = createProviderTransport({
      baseUrl: BASE,
      secretKey: KEY,
      fetch,
      timeoutMs: 30,
    });
    const call = watched(transport.send(INITIATE));
    await vi.advanceTimersByTimeAsync(30);
    await call.error;
    expect(signal?.aborted).toBe(true);
  });
});

describe('base URLs', () => {
  const noFetch = (() => {
    throw new Error('no call may be made');
  }) as unknown as typeof fetch;

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['relative', '/api'],
    ['host without a scheme', 'api.provider.example'],
    ['ftp:', 'ftp://api.provider.example'],
    ['javascript:', 'javascript:alert(1)'],
  ])('a %s baseUrl throws TypeError at creation', (_, baseUrl) => {
    expect(() =>
      createProviderTransport({ baseUrl: baseUrl as string, secretKey: KEY, fetch: noFetch }),
    ).toThrow(TypeError);
    expect(() =>
      createProviderTransport({ baseUrl: baseUrl as string, secretKey: KEY, fetch: noFetch }),
    ).toThrow(/baseUrl/);
  });

  it.each([
    ['relative', '/v1'],
    ['ftp:', 'ftp://sandbox.provider.example'],
  ])('a %s listBaseUrl throws TypeError at creation', (_, listBaseUrl) => {
    expect(() =>
      createProviderTransport({ baseUrl: BASE, listBaseUrl, secretKey: KEY, fetch: noFetch }),
    ).toThrow(/listBaseUrl/);
  });

  it('a missing secret key throws TypeError at creation', () => {
    expect(() => createProviderTransport({ baseUrl: BASE, secretKey: '', fetch: noFetch })).toThrow(
      TypeError,
    );
  });

  it('the transaction list goes to listBaseUrl, everything else to baseUrl', async () => {
    const fake = fakeFetch([answer(200, { status: true, data: [], meta: {} })]);
    const transport = createProviderTransport({
      baseUrl: 'https://api.provider.example/',
      listBaseUrl: 'https://sandbox.provider.example/',
      secretKey: KEY,
      fetch: fake.fetch,
    });
    await transport.send({
      operation: 'transactions',
      method: 'GET',
      path: '/v1/api/transactions?page=2&perPage=50',
      retry: 'safe',
    });
    await transport.send(STATUS);
    expect(fake.calls.map((sent) => sent.url)).toEqual([
      'https://sandbox.provider.example/v1/api/transactions?page=2&perPage=50',
      'https://api.provider.example/api/payment/pay/status/PAY-1',
    ]);
    expect(fake.calls[0]?.headers.get('X-Api')).toBe(KEY);
  });

  it('without listBaseUrl the list goes to baseUrl, and a path prefix is kept', async () => {
    const fake = fakeFetch([answer(200, {})]);
    const transport = createProviderTransport({
      baseUrl: 'http://127.0.0.1:4010/sandbox/',
      secretKey: KEY,
      fetch: fake.fetch,
    });
    const result: ProviderAnswer = await transport.send({
      operation: 'transactions',
      method: 'GET',
      path: '/v1/api/transactions?page=1&perPage=20',
      retry: 'safe',
    });
    expect(result.request?.url).toBe(
      'http://127.0.0.1:4010/sandbox/v1/api/transactions?page=1&perPage=20',
    );
    expect(fake.calls[0]?.url).toBe(result.request?.url);
  });
});
