/**
 * A waiting browser's `/events` stream, read with fetch as EventSource would: the events parsed,
 * `Last-Event-ID` sent on a reconnect, and a stream cut by its server (a killed companion)
 * noted rather than thrown.
 *
 * @example
 * const stream = await openEventStream(companion.url, token);
 * await stream.waitFor((event) => event.data.status === 'SUCCESSFUL');
 * const again = await openEventStream(restarted.url, token, stream.lastEventId());
 */

export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the event's JSON
  readonly data: any;
  /** When it arrived (Date.now()). */
  readonly at: number;
}

export interface EventStream {
  readonly status: number;
  readonly events: SseEvent[];
  /** The id of the last event received, for a reconnect's Last-Event-ID. */
  lastEventId(): string | undefined;
  /** True once the stream ended or was cut. */
  ended(): boolean;
  /** Resolves with the first event (already received or to come) that `match`es. */
  waitFor(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): Promise<void>;
}

export async function openEventStream(
  companionUrl: string,
  token: string,
  lastEventId?: string,
): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${companionUrl}/events?token=${encodeURIComponent(token)}`, {
    headers: {
      accept: 'text/event-stream',
      ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let finished = false;
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const pump = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const name = colon === -1 ? line : line.slice(0, colon);
            fields[name] = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          }
          if (fields.data !== undefined) {
            events.push({
              id: fields.id,
              event: fields.event,
              data: JSON.parse(fields.data),
              at: Date.now(),
            });
            notify();
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Cut by the server (killed) or by close(): the stream has ended either way.
    } finally {
      finished = true;
      notify();
    }
  })();
  return {
    status: response.status,
    events,
    lastEventId: () => events.findLast((event) => event.id !== undefined)?.id,
    ended: () => finished,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            done();
            resolve(found);
          } else if (finished) {
            done();
            reject(new Error(`the stream ended first; it had ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no such event within ${timeoutMs} ms: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}
