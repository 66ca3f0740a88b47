/**
 * What the Node adapter (src/node/serve.ts) translates, after its lighter path (issue 25, item 3):
 * the client's signal made only when asked for yet aborted whenever the client left first; every
 * Set-Cookie a header of its own; headers, method, path and body as sent; a Host that makes no
 * URL answered 400, not 500.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { offerText } from '../../../src/node/hand-off';
import { type RunningServer, serve } from '../../../src/node/serve';
import { answerHeaders, jsonAnswer } from '../../../src/server/http';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Sends `head` (and nothing else) on a raw socket and answers the response's status line. */
function raw(url: string, head: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

it('aborts a signal first asked for after the client left', async () => {
  let left: () => void = () => {};
  const gone = new Promise<void>((resolve) => {
    left = resolve;
  });
  let arrived: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const seen: boolean[] = [];
  running = await serve(async (request) => {
    arrived();
    await gone;
    seen.push(request.signal.aborted);
    return new Response('late');
  });
  const server = running.server;
  const client = new AbortController();
  const call = fetch(`${running.url}/slow`, { signal: client.signal }).catch(() => undefined);
  await reached;
  client.abort();
  await call;
  // The server has seen the client's connection close: only then is the signal first asked for.
  const open = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  await expect.poll(open).toBe(0);
  left();
  await expect.poll(() => seen).toEqual([true]);
});

it('passes headers, method, path and body, and writes each Set-Cookie on its own', async () => {
  running = await serve(async (request) => {
    const url = new URL(request.url);
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1; Path=/');
    headers.append('set-cookie', 'b=2; Path=/');
    return new Response(
      JSON.stringify({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        host: url.host,
        authorization: request.headers.get('authorization'),
        body: await request.text(),
      }),
      { headers },
    );
  });
  const response = await fetch(`${running.url}/api/checkout/initiate?x=1`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: '{"channel":"PayByTransfer"}',
  });
  expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  expect(await response.json()).toEqual({
    method: 'POST',
    path: '/api/checkout/initiate?x=1',
    host: new URL(running.url).host,
    authorization: 'Bearer t',
    body: '{"channel":"PayByTransfer"}',
  });
});

