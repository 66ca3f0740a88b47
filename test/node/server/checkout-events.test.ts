// The stream a waiting widget listens to (GET /events, Server-Sent Events), read with fetch as a
// browser's EventSource would: the outcome is pushed the moment it is confirmed, a reconnecting
// browser gets what it missed (Last-Event-ID) and nothing twice, and a closed tab leaves nothing
// behind on the server.
import { afterEach, describe, expect, it } from 'vitest';
import { type CheckoutStore, createMemoryStore } from '../../../src/server';
import {
  type CompanionRig,
  companionCall,
  companionPerTest,
  control,
} from '../../helpers/companion';
import { pause } from '../../helpers/sandbox';

const KEY = `sk_test_events_${crypto.randomUUID().replaceAll('-', '')}`;

const streams: EventStream[] = [];
const seen: string[] = [];
const start = companionPerTest(KEY, seen);

// Registered after companionPerTest's, so it runs before it: the streams close first.
afterEach(async () => {
  for (const stream of streams.splice(0)) await stream.close();
});

interface SseEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the event's JSON
  readonly data: any;
}

interface EventStream {
  readonly response: Response;
  readonly events: SseEvent[];
  /** Everything received so far, comments and `retry:` included. */
  text(): string;
  /** True once the server ended the stream. */
  ended(): boolean;
  close(): Promise<void>;
}

async function openStream(
  on: CompanionRig,
  token: string,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<EventStream> {
  const controller = new AbortController();
  const url = `${on.url}/events?token=${encodeURIComponent(token)}${options.query ?? ''}`;
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...options.headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let text = '';
  let buffer = '';
  let finished = false;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const name = colon === -1 ? line : line.slice(0, colon);
            fields[name] = line.slice(colon + 1).replace(/^ /, '');
          }
          if (fields.data !== undefined) {
            events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
          }
          end = buffer.indexOf('\n\n');
        }
      }
      finished = true;
    } catch {
      // Aborted by the test.
    } finally {
      seen.push(text);
    }
  })();
  const stream: EventStream = {
    response,
    events,
    text: () => text,
    ended: () => finished,
    async close() {
      controller.abort();
      await pump;
    },
  };
  streams.push(stream);
  // The stream is live once the server has said how to reconnect.
  await expect.poll(() => text.includes('retry:'), { interval: 5 }).toBe(true);
  return stream;
}

