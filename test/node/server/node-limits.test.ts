// The companion behind this package's Node adapters, attacked over real sockets on loopback
// (issue 20, item 4): a body larger than the handlers take is refused with 413 before a byte of
// it is read, a body without a length is read no further than the limit, a client that sends its
// headers one byte at a time is cut by the headers timeout, and an open event stream outlives
// the request timeout. After each attack, the real customer still pays.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CheckoutHandler, createCheckoutHandler } from '../../../src/server';
import { serve, toNodeListener } from '../../../src/server/node';
import { type Sandbox, startSandbox } from '../../helpers/sandbox';

const ORDERS: Record<string, { amountMinor: number; currency: string; description: string }> = {
  order_1042: { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  readonly url: string;
  readonly port: number;
  readonly sandbox: Sandbox;
  readonly checkout: CheckoutHandler;
  /** Bytes the server read from each connection, noted when its request's answer was sent. */
  readonly bytesRead: number[];
}

function checkoutFor(sandbox: Sandbox): CheckoutHandler {
  const checkout = createCheckoutHandler({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    resolveOrder: (id) => ORDERS[id] ?? null,
    logger: { warn: () => {}, error: () => {} },
  });
  cleanups.push(() => checkout.close());
  return checkout;
}

/** The companion mounted as docs/server.md shows: http.createServer(toNodeListener(checkout)). */
async function mounted(): Promise<Rig> {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.close());
  const checkout = checkoutFor(sandbox);
  const listener = toNodeListener(checkout);
  const bytesRead: number[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    outgoing.once('finish', () => bytesRead.push(incoming.socket.bytesRead));
    listener(incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/api/checkout`, port, sandbox, checkout, bytesRead };
}

/** A raw connection: what an attacker's client sends, byte by byte. */
function rawSocket(
  port: number,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    // Writes after the server closed fail with EPIPE or ECONNRESET: what a refused client sees.
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    cleanups.push(() => {
      socket.destroy();
    });
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

async function customerPays(url: string, sandbox: Sandbox): Promise<void> {
  const session = await fetch(`${url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order: 'order_1042' }),
  });
  expect(session.status).toBe(200);
  const { token } = await session.json();
  const initiated = await fetch(`${url}/initiate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ channel: 'PayByTransfer' }),
  });
  expect(initiated.status).toBe(200);
  const { payment, token: paymentToken } = await initiated.json();
  const paid = await sandbox.request('POST', `/__sandbox/payments/${payment.reference}/transfer`);
  expect(paid.status).toBeLessThan(300);
  const status = await fetch(`${url}/status`, {
    headers: { authorization: `Bearer ${paymentToken}` },
  });
  expect((await status.json()).status).toBe('SUCCESSFUL');
}

describe('bodies', () => {
  it('refuses a 50 MB Content-Length with 413 before a byte of the body is sent', async () => {
    const on = await mounted();
    const { socket, received, closed } = await rawSocket(on.port);
    // Headers only: if the adapter waited for the body, no answer would ever come.
    socket.write(
      'POST /api/checkout/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${50 * 1024 * 1024}\r\n\r\n`,
    );
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).toMatch(/connection: close/i);
    expect(received()).toContain('"code":"body_too_large"');
    await customerPays(on.url, on.sandbox);
  });

  it('reads a chunked body only up to the limit, answers 413 and ends the connection', async () => {
    const on = await mounted();
    const { socket, received, closed } = await rawSocket(on.port);
    socket.write(
      'POST /api/checkout/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
    // 16 MB offered in 16 KB chunks, as fast as the socket takes them, until the server hangs up.
    const chunk = `${(16 * 1024).toString(16)}\r\n${'a'.repeat(16 * 1024)}\r\n`;
    let offered = 0;
    while (!socket.destroyed && offered < 16 * 1024 * 1024 && !received()) {
      offered += 16 * 1024;
      if (!socket.write(chunk))
        await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    }
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).toContain('"code":"body_too_large"');
    expect(received()).toMatch(/connection: close/i);
    // The browser's calls take 8 KB: the server read about that, not the megabytes offered.
    expect(on.bytesRead[0]).toBeLessThan(200 * 1024);
    await customerPays(on.url, on.sandbox);
  });

  it('answers the handler’s own 413 for a body between the route’s limit and the adapter’s', async () => {
    const on = await mounted();
    const answer = await fetch(`${on.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order_1042', padding: 'x'.repeat(20 * 1024) }),
    });
    expect(answer.status).toBe(413);
    const body = await answer.json();
    expect(body.error.code).toBe('body_too_large');
    // The id the log line carries, so the merchant can find it: the response's own header.
    expect(body.error.requestId).toEqual(expect.any(String));
    expect(answer.headers.get('x-request-id')).toBe(body.error.requestId);
    await customerPays(on.url, on.sandbox);
  });

  it('takes a body the adapter is told to take, and refuses maxBodyBytes that is not a size', async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const checkout = checkoutFor(sandbox);
    expect(() => toNodeListener(checkout, { maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be/);
    expect(() => toNodeListener(checkout, { maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes must be/);
    const running = await serve(checkout, { port: 0, host: '127.0.0.1', maxBodyBytes: 1024 });
    cleanups.push(() => running.close());
    const refused = await fetch(`${running.url}/api/checkout/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order_1042', padding: 'x'.repeat(2000) }),
    });
    expect(refused.status).toBe(413);
    expect((await refused.json()).error.message).toMatch(/at most 1 KB/);
    await customerPays(`${running.url}/api/checkout`, sandbox);
  });
});

