// @vitest-environment jsdom
// The companion port over HTTP, with a stubbed fetch: what it sends, and how every kind of bad
// answer becomes one stable failure code instead of something rendered.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompanionFailure, type PaymentStatus } from '../../src/flow/companion';
import { createCompanionHttp } from '../../src/widget/companion-http';
import { FakeEventSource } from './setup-dom';

const SESSION = {
  token: 'session-token',
  checkout: {
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    description: 'Order 1042',
    channels: [
      { name: 'PayByTransfer', description: null },
      { name: 'Crypto', description: 'not ours' },
    ],
  },
  payment: null,
};

const PAYMENT = {
  reference: 'ref_0001',
  channel: 'PayByTransfer',
  status: 'PENDING',
  amount: { amountMinor: 2_500_050, currency: 'NGN' },
  fees: { amountMinor: 0, currency: 'NGN' },
  virtualAccount: {
    bank: 'Wema Bank',
    accountNumber: '0123456789',
    accountName: 'Paydrop / Amina Stores',
    note: '',
    expiresAt: '2025-03-01T10:30:00Z',
  },
  bankAuthUrl: null,
  serverTime: '2025-03-01T10:00:00Z',
};

interface Sent {
  url: string;
  method: string | undefined;
  headers: Headers;
  body: unknown;
}

/** A fetch that records each request and answers with the given response (or throws). */
function fakeFetch(answer: () => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetcher = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    });
    return answer();
  });
  return { sent, fetcher: fetcher as unknown as typeof fetch };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

async function failure(promise: Promise<unknown>): Promise<CompanionFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CompanionFailure);
    return error as CompanionFailure;
  }
  throw new Error('the call succeeded');
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('requests', () => {
  it('startSession posts the target as JSON to {endpoint}/session, without a token', async () => {
    const { sent, fetcher } = fakeFetch(() => json(SESSION));
    const companion = createCompanionHttp('https://shop.example/api/checkout/', fetcher);
    const session = await companion.startSession({ order: 'order_1042' });

    expect(sent).toHaveLength(1);
    const [request] = sent as [Sent];
    expect(request.url).toBe('https://shop.example/api/checkout/session');
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('authorization')).toBeNull();
    expect(request.body).toEqual({ order: 'order_1042' });

    expect(session.token).toBe('session-token');
    expect(session.description).toBe('Order 1042');
    expect(session.channels).toEqual([{ name: 'PayByTransfer', description: null }]);
  });

  it('initiate posts the channel and customer with "Authorization: Bearer <token>"', async () => {
    const { sent, fetcher } = fakeFetch(() => json({ token: 'payment-token', payment: PAYMENT }));
    const companion = createCompanionHttp('/api/checkout', fetcher);
    const answer = await companion.initiate('session-token', {
      channel: 'PayByTransfer',
      customer: { email: 'amina@example.com' },
    });

    const [request] = sent as [Sent];
    expect(request.url).toBe(`${location.origin}/api/checkout/initiate`);
    expect(request.method).toBe('POST');
    expect(request.headers.get('authorization')).toBe('Bearer session-token');
    expect(request.body).toEqual({
      channel: 'PayByTransfer',
      customer: { email: 'amina@example.com' },
    });
    expect(answer.token).toBe('payment-token');
    expect(answer.payment.virtualAccount?.expiresAt).toBe(Date.parse('2025-03-01T10:30:00Z'));
  });

  it('status gets {endpoint}/status with "Authorization: Bearer <token>" and no body', async () => {
    const { sent, fetcher } = fakeFetch(() =>
      json({ status: 'SUCCESSFUL', serverTime: '2025-03-01T10:05:00Z' }),
    );
    const companion = createCompanionHttp('/api/checkout', fetcher);
    const answer = await companion.status('payment-token');

    const [request] = sent as [Sent];
    expect(request.url).toBe(`${location.origin}/api/checkout/status`);
    expect(request.method).toBe('GET');
    expect(request.headers.get('authorization')).toBe('Bearer payment-token');
    expect(request.body).toBeUndefined();
    expect(answer).toEqual({
      status: 'SUCCESSFUL',
      serverTime: Date.parse('2025-03-01T10:05:00Z'),
    });
  });
});

