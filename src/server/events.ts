/**
 * The stream a waiting widget listens to (Server-Sent Events): every status event of its one
 * payment, replayed from `Last-Event-ID` after a reconnect, so an outcome that arrives while the
 * connection was down is not lost. The stream ends when the browser goes away, taking its
 * subscription and heartbeat with it.
 *
 * Heartbeats: one timer for every open stream of the process (not one per stream), which writes
 * `: keep-alive` to a stream that has written nothing for HEARTBEAT_MS − TICK_MS, so no stream is
 * ever silent for more than HEARTBEAT_MS and a stream that just wrote is not written to again.
 * Ten thousand waiting browsers cost one timer and 2,000 small writes a second, spread over
 * the ticks, instead of ten thousand timers.
 */
import type { CheckoutStore, StoredEvent } from './store';

// Well inside every runtime's default idle timeout: Bun.serve cuts a connection silent for 10 s,
// and proxies commonly at 30 to 60 s (issue 13).
export const HEARTBEAT_MS = 5_000;
/** How often the shared timer looks for streams due a heartbeat. */
const TICK_MS = 250;

const encoder = new TextEncoder();
// Encoded once; each stream is given its own copy, as a runtime may take the chunk's buffer over.
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');
const RETRY = encoder.encode('retry: 2000\n\n');

/** One open stream, as the shared heartbeat sees it. */
interface OpenStream {
  /** Date.now() of its last write. */
  lastWrite: number;
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
}

const open = new Set<OpenStream>();
let ticker: ReturnType<typeof setInterval> | undefined;

function beat(): void {
  const now = Date.now();
  const quietSince = now - (HEARTBEAT_MS - TICK_MS);
  for (const stream of open) {
    if (stream.lastWrite > quietSince) continue;
    stream.lastWrite = now;
    try {
      stream.controller.enqueue(KEEP_ALIVE.slice());
    } catch {
      // Closed by the consumer a moment ago; its cleanup removes it.
    }
  }
}

function watch(stream: OpenStream): void {
  open.add(stream);
  ticker ??= setInterval(beat, TICK_MS);
}

function unwatch(stream: OpenStream): void {
  open.delete(stream);
  if (open.size === 0 && ticker !== undefined) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** How many streams the shared heartbeat is keeping alive (for tests). */
export function openEventStreams(): number {
  return open.size;
}

export function eventStream(
  store: CheckoutStore,
  reference: string,
  lastEventId: string | null,
  signal: AbortSignal,
  headers: Headers,
): Response {
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSent = Number(lastEventId ?? '0') || 0;
      const stream: OpenStream = { lastWrite: Date.now(), controller };
      const send = (event: StoredEvent) => {
        if (closed || Number(event.id) <= lastSent) return;
        lastSent = Number(event.id);
        stream.lastWrite = Date.now();
        controller.enqueue(
          encoder.encode(
            `id: ${event.id}\nevent: status\ndata: ${JSON.stringify(event.value)}\n\n`,
          ),
        );
      };
      const unsubscribe = store.subscribe(`events:${reference}`, send);
      watch(stream);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        unwatch(stream);
        signal.removeEventListener('abort', cleanup);
        try {
          controller.close();
        } catch {
          // Already closed by the consumer.
        }
      };
      signal.addEventListener('abort', cleanup);
      if (signal.aborted) return cleanup();
      // Reconnect quickly, and first tell the browser what it missed.
      controller.enqueue(RETRY.slice());
      for (const event of await store.read(`events:${reference}`, lastEventId ?? undefined))
        send(event);
    },
    cancel() {
      cleanup();
    },
  });
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-store');
  headers.set('x-accel-buffering', 'no');
  return new Response(body, { status: 200, headers });
}
