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

import { type DirectSink, lazySignalOf, offerDirect } from '../../node/hand-off';
import type { CheckoutStore, StoredEvent } from '../store';

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
  readonly write: (chunk: Uint8Array) => void;
}

const open = new Set<OpenStream>();
let ticker: ReturnType<typeof setInterval> | undefined;

function beat(): void {
  const now = Date.now();
  const quietSince = now - (HEARTBEAT_MS - TICK_MS);
  for (const stream of open) if (stream.lastWrite <= quietSince) stream.write(KEEP_ALIVE.slice());
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

/**
 * The request's signal, or, from this package's Node adapter (which makes it only when asked
 * for), the getter that makes it: a stream written straight to the socket then never makes one,
 * and holds neither it nor the Request (issue 25: 10,000 waiting browsers kept an AbortSignal and
 * its listener each).
 */
export function clientSignal(request: Request): AbortSignal | (() => AbortSignal) {
  return lazySignalOf(request) ?? request.signal;
}

/** How many streams the shared heartbeat is keeping alive (for tests). */
export function openEventStreams(): number {
  return open.size;
}

/**
 * The stream of one payment's status events. Read as a web stream by any runtime; this
 * package's Node adapter instead attaches to it and has its bytes written straight to the
 * socket (offerDirect, src/node/hand-off.ts), after which the web stream and its Response are let go of.
 */
export function eventStream(
  store: CheckoutStore,
  reference: string,
  lastEventId: string | null,
  /**
   * The client's signal, or the getter that makes it (clientSignal): a getter is called only if
   * the stream is read as a web stream; written straight to a Node socket, the connection's
   * close ends the stream instead.
   */
  signal: AbortSignal | (() => AbortSignal),
  headers: Headers,
  /** Called once when the stream ends, however it ends (the per-checkout stream count). */
  onEnd?: () => void,
): Response {
  const name = `events:${reference}`;
  let closed = false;
  let lastSent = Number(lastEventId ?? '0') || 0;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let sink: DirectSink | undefined;
  /** Written before anyone reads: the first read, or the sink attached, takes these first. */
  let early: Uint8Array[] | undefined = [];
  /** The client's signal, once followed. */
  let listened: AbortSignal | undefined;

  function listen(): void {
    if (listened || closed) return;
    listened = typeof signal === 'function' ? signal() : signal;
    listened.addEventListener('abort', cleanup);
    if (listened.aborted) cleanup();
  }

  function write(chunk: Uint8Array): void {
    if (closed) return;
    stream.lastWrite = Date.now();
    if (sink) sink.write(chunk);
    else if (early) early.push(chunk);
    else controller?.enqueue(chunk);
  }
  const stream: OpenStream = { lastWrite: Date.now(), write };

  function send(event: StoredEvent): void {
    if (closed || Number(event.id) <= lastSent) return;
    lastSent = Number(event.id);
    write(
      encoder.encode(`id: ${event.id}\nevent: status\ndata: ${JSON.stringify(event.value)}\n\n`),
    );
  }

  function cleanup(): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    unwatch(stream);
    listened?.removeEventListener('abort', cleanup);
    listened = undefined;
    if (sink) sink.end();
    else {
      try {
        // What was written before anyone read is still read, then the end.
        for (const chunk of early ?? []) controller?.enqueue(chunk);
        controller?.close();
      } catch {
        // Already closed by the consumer.
      }
    }
    sink = undefined;
    controller = undefined;
    early = undefined;
    onEnd?.();
  }

  // highWaterMark 0: pull is called only once a consumer reads, so nothing goes into the web
  // stream unless it is read as one.
  const body = new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
      },
      pull() {
        // Read as a web stream: the client's signal ends it too (a cancel alone may come late).
        listen();
        const chunks = early;
        early = undefined;
        for (const chunk of chunks ?? []) controller?.enqueue(chunk);
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: 0 },
  );
  offerDirect(body, (target) => {
    // Already read as a web stream, or ended: the adapter reads it as one too.
    if (early === undefined || closed) return undefined;
    const chunks = early;
    early = undefined;
    sink = target;
    controller = undefined;
    for (const chunk of chunks) target.write(chunk);
    return cleanup;
  });

  const unsubscribe = store.subscribe(name, send);
  watch(stream);
  // A signal given as it is is followed at once (it costs nothing more), and may have aborted
  // already: the client left while this was made.
  if (typeof signal !== 'function') listen();
  if (!closed) {
    // Reconnect quickly, and first tell the browser what it missed.
    write(RETRY.slice());
    store.read(name, lastEventId ?? undefined).then(
      (missed) => {
        for (const event of missed) send(event);
      },
      // The store is unreachable: end the stream, and the browser reconnects in 2 s.
      () => cleanup(),
    );
  }
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-store');
  headers.set('x-accel-buffering', 'no');
  return new Response(body, { status: 200, headers });
}
