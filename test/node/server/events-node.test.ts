/**
 * Event streams on the Node server (src/node/serve.ts): the Request's signal aborts when the
 * client goes away in the middle of a streamed answer (not after an answer sent in full), and
 * the package's own event streams, written straight to the socket, carry the same bytes as when
 * read as a web stream and leave nothing behind when the browser goes.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, expect, it, vi } from 'vitest';
import { attachDirect } from '../../../src/node/hand-off';
import { type RunningServer, serve } from '../../../src/node/serve';
import { clientSignal, eventStream, openEventStreams } from '../../../src/server/http/events';
import { type CheckoutStore, createMemoryStore } from '../../../src/server/store/store';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('aborts request.signal when the client leaves a stream, not after a full answer', async () => {
  const signals: AbortSignal[] = [];
  const cancelled: string[] = [];
  running = await serve(async (request) => {
    signals.push(request.signal);
    if (new URL(request.url).pathname === '/plain') return new Response('done');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('retry: 2000\n\n'));
      },
      cancel() {
        cancelled.push('cancel');
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const plain = await fetch(`${running.url}/plain`);
  expect(await plain.text()).toBe('done');
  expect(signals[0]?.aborted).toBe(false);

  await new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(`${running?.url}/events`, (response) => {
      response.once('data', () => {
        response.destroy();
        resolve();
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
  await expect.poll(() => signals[1]?.aborted).toBe(true);
  await expect.poll(() => cancelled).toEqual(['cancel']);
  expect(signals[0]?.aborted).toBe(false);
  expect(signals[1]).toBeInstanceOf(AbortSignal);
});

/** Opens `path` and collects what arrives; `close` leaves as a browser tab would. */
function listen(url: string) {
  let text = '';
  let response: IncomingMessage | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(url, (answer) => {
      response = answer;
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        text += chunk;
      });
      resolve();
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
  return {
    opened,
    text: () => text,
    headers: () => response?.headers,
    close: () => response?.destroy(),
  };
}

it('writes an event stream straight to the socket: replay, live events, and clean-up', async () => {
  const store = createMemoryStore();
  let listeners = 0;
  const counting: CheckoutStore = {
    ...store,
    subscribe(name, listener) {
      listeners++;
      const off = store.subscribe(name, listener);
      return () => {
        listeners--;
        off();
      };
    },
  };
  const bodies: Array<ReadableStream<Uint8Array> | null> = [];
  running = await serve(async (request) => {
    const response = eventStream(
      counting,
      'PAY_N1',
      request.headers.get('last-event-id'),
      request.signal,
      new Headers(),
    );
    bodies.push(response.body);
    return response;
  });
  await store.append('events:PAY_N1', { status: 'PENDING' });
  const browser = listen(`${running.url}/events`);
  await browser.opened;
  expect(browser.headers()?.['content-type']).toBe('text/event-stream; charset=utf-8');
  await store.append('events:PAY_N1', { status: 'SUCCESSFUL' });
  await expect
    .poll(() => browser.text())
    .toBe(
      'retry: 2000\n\n' +
        'id: 1\nevent: status\ndata: {"status":"PENDING"}\n\n' +
        'id: 2\nevent: status\ndata: {"status":"SUCCESSFUL"}\n\n',
    );
  // The server wrote it itself: the body was never read as a web stream.
  expect(bodies[0]?.locked).toBe(false);
  expect(openEventStreams()).toBe(1);
  expect(listeners).toBe(1);
  browser.close();
  await expect.poll(() => openEventStreams()).toBe(0);
  expect(listeners).toBe(0);
});

it('reads the event stream as a web stream when another consumer got to it first', async () => {
  const store = createMemoryStore();
  await store.append('events:PAY_W1', { status: 'SUCCESSFUL' });
  const gone = new AbortController();
  const response = eventStream(store, 'PAY_W1', null, gone.signal, new Headers());
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  expect(attachDirect(response.body, { write: () => {}, end: () => {} })).toBeUndefined();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('SUCCESSFUL')) text += decoder.decode((await reader.read()).value);
  expect(text).toBe('retry: 2000\n\nid: 1\nevent: status\ndata: {"status":"SUCCESSFUL"}\n\n');
  gone.abort();
  expect((await reader.read()).done).toBe(true);
  expect(openEventStreams()).toBe(0);
});

it('ends the stream when the store cannot be read, so that the browser reconnects', async () => {
  const store = createMemoryStore();
  const failing: CheckoutStore = {
    ...store,
    read: () => Promise.reject(new Error('store unreachable')),
  };
  running = await serve(async (request) =>
    eventStream(failing, 'PAY_F1', null, request.signal, new Headers()),
  );
  const answer = await fetch(`${running.url}/events`);
  expect(await answer.text()).toBe('retry: 2000\n\n');
  expect(openEventStreams()).toBe(0);
});

it('keeps a stream written straight to the socket alive: a heartbeat within 5 s of silence', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  try {
    const store = createMemoryStore();
    running = await serve(async (request) =>
      eventStream(store, 'PAY_H1', null, request.signal, new Headers()),
    );
    const browser = listen(`${running.url}/events`);
    await browser.opened;
    await expect.poll(() => browser.text()).toBe('retry: 2000\n\n');
    await vi.advanceTimersByTimeAsync(4500);
    expect(browser.text()).toBe('retry: 2000\n\n');
    await vi.advanceTimersByTimeAsync(500);
    await expect.poll(() => browser.text()).toBe('retry: 2000\n\n: keep-alive\n\n');
    browser.close();
    await expect.poll(() => openEventStreams()).toBe(0);
  } finally {
    vi.useRealTimers();
  }
});

it('makes no signal for a stream written straight to the socket, and follows it when read as a web stream', async () => {
  // Issue 25: the checkout hands its stream the adapter's getter (clientSignal), not the signal.
  const store = createMemoryStore();
  let asked = 0;
  running = await serve(async (request) => {
    const signal = clientSignal(request);
    expect(typeof signal).toBe('function');
    return eventStream(
      store,
      'PAY_L1',
      null,
      () => {
        asked++;
        return (signal as () => AbortSignal)();
      },
      new Headers(),
    );
  });
  const browser = listen(`${running.url}/events`);
  await browser.opened;
  await expect.poll(() => browser.text()).toBe('retry: 2000\n\n');
  expect(openEventStreams()).toBe(1);
  browser.close();
  await expect.poll(() => openEventStreams()).toBe(0);
  expect(asked).toBe(0);

  const gone = new AbortController();
  const response = eventStream(store, 'PAY_L2', null, () => gone.signal, new Headers());
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toBe('retry: 2000\n\n');
  gone.abort();
  expect((await reader.read()).done).toBe(true);
  expect(openEventStreams()).toBe(0);
  expect(clientSignal(new Request('http://shop.test/'))).toBeInstanceOf(AbortSignal);
});