it('answers 400 to a Host that makes no URL, or one with credentials', async () => {
  running = await serve(async () => new Response('never'));
  for (const host of ['exa mple.test', 'user:secret@shop.test'])
    expect(
      await raw(
        running.url,
        `GET /api/checkout/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    ).toBe('HTTP/1.1 400 Bad Request');
});

it('resolves a target that is not origin-form against the Host, as before', async () => {
  const urls: string[] = [];
  running = await serve(async (request) => {
    urls.push(request.url);
    return new Response('ok');
  });
  await raw(
    running.url,
    'GET //elsewhere.test/x HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n',
  );
  await raw(
    running.url,
    'GET /a/../b?c=1 HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n',
  );
  expect(urls).toEqual(['http://elsewhere.test/x', 'http://shop.test/b?c=1']);
});

describe('the Request a handler gets', () => {
  it('is a Request: a second read of the body fails as a Request’s does, a clone reads it too', async () => {
    const seen: unknown[] = [];
    running = await serve(async (request) => {
      const copy = request.clone();
      seen.push(request instanceof Request, await request.text(), await copy.text());
      seen.push(request.bodyUsed);
      const again = await request.text().catch((error: unknown) => error);
      seen.push(again instanceof TypeError);
      return new Response('ok');
    });
    await fetch(`${running.url}/twice`, { method: 'POST', body: 'héllo' });
    expect(seen).toEqual([true, 'héllo', 'héllo', true, true]);
  });

  it('reads a body as JSON, bytes, a form, or a stream read by hand', async () => {
    running = await serve(async (request) => {
      const kind = new URL(request.url).pathname.slice(1);
      if (kind === 'json') return Response.json(await request.json());
      if (kind === 'bytes') return Response.json([...new Uint8Array(await request.arrayBuffer())]);
      if (kind === 'form') return Response.json(Object.fromEntries(await request.formData()));
      const reader = (request.body as ReadableStream<Uint8Array>).getReader();
      let size = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read())
        size += read.value.length;
      return Response.json({ size });
    });
    const post = (path: string, init: RequestInit) =>
      fetch(`${running?.url}${path}`, { method: 'POST', ...init }).then((answer) => answer.json());
    expect(await post('/json', { body: '{"a":[1,2]}' })).toEqual({ a: [1, 2] });
    expect(await post('/bytes', { body: new Uint8Array([0, 255, 7]) })).toEqual([0, 255, 7]);
    expect(await post('/form', { body: new URLSearchParams({ a: '1', b: 'two' }) })).toEqual({
      a: '1',
      b: 'two',
    });
    // A body sent in parts, the handler reading it as it comes.
    const parts = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 4; index++) controller.enqueue(new Uint8Array(10_000));
        controller.close();
      },
    });
    expect(await post('/stream', { body: parts, duplex: 'half' } as RequestInit)).toEqual({
      size: 40_000,
    });
  });

  it('shows a header sent twice as one value, the two joined, and the cookies joined', async () => {
    let seen: unknown;
    running = await serve(async (request) => {
      seen = {
        accept: request.headers.get('accept'),
        cookie: request.headers.get('cookie'),
        names: [...request.headers.keys()].filter((name) => name.startsWith('x-')),
      };
      return new Response('ok');
    });
    await raw(
      running.url,
      'GET /h HTTP/1.1\r\nHost: shop.test\r\nAccept: text/html\r\nAccept: application/json\r\n' +
        'Cookie: a=1\r\nCookie: b=2\r\nX-One: 1\r\nConnection: close\r\n\r\n',
    );
    expect(seen).toEqual({
      accept: 'text/html, application/json',
      cookie: 'a=1; b=2',
      names: ['x-one'],
    });
  });

  it('answers 413 to a body past the limit read with text(), whatever the handler answered', async () => {
    const answered: string[] = [];
    running = await serve(
      async (request) => {
        const text = await request.text().catch((error: Error) => error.name);
        answered.push(text);
        return new Response('read');
      },
      { maxBodyBytes: 1024 },
    );
    // No Content-Length (a stream): refused as it arrives, not before.
    const parts = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(800));
        controller.enqueue(new Uint8Array(800));
        controller.close();
      },
    });
    const answer = await fetch(`${running.url}/big`, {
      method: 'POST',
      body: parts,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect((await answer.json()).error.code).toBe('body_too_large');
    expect(answered).toEqual(['RequestBodyTooLargeError']);
    // A body within the limit on the same server is read whole.
    const small = await fetch(`${running.url}/small`, { method: 'POST', body: 'x'.repeat(1024) });
    expect(await small.text()).toBe('read');
    expect(answered[1]).toBe('x'.repeat(1024));
  });

  it('answers 400 to a method no Request can have', async () => {
    running = await serve(async () => new Response('never'));
    expect(
      await raw(running.url, 'TRACE /x HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n'),
    ).toBe('HTTP/1.1 400 Bad Request');
  });
});

describe('the answer written', () => {
  it('writes a JSON answer made of a string whole, with its length in bytes', async () => {
    const text = JSON.stringify({ name: 'Adébáyọ̀', amount: '₦2,500.50' });
    running = await serve(async () =>
      offerText(new Response(text, { headers: { 'content-type': 'application/json' } }), text),
    );
    const answer = await fetch(`${running.url}/json`);
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await answer.text()).toBe(text);
  });

  it('writes the body a wrapper rebuilt or replaced, not the text first offered', async () => {
    running = await serve(async (request) => {
      const text = '{"from":"handler"}';
      const inner = offerText(new Response(text), text);
      if (request.url.endsWith('/rebuilt'))
        return new Response(inner.body, { headers: { 'x-wrapped': 'yes' } });
      const read = await inner.text();
      return new Response(read.replace('handler', 'wrapper'));
    });
    const rebuilt = await fetch(`${running.url}/rebuilt`);
    expect(rebuilt.headers.get('x-wrapped')).toBe('yes');
    expect(await rebuilt.text()).toBe('{"from":"handler"}');
    expect(await (await fetch(`${running.url}/replaced`)).text()).toBe('{"from":"wrapper"}');
  });
});

describe('the companion’s JSON answers under the Node adapter', () => {
  const body = { name: 'Adébáyọ̀', amount: '₦2,500.50' };

  it('arrive whole, with their length and headers, however a wrapper in front reads them', async () => {
    running = await serve(async (request) => {
      const answer = jsonAnswer(body, 201, answerHeaders(request));
      const how = new URL(request.url).pathname;
      if (how === '/text') return new Response(await answer.text(), answer);
      if (how === '/clone') {
        const copy = answer.clone();
        await copy.json();
        return answer;
      }
      if (how === '/rebuilt') return new Response(answer.body, { headers: { 'x-wrapped': 'yes' } });
      return answer;
    });
    for (const how of ['/plain', '/text', '/clone', '/rebuilt']) {
      const answer = await fetch(`${running.url}${how}`);
      expect(await answer.json(), how).toEqual(body);
      if (how === '/rebuilt') expect(answer.headers.get('x-wrapped')).toBe('yes');
      else {
        expect(answer.status, how).toBe(201);
        expect(answer.headers.get('content-type'), how).toBe('application/json; charset=utf-8');
      }
    }
    const plain = await fetch(`${running.url}/plain`);
    expect(plain.headers.get('content-length')).toBe(
      String(Buffer.byteLength(JSON.stringify(body))),
    );
  });

  it('are ordinary Responses for a Request that did not come through it', async () => {
    const request = new Request('https://shop.example/api/checkout/session', { method: 'POST' });
    const answer = jsonAnswer(body, 200, answerHeaders(request));
    expect(answer.bodyUsed).toBe(false);
    expect(await new Response(answer.body).json()).toEqual(body);
  });
});

it('refuses a second read of the body even after the handler asked for more of the Request', async () => {
  const seen: unknown[] = [];
  running = await serve(async (request) => {
    seen.push(await request.json());
    // Anything the Request has beyond method, URL, headers and body.
    seen.push(request.cache, request.bodyUsed);
    seen.push(await request.text().catch((error: unknown) => error instanceof TypeError));
    return new Response('ok');
  });
  await fetch(`${running.url}/x`, { method: 'POST', body: '{"a":1}' });
  expect(seen).toEqual([{ a: 1 }, 'default', true, true]);
});

it('reads a body that came in one packet with its headers, and the connection serves on', async () => {
  running = await serve(async (request) => new Response(`got ${await request.text()}`));
  const { port } = new URL(running.url);
  const post = (body: string) =>
    `POST /echo HTTP/1.1\r\nHost: shop.test\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const received = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(post('first')));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      // The first answer whole: the second request on the same connection, then the end.
      if (text.includes('got first') && !text.includes('got second'))
        socket.write(`${post('second').replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}`);
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  expect(received).toContain('got first');
  expect(received).toContain('got second');
});