describe('failures', () => {
  it('a fetch that rejects (offline, CORS) is "network"', async () => {
    const { fetcher } = fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }));
    expect(error.code).toBe('network');
  });

  it('a companion that does not answer within 20 s is "timeout"', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetcher = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        );
      })) as typeof fetch;
    const pending = failure(createCompanionHttp('/api', fetcher).status('t'));
    await vi.advanceTimersByTimeAsync(19_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).code).toBe('timeout');
  });

  const refusals: Array<[number, unknown, string]> = [
    [502, { error: { code: 'unavailable', message: 'Provider down' } }, 'unavailable'],
    [502, { error: { code: 'timeout', message: 'Provider slow' } }, 'timeout'],
    [404, { error: { code: 'not_found', message: 'No such order' } }, 'order_not_found'],
    [404, { error: { code: 'order_not_found', message: 'No such order' } }, 'order_not_found'],
    [400, { error: { code: 'invalid_request', message: 'Bad channel' } }, 'invalid'],
    [429, { error: { code: 'rate_limited', message: 'Slow down' } }, 'rate_limited'],
    [409, { error: { code: 'conflict', message: 'Already paid' } }, 'conflict'],
    [401, { error: { code: 'unauthorized', message: 'Token expired' } }, 'unauthorized'],
    [500, { error: { code: 'something_new', message: 'Huh' } }, 'internal'],
    [503, { oops: true }, 'unavailable'],
    [400, { oops: true }, 'bad_response'],
  ];
  for (const [status, body, code] of refusals) {
    it(`a ${status} with ${JSON.stringify(body)} is "${code}"`, async () => {
      const { fetcher } = fakeFetch(() => json(body, status));
      const error = await failure(
        createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }),
      );
      expect(error.code).toBe(code);
    });
  }

  it("keeps the companion's message and request id for the merchant", async () => {
    const { fetcher } = fakeFetch(() =>
      json({ error: { code: 'unavailable', message: 'Provider down', requestId: 'req_42' } }, 502),
    );
    const error = await failure(createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }));
    expect(error.message).toBe('Provider down');
    expect(error.requestId).toBe('req_42');
  });

  it('a 502 page of HTML from a proxy is "unavailable"', async () => {
    const { fetcher } = fakeFetch(
      () => new Response('<html><body>Bad Gateway</body></html>', { status: 502 }),
    );
    const error = await failure(createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }));
    expect(error.code).toBe('unavailable');
  });

  it('a 200 whose body is not JSON is "bad_response"', async () => {
    const { fetcher } = fakeFetch(() => new Response('<!doctype html><title>Shop</title>'));
    const error = await failure(createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }));
    expect(error.code).toBe('bad_response');
  });

  const malformed: Array<[string, unknown]> = [
    ['a session without a token', { checkout: SESSION.checkout, payment: null }],
    [
      'a session with a negative amount',
      {
        ...SESSION,
        checkout: { ...SESSION.checkout, amount: { amountMinor: -1, currency: 'NGN' } },
      },
    ],
    [
      'a session with a fractional amount',
      {
        ...SESSION,
        checkout: { ...SESSION.checkout, amount: { amountMinor: 1.5, currency: 'NGN' } },
      },
    ],
    ['a session that is an array', [SESSION]],
    ['a session that is null', null],
  ];
  for (const [what, body] of malformed) {
    it(`a 200 with ${what} is "bad_response"`, async () => {
      const { fetcher } = fakeFetch(() => json(body));
      const error = await failure(
        createCompanionHttp('/api', fetcher).startSession({ order: 'o1' }),
      );
      expect(error.code).toBe('bad_response');
    });
  }

  const badPayments: Array<[string, Record<string, unknown>]> = [
    ['an account number with letters', { accountNumber: '01234abcde' }],
    ['an account number with markup', { accountNumber: '<b>0123456789</b>' }],
    ['an expiry that is not a date', { expiresAt: 'soon' }],
  ];
  for (const [what, account] of badPayments) {
    it(`an initiation with ${what} is "bad_response"`, async () => {
      const payment = { ...PAYMENT, virtualAccount: { ...PAYMENT.virtualAccount, ...account } };
      const { fetcher } = fakeFetch(() => json({ token: 'payment-token', payment }));
      const error = await failure(
        createCompanionHttp('/api', fetcher).initiate('t', { channel: 'PayByTransfer' }),
      );
      expect(error.code).toBe('bad_response');
    });
  }

  it('a status that is not one of PENDING, SUCCESSFUL, FAILED is "bad_response"', async () => {
    const { fetcher } = fakeFetch(() => json({ status: 'Successfull' }));
    const error = await failure(createCompanionHttp('/api', fetcher).status('t'));
    expect(error.code).toBe('bad_response');
  });
});

describe('watch', () => {
  it('listens to {endpoint}/events for the token and passes on each status until stopped', () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    const { fetcher } = fakeFetch(() => json({}));
    const heard: PaymentStatus[] = [];
    const stop = createCompanionHttp('/api/checkout', fetcher).watch('tok/en+1', (status) =>
      heard.push(status),
    );
    const source = FakeEventSource.instances[0] as FakeEventSource;
    expect(source.url).toBe(`${location.origin}/api/checkout/events?token=tok%2Fen%2B1`);

    source.emit('status', '{"status":"PENDING"}');
    source.emit('status', 'not json');
    source.emit('status', '{"status":"PAID"}');
    source.emit('status', '{"status":"SUCCESSFUL"}');
    expect(heard).toEqual(['PENDING', 'SUCCESSFUL']);

    stop();
    expect(source.closed).toBe(true);
    source.emit('status', '{"status":"FAILED"}');
    expect(heard).toEqual(['PENDING', 'SUCCESSFUL']);
  });

  it('without EventSource, watching is a no-op (polling still runs)', () => {
    vi.stubGlobal('EventSource', undefined);
    const { fetcher } = fakeFetch(() => json({}));
    const stop = createCompanionHttp('/api', fetcher).watch('t', () => {});
    expect(() => stop()).not.toThrow();
  });
});
