// The fetch the provider's calls go through by default (src/provider/provider-fetch.ts): on Node,
// fetch's own dispatcher asked directly. Against a real node:http server on a free loopback
// port, each call is made twice, through it and through fetch, and must come out the same: what
// the provider receives, and what the companion reads back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderTimeoutError, ProviderUnavailableError } from '../../../src/protocol';
import { providerFetch } from '../../../src/provider/provider-fetch';
import { createProviderTransport } from '../../../src/provider/transport';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const received: Received[] = [];
/** What the server answers, by path; set per test. */
let answer: (request: Received, response: ServerResponse) => void = (_request, response) =>
  response.end();
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(seen);
      answer(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // fetch creates the dispatcher the first time it is called (Node makes it lazily).
  await (await fetch(`${base}/warm`)).arrayBuffer();
  received.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  received.length = 0;
  vi.restoreAllMocks();
});

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type WithDispatcher = Record<symbol, { request: (...args: unknown[]) => unknown } | undefined>;

/** Counts the calls that reach fetch's dispatcher directly, while `run` runs. */
async function countingDispatcher<T>(run: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const global = globalThis as unknown as WithDispatcher;
  const dispatcher = global[DISPATCHER];
  if (!dispatcher) throw new Error('fetch made no global dispatcher');
  let calls = 0;
  const request = dispatcher.request;
  dispatcher.request = function (this: unknown, ...args: unknown[]) {
    calls++;
    return request.apply(this, args);
  };
  try {
    return { result: await run(), calls };
  } finally {
    dispatcher.request = request;
  }
}

/** What a Response says, in a form to compare. */
async function seenOf(response: Response) {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    date: response.headers.get('date'),
    cookies: response.headers.getSetCookie(),
    custom: response.headers.get('x-custom'),
    text: await response.text(),
  };
}

const call = {
  method: 'POST',
  headers: {
    'X-Api': 'sk_test_fast_fetch',
    accept: 'application/json',
    'content-type': 'application/json',
  },
  body: JSON.stringify({ amount: 2500.5, channel: 'PayByTransfer', note: 'Naira ₦' }),
  // As the transport sends every call: it follows redirects itself.
  redirect: 'manual',
} satisfies RequestInit;