async function begin(on: CompanionRig, order: string) {
  const session = await companionCall(on, 'POST', '/session', { body: { order } });
  const initiated = await companionCall(on, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(initiated.status, initiated.text).toBe(200);
  seen.push(session.text, initiated.text);
  return {
    token: initiated.body.token as string,
    reference: initiated.body.payment.reference as string,
  };
}

describe('the outcome is pushed', () => {
  it('arrives on the open stream after the transfer, as one status event', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e1');
    const stream = await openStream(on, token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(stream.events).toEqual([]);

    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => stream.events.length).toBe(1);
    expect(stream.events[0]).toEqual({
      id: '1',
      event: 'status',
      data: { type: 'status', reference, status: 'SUCCESSFUL' },
    });
    expect(on.paymentOutcomes).toHaveLength(1);
    await pause(100);
    expect(stream.events).toHaveLength(1);
  });

  it('a failed payment is pushed as FAILED, with why: a transfer short, and what arrived', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e2');
    const stream = await openStream(on, token);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`, { amount: 5 });
    await expect.poll(() => stream.events.length).toBe(1);
    expect(stream.events[0]?.data).toEqual({
      type: 'status',
      reference,
      status: 'FAILED',
      reason: 'transfer_short',
      paid: { amountMinor: 500, currency: 'NGN' },
    });
  });

  it('every tab watching gets the event; the merchant hears it once', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e3');
    const tabs = await Promise.all(Array.from({ length: 10 }, () => openStream(on, token)));
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    for (const tab of tabs) {
      await expect.poll(() => tab.events.length).toBe(1);
      expect(tab.events[0]?.data.status).toBe('SUCCESSFUL');
    }
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('is not pushed while the merchant’s hook is failing, and then exactly once', async () => {
    let failures = 1;
    const on = await start({
      onPaymentOutcome: () => {
        if (failures-- > 0) throw new Error('database unavailable');
      },
    });
    const { token, reference } = await begin(on, 'order-ngn:e4');
    const stream = await openStream(on, token);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect
      .poll(() => on.logLines.some((line) => line.includes('onPaymentOutcome failed')))
      .toBe(true);
    await on.handler.idle();
    expect(stream.events).toEqual([]);
    // The next confirmation (the widget's status poll) reports it.
    const status = await companionCall(on, 'GET', '/status', { token });
    seen.push(status.text);
    expect(status.body.status).toBe('SUCCESSFUL');
    await expect.poll(() => stream.events.length).toBe(1);
    await on.handler.idle();
    await pause(50);
    expect(stream.events).toHaveLength(1);
  });
});

describe('a reconnecting browser gets what it missed, and nothing twice', () => {
  it('a stream opened after the outcome replays it', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e5');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => on.paymentOutcomes.length).toBe(1);
    const late = await openStream(on, token);
    await expect.poll(() => late.events.length).toBe(1);
    expect(late.events[0]).toMatchObject({ id: '1', data: { reference, status: 'SUCCESSFUL' } });
  });

  it('Last-Event-ID of the last event gets nothing old; 0 gets the missed event', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e6');
    const first = await openStream(on, token);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => first.events.length).toBe(1);
    const lastId = first.events[0]?.id ?? '';
    await first.close();

    const upToDate = await openStream(on, token, { headers: { 'last-event-id': lastId } });
    const behind = await openStream(on, token, { headers: { 'last-event-id': '0' } });
    const byQuery = await openStream(on, token, { query: `&lastEventId=${lastId}` });
    await expect.poll(() => behind.events.length).toBe(1);
    expect(behind.events[0]).toMatchObject({ id: lastId, data: { reference } });
    await pause(100);
    expect(upToDate.events).toEqual([]);
    expect(byQuery.events).toEqual([]);
  });

  it('an outcome that arrives while the browser is disconnected is delivered on reconnect', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:e7');
    const before = await openStream(on, token);
    await pause(20);
    await before.close();
    expect(before.events).toEqual([]);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => on.paymentOutcomes.length).toBe(1);
    // EventSource sends no Last-Event-ID when it never received an event.
    const after = await openStream(on, token);
    await expect.poll(() => after.events.length).toBe(1);
    expect(after.events[0]?.data).toEqual({ type: 'status', reference, status: 'SUCCESSFUL' });
  });
});

describe('a closed tab', () => {
  function countingStore(): { store: CheckoutStore; active: () => number } {
    const base = createMemoryStore();
    let active = 0;
    return {
      store: {
        ...base,
        subscribe(name, listener) {
          active += 1;
          const off = base.subscribe(name, listener);
          return () => {
            active -= 1;
            off();
          };
        },
      },
      active: () => active,
    };
  }

  it('ends its stream cleanly on abort, leaves no subscription, and the handler works on', async () => {
    const counting = countingStore();
    const on = await start({ store: counting.store });
    const { token, reference } = await begin(on, 'order-ngn:e8');
    const tabs = await Promise.all(Array.from({ length: 5 }, () => openStream(on, token)));
    expect(counting.active()).toBe(5);
    for (const tab of tabs) await tab.close();
    await expect.poll(() => counting.active()).toBe(0);

    const status = await companionCall(on, 'GET', '/status', { token });
    seen.push(status.text);
    expect(status.body).toMatchObject({ reference, status: 'PENDING' });
    const fresh = await openStream(on, token);
    expect(counting.active()).toBe(1);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => fresh.events.length).toBe(1);
    await fresh.close();
    await expect.poll(() => counting.active()).toBe(0);
  });
});
