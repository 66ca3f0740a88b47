/**
 * The event stream's heartbeat (issue 10's scale budget, issue 13's idle timeouts): an idle
 * stream hears `: keep-alive` at most 5 s after its last write, a stream that just wrote is not
 * written to again, and however many streams are open the process has one timer for them all.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventStream, HEARTBEAT_MS, openEventStreams } from '../../../src/server/http/events';
import { createMemoryStore } from '../../../src/server/store/store';

interface Heard {
  readonly at: number;
  readonly text: string;
}

function open(store = createMemoryStore(), reference = 'PAY_1') {
  const gone = new AbortController();
  const response = eventStream(store, reference, null, gone.signal, new Headers());
  const heard: Heard[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let ended = false;
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      heard.push({ at: Date.now(), text: decoder.decode(value) });
    }
    ended = true;
  })();
  return {
    store,
    heard,
    ended: () => ended,
    close: () => gone.abort(),
    keepAlives: () => heard.filter((chunk) => chunk.text === ': keep-alive\n\n'),
  };
}

describe('the event stream heartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps an idle stream alive: never more than 5 s without a write', async () => {
    const stream = open();
    await vi.advanceTimersByTimeAsync(0);
    expect(stream.heard.map((chunk) => chunk.text)).toEqual(['retry: 2000\n\n']);
    await vi.advanceTimersByTimeAsync(3900);
    expect(stream.keepAlives()).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    const times = [1_000_000, ...stream.heard.map((chunk) => chunk.at)];
    const gaps = times.slice(1).map((at, index) => at - (times[index] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_MS);
    expect(stream.keepAlives().length).toBeGreaterThanOrEqual(12);
    stream.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(stream.ended()).toBe(true);
  });

  it('skips the heartbeat of a stream that has just written, and keeps the 5 s gap after', async () => {
    const stream = open();
    await vi.advanceTimersByTimeAsync(3500);
    await stream.store.append('events:PAY_1', { type: 'status', status: 'SUCCESSFUL' });
    await vi.advanceTimersByTimeAsync(3500);
    // 7 s after opening: one write 3.5 s ago, so no heartbeat yet.
    expect(stream.keepAlives()).toEqual([]);
    expect(stream.heard.map((chunk) => chunk.text)).toEqual([
      'retry: 2000\n\n',
      'id: 1\nevent: status\ndata: {"type":"status","status":"SUCCESSFUL"}\n\n',
    ]);
    await vi.advanceTimersByTimeAsync(1500);
    const [first] = stream.keepAlives();
    expect(first?.at).toBeDefined();
    expect((first?.at ?? 0) - 1_003_500).toBeLessThanOrEqual(HEARTBEAT_MS);
    stream.close();
  });

  it('uses one timer for many streams, and none once they are closed', async () => {
    const before = vi.getTimerCount();
    const store = createMemoryStore();
    const streams = Array.from({ length: 200 }, (_, index) => open(store, `PAY_${index}`));
    await vi.advanceTimersByTimeAsync(0);
    expect(openEventStreams()).toBe(200);
    expect(vi.getTimerCount() - before).toBe(1);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(streams.every((stream) => stream.keepAlives().length === 1)).toBe(true);
    for (const stream of streams) stream.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(openEventStreams()).toBe(0);
    expect(vi.getTimerCount()).toBe(before);
    expect(streams.every((stream) => stream.ended())).toBe(true);
  });
});