describe('providerFetch', () => {
  it('sends a call as fetch does and reads its answer as fetch does, through fetch’s dispatcher', async () => {
    answer = (_request, response) => {
      response.setHeader('content-type', 'application/json; charset=utf-8');
      response.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      response.setHeader('x-custom', 'kept');
      response
        .writeHead(201)
        .end(JSON.stringify({ data: { reference: 'PAY_1', note: '₦ 2,500.50' } }));
    };
    const { result: fast, calls } = await countingDispatcher(async () =>
      seenOf(await providerFetch(`${base}/api/payment/pay/initiate?x=1`, call)),
    );
    expect(calls).toBe(1);
    const slow = await seenOf(await fetch(`${base}/api/payment/pay/initiate?x=1`, call));
    expect(fast).toEqual({ ...slow, date: fast.date });
    expect(fast).toMatchObject({
      status: 201,
      cookies: ['a=1; Path=/', 'b=2; Path=/'],
      custom: 'kept',
      text: JSON.stringify({ data: { reference: 'PAY_1', note: '₦ 2,500.50' } }),
    });
    expect(Date.parse(fast.date ?? '')).not.toBeNaN();

    const [viaDispatcher, viaFetch] = received as [Received, Received];
    expect(viaDispatcher).toMatchObject({
      method: 'POST',
      url: '/api/payment/pay/initiate?x=1',
      body: call.body,
    });
    expect(viaDispatcher.body).toBe(viaFetch.body);
    for (const name of ['x-api', 'accept', 'content-type', 'content-length', 'user-agent'])
      expect([name, viaDispatcher.headers[name]]).toEqual([name, viaFetch.headers[name]]);
    // The one difference: it asks for an answer it need not decode.
    expect(viaDispatcher.headers['accept-encoding']).toBe('identity');
  });

  it('decodes an answer compressed although identity was asked for', async () => {
    answer = (_request, response) => {
      response.setHeader('content-encoding', 'gzip');
      response.setHeader('content-type', 'application/json');
      response.end(gzipSync(JSON.stringify({ data: { status: 'SUCCESSFUL' } })));
    };
    const response = await providerFetch(`${base}/status`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
    expect(await response.json()).toEqual({ data: { status: 'SUCCESSFUL' } });
  });

  it('refuses an answer in an encoding it cannot decode, rather than hand back its bytes', async () => {
    answer = (_request, response) => {
      response.setHeader('content-encoding', 'compress');
      response.end('????');
    };
    await expect(providerFetch(`${base}/status`, { redirect: 'manual' })).rejects.toThrow(
      /content-encoding compress cannot be decoded/,
    );
  });

  it('answers a redirect as it is, for the transport to follow', async () => {
    answer = (_request, response) => response.writeHead(307, { location: '/new' }).end();
    const { result, calls } = await countingDispatcher(() => providerFetch(`${base}/moved`, call));
    expect(calls).toBe(1);
    expect(result.status).toBe(307);
    expect(result.headers.get('location')).toBe('/new');
    expect(received.map((request) => request.url)).toEqual(['/moved']);
  });

  it('gives a 204 answer no body, as fetch does', async () => {
    answer = (_request, response) => response.writeHead(204).end();
    const response = await providerFetch(`${base}/empty`, call);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('stops waiting when its signal is aborted, for a provider that never answers', async () => {
    let arrived: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    answer = () => arrived();
    const controller = new AbortController();
    const pending = providerFetch(`${base}/hang`, { ...call, signal: controller.signal });
    await hanging;
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('uses a fetch put in place since it was loaded (a test mocking the provider), not the dispatcher', async () => {
    answer = (_request, response) => response.end('{"real":true}');
    const mocked = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response('{"mocked":true}', { status: 200 }));
    const { result, calls } = await countingDispatcher(async () =>
      (await providerFetch(`${base}/initiate`, call)).json(),
    );
    expect(result).toEqual({ mocked: true });
    expect(mocked).toHaveBeenCalledOnce();
    expect(calls).toBe(0);
    expect(received).toEqual([]);
  });

  it('uses fetch for what it does not take itself: a body that is not text, headers as a Headers, redirects to follow', async () => {
    answer = (request, response) => response.end(request.body);
    const { calls } = await countingDispatcher(async () => {
      const form = await providerFetch(`${base}/form`, {
        method: 'POST',
        body: new URLSearchParams({ a: '1' }),
        redirect: 'manual',
      });
      expect(await form.text()).toBe('a=1');
      const headed = await providerFetch(`${base}/headed`, {
        method: 'POST',
        headers: new Headers({ 'content-type': 'application/json' }),
        body: '{}',
        redirect: 'manual',
      });
      expect(await headed.text()).toBe('{}');
      const { redirect: _manual, ...following } = call;
      expect(await (await providerFetch(`${base}/follow`, following)).text()).toBe(call.body);
    });
    // fetch itself goes through the dispatcher too, by its own (dispatch, not request).
    expect(calls).toBe(0);
  });
});

describe('the transport on providerFetch', () => {
  const transport = (baseUrl: string, timeoutMs = 5000, send?: typeof fetch) =>
    createProviderTransport({
      baseUrl,
      secretKey: 'sk_test_fast_fetch',
      timeoutMs,
      attempts: 1,
      fetch: send,
    });
  const initiate = { operation: 'initiate', method: 'POST', body: { amount: 1 } } as const;

  it('follows a redirect on the provider’s origin as fetch does: 307 sends the call again, 303 as a GET', async () => {
    answer = (request, response) => {
      if (request.url === '/moved-307') response.writeHead(307, { location: '/new' }).end();
      else if (request.url === '/moved-303') response.writeHead(303, { location: '/new' }).end();
      else
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            at: request.url,
            method: request.method,
            body: request.body,
            type: request.headers['content-type'] ?? null,
            keyed: request.headers['x-api'] === 'sk_test_fast_fetch',
          }),
        );
    };
    const kept = await transport(base).send({ ...initiate, path: '/moved-307', retry: 'never' });
    expect(kept.body).toEqual({
      at: '/new',
      method: 'POST',
      body: '{"amount":1}',
      type: 'application/json',
      keyed: true,
    });
    const turned = await transport(base).send({ ...initiate, path: '/moved-303', retry: 'never' });
    expect(turned.body).toEqual({
      at: '/new',
      method: 'GET',
      body: '',
      type: null,
      keyed: true,
    });
  });

  it('never follows a redirect to another origin, where the secret key would go along: not at the first hop, not after one on the provider’s origin, whichever fetch it is given', async () => {
    const elsewhere: string[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(`${request.url} ${request.headers['x-api']}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const away = `http://127.0.0.1:${(other.address() as AddressInfo).port}/collect`;
    try {
      answer = (request, response) =>
        response
          .writeHead(307, {
            location: request.url === '/hop' || request.url === '/away' ? away : '/hop',
          })
          .end();
      // providerFetch, and fetch itself (Workers, Deno, Bun, or a fetch the merchant passes).
      for (const send of [undefined, fetch])
        for (const path of ['/away', '/twice']) {
          const answered = await transport(base, 5000, send).send({
            ...initiate,
            path,
            retry: 'never',
          });
          // Answered as it is: a status the client reads as no answer of the interface's.
          expect(answered).toMatchObject({ status: 307, body: undefined });
        }
      expect(received.map((request) => request.url)).toEqual([
        '/away',
        '/twice',
        '/hop',
        '/away',
        '/twice',
        '/hop',
      ]);
      expect(elsewhere).toEqual([]);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('gives up on a provider that redirects in a loop, as fetch does after 20', async () => {
    answer = (_request, response) => response.writeHead(302, { location: '/again' }).end();
    await expect(
      transport(base).send({ ...initiate, path: '/again', retry: 'never' }),
    ).rejects.toThrow(/redirected the call too many times/);
    expect(received).toHaveLength(21);
  });

  it('reads the provider’s answer, status and body, through fetch’s dispatcher', async () => {
    answer = (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ isSuccess: true, data: { ok: 1 } }));
    const { result: answered, calls } = await countingDispatcher(() =>
      transport(base).send({
        operation: 'initiate',
        method: 'POST',
        path: '/api/payment/pay/initiate',
        body: { amount: 1 },
        retry: 'never',
      }),
    );
    // Its calls take providerFetch's own path, not fetch's.
    expect(calls).toBe(1);
    expect(answered).toMatchObject({ status: 200, body: { isSuccess: true, data: { ok: 1 } } });
    expect(received[0]?.headers['x-api']).toBe('sk_test_fast_fetch');
  });

  it('reports a provider that does not answer in time as a timeout', async () => {
    answer = () => {};
    await expect(
      transport(base, 300).send({
        operation: 'initiate',
        method: 'POST',
        path: '/slow',
        body: {},
        retry: 'never',
      }),
    ).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('reports a provider that refuses the connection as unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      transport(`http://127.0.0.1:${port}`).send({
        operation: 'initiate',
        method: 'POST',
        path: '/x',
        body: {},
        retry: 'never',
      }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});
