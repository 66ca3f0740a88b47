/**
 * What the Node adapter (src/node/serve.ts) translates, after its lighter path (issue 25, item 3):
 * the client's signal made only when asked for yet aborted whenever the client left first; every
 * Set-Cookie a header of its own; headers, method, path and body as sent; a Host that makes no
 * URL answered 400, not 500.
 */
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../../src/node/serve';

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
