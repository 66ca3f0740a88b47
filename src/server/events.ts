/**
 * The stream a waiting widget listens to (Server-Sent Events): every status event of its one
 * payment, replayed from `Last-Event-ID` after a reconnect, so an outcome that arrives while the
 * connection was down is not lost. The stream ends when the browser goes away, taking its
 * subscription and heartbeat with it.
 */
import type { CheckoutStore, StoredEvent } from './store';

// Well inside every runtime's default idle timeout: Bun.serve cuts a connection silent for 10 s,
// and proxies commonly at 30 to 60 s (issue 13).
const HEARTBEAT_MS = 5_000;

export function eventStream(
  store: CheckoutStore,
  reference: string,
  lastEventId: string | null,
  signal: AbortSignal,
  headers: Headers,
): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSent = Number(lastEventId ?? '0') || 0;
      const send = (event: StoredEvent) => {
        if (closed || Number(event.id) <= lastSent) return;
        lastSent = Number(event.id);
        controller.enqueue(
          encoder.encode(
            `id: ${event.id}\nevent: status\ndata: ${JSON.stringify(event.value)}\n\n`,
          ),
        );
      };
      const unsubscribe = store.subscribe(`events:${reference}`, send);
      const heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, HEARTBEAT_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
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
      controller.enqueue(encoder.encode('retry: 2000\n\n'));
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
