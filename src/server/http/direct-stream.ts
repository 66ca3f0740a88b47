/**
 * A body stream that this package's own Node adapter may write straight to the connection
 * instead of reading it through a web stream reader (issue 10's scale budget). On Node 20 a read
 * costs a promise and a read request per chunk, and a reader waiting between heartbeats keeps
 * about 2 KB per open stream; ten thousand waiting browsers spend most of their memory there.
 *
 * The producer (the event stream) offers its stream; the adapter, given a Response, takes the
 * offer and attaches its sink before anything reads the body. A stream that another consumer
 * has begun to read (any other runtime or adapter, a test reading `response.body`) is never
 * attached: the offer is refused and the web stream works as usual.
 */

/** Where a directly written stream's bytes go. */
export interface DirectSink {
  write(chunk: Uint8Array): void;
  /** The producer has ended the stream. */
  end(): void;
}

/**
 * Attaches a sink: from now on the producer writes to it, not to its web stream. Answers the
 * detach (call it when the connection closes: the producer cleans up as on a cancel), or
 * undefined when the stream is already being read as a web stream.
 */
export type AttachDirect = (sink: DirectSink) => (() => void) | undefined;

// One registry per process, even when the producer and the adapter come from two bundles of the
// package (paydrop/server and paydrop/server/node each carry a copy of this module).
const REGISTRY = Symbol.for('paydrop.direct-stream');
type Offers = WeakMap<ReadableStream<Uint8Array>, AttachDirect>;
const shared = globalThis as { [REGISTRY]?: Offers };
shared[REGISTRY] ??= new WeakMap();
const offers: Offers = shared[REGISTRY];

export function offerDirect(stream: ReadableStream<Uint8Array>, attach: AttachDirect): void {
  offers.set(stream, attach);
}

/** Attaches `sink` to `stream` if its producer offered it and nothing reads it yet. */
export function attachDirect(
  stream: ReadableStream<Uint8Array> | null,
  sink: DirectSink,
): (() => void) | undefined {
  if (!stream || stream.locked) return undefined;
  const attach = offers.get(stream);
  if (!attach) return undefined;
  offers.delete(stream);
  return attach(sink);
}