describe('serve() timeouts', () => {
  async function served(timeouts: Parameters<typeof serve>[1]) {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const checkout = checkoutFor(sandbox);
    const running = await serve(checkout, { port: 0, host: '127.0.0.1', ...timeouts });
    cleanups.push(() => running.close());
    const url = `${running.url}/api/checkout`;
    await sandbox.request('POST', '/__sandbox/config', { webhookUrl: `${url}/webhooks` });
    return { sandbox, url, port: Number(new URL(running.url).port), server: running.server };
  }

  it('sets the timeouts on the server it creates, Node’s defaults tightened', async () => {
    const on = await served({});
    expect(on.server.headersTimeout).toBe(10_000);
    expect(on.server.requestTimeout).toBe(30_000);
    expect(on.server.keepAliveTimeout).toBe(5_000);
  });

  it('cuts a client that sends its headers one byte at a time (slowloris) at the headers timeout', async () => {
    const on = await served({ headersTimeoutMs: 400 });
    const { socket, received, closed } = await rawSocket(on.port);
    const headers = 'GET /api/checkout/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: yes\r\n\r\n';
    let sent = 0;
    const dripping = setInterval(() => {
      if (sent < headers.length && !socket.destroyed) socket.write(headers[sent++] ?? '');
    }, 100);
    cleanups.push(() => clearInterval(dripping));
    await closed;
    clearInterval(dripping);
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    // Cut with headers still unsent: by the 400 ms limit. Sent whole (6.8 s of drip, inside
    // Node's default 10 s), they would have been answered, not refused with 408.
    expect(sent).toBeLessThan(headers.length);
    await customerPays(on.url, on.sandbox);
  });

  it('keeps an event stream open past the request timeout, and it hears the outcome', async () => {
    const on = await served({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const session = await fetch(`${on.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order_1042' }),
    });
    const initiated = await fetch(`${on.url}/initiate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(await session.json()).token}`,
      },
      body: JSON.stringify({ channel: 'PayByTransfer' }),
    });
    const { token, payment } = await initiated.json();
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const stream = await fetch(`${on.url}/events?token=${encodeURIComponent(token)}`, {
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    let text = '';
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
        text += '[ended]';
      } catch {
        // Aborted at the end of the test.
      }
    })();
    // A request opened after the stream and left unfinished is cut at the request timeout: once
    // it is, the stream has lived past that timeout, and Node's check has looked at both.
    const unfinished = await rawSocket(on.port);
    unfinished.socket.write(
      'POST /api/checkout/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    await unfinished.closed;
    expect(unfinished.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).not.toContain('[ended]');
    await on.sandbox.request('POST', `/__sandbox/payments/${payment.reference}/transfer`);
    await expect.poll(() => text).toContain('"SUCCESSFUL"');
  });

  it('refuses timeouts and ports that are not whole positive numbers', async () => {
    const checkout = async () => new Response('');
    expect(() => serve(checkout, { headersTimeoutMs: 0 })).toThrow(/headersTimeoutMs must be/);
    expect(() => serve(checkout, { requestTimeoutMs: -5 })).toThrow(/requestTimeoutMs must be/);
    expect(() => serve(checkout, { keepAliveTimeoutMs: 1.5 })).toThrow(
      /keepAliveTimeoutMs must be/,
    );
    expect(() => serve(checkout, { port: 70_000 })).toThrow(/port must be/);
  });
});
