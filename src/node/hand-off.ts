/**
 * What this package's Node adapter (src/node/serve.ts) and the web-standard handlers
 * (src/server) hand each other without either importing the other: marks kept on the Request,
 * its body, the answer's headers and the Response's body under symbols. The handlers stay
 * web-standard (any runtime ignores the marks, and gets ordinary Responses); the Node adapter,
 * finding them, does better (issue 10's scale budget, issue 20's per-address limits, issue 25's
 * cost per call: bodies read without a web stream, JSON answers written as their text).
 *
 * Nothing here imports anything, Node's modules included: paydrop/server (web-standard, for edge
 * runtimes too) and paydrop/server/node may both carry a copy of it. The symbols are
 * `Symbol.for`, so that two copies of this module still agree.
 */

/** Marks a body stream whose producer can write it straight to a sink: see offerDirect. */
const DIRECT_WRITE = Symbol.for('paydrop.direct-write');
/** The Node adapter's Request answers its client signal's getter under this key (lazySignalOf). */
export const LAZY_SIGNAL = Symbol.for('paydrop.lazy-signal');
/** The address of the socket a Request came in on, kept on the Request by the Node adapter. */
const SOCKET_ADDRESS = Symbol.for('paydrop.socket-address');
/**
 * The Node adapter's Request reads its body whole up to a limit under this key, without a web
 * stream (see readCappedText).
 */
export const CAPPED_TEXT = Symbol.for('paydrop.capped-text');
/** Marks a Response's body stream with the text it was made of (see offerText). */
const BODY_TEXT = Symbol.for('paydrop.body-text');
/** On a Request of the Node adapter, and on answer headers made for one (see answerHeadersFor). */
const WRITES_TEXT_ANSWERS = Symbol.for('paydrop.writes-text-answers');
/** A TextAnswer's own text, while nothing has asked for its body (see textAnswer). */
const OWN_TEXT = Symbol.for('paydrop.own-text');

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

type OfferingStream = ReadableStream<Uint8Array> & { [DIRECT_WRITE]?: AttachDirect };

/**
 * Called by a producer (the event stream): `stream` may be written straight to a connection.
 * On Node 20 a read costs a promise and a read request per chunk, and a reader waiting between
 * heartbeats keeps about 2 KB per open stream; ten thousand waiting browsers spend most of their
 * memory there. The hook rides on the stream itself, so a Response rebuilt around the same body
 * (CORS headers added) still carries it.
 */
export function offerDirect(stream: ReadableStream<Uint8Array>, attach: AttachDirect): void {
  (stream as OfferingStream)[DIRECT_WRITE] = attach;
}

/**
 * Called by the Node adapter with a Response's body: attaches `sink` if its producer offered
 * the stream and nothing reads it yet. A stream another consumer has begun to read (a test
 * reading `response.body`, another adapter) is never attached: it works as a web stream.
 */
export function attachDirect(
  stream: ReadableStream<Uint8Array> | null,
  sink: DirectSink,
): (() => void) | undefined {
  if (!stream || stream.locked) return undefined;
  const offering = stream as OfferingStream;
  const attach = offering[DIRECT_WRITE];
  if (!attach) return undefined;
  delete offering[DIRECT_WRITE];
  return attach(sink);
}

type LazySignalRequest = Request & { readonly [LAZY_SIGNAL]?: (() => AbortSignal) | undefined };

/**
 * The Request's lazy signal getter, when the Node adapter made one (under LAZY_SIGNAL): a handler
 * can hold it instead of a signal, and a stream written straight to a socket never makes one.
 */
export function lazySignalOf(request: Request): (() => AbortSignal) | undefined {
  return (request as LazySignalRequest)[LAZY_SIGNAL];
}

type AddressedRequest = Request & { [SOCKET_ADDRESS]?: string };

/** Called by the Node adapter: the address of the socket this Request came in on. */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) (request as AddressedRequest)[SOCKET_ADDRESS] = address;
}

/** The socket's address the Node adapter remembered for `request`, if any. */
export function socketAddressOf(request: Request): string | null {
  return (request as AddressedRequest)[SOCKET_ADDRESS] ?? null;
}

/**
 * What a body stream of the Node adapter fails with past its allowance. Told by name, not
 * class (isBodyTooLarge in src/server/http/read-body.ts), whichever copy threw it.
 */
export class RequestBodyTooLargeError extends Error {
  override readonly name = 'RequestBodyTooLargeError' as const;
  constructor(maxBytes: number) {
    super(`The request body is larger than ${maxBytes} bytes.`);
  }
}

type CappedReading = Request & {
  [CAPPED_TEXT]?: (limit: number) => Promise<string | undefined> | undefined;
};

/**
 * Called by a handler reading a body of at most `limit` bytes: the text, or undefined when the
 * body is longer (nothing more is read), straight from the Node adapter's socket. Answers
 * undefined (no promise) for any other Request, or one whose body is already a web stream: read
 * it as one then. Throws as `request.text()` would for a body already read, and fails past the
 * adapter's allowance with RequestBodyTooLargeError.
 */
export function readCappedText(
  request: Request,
  limit: number,
): Promise<string | undefined> | undefined {
  return (request as CappedReading)[CAPPED_TEXT]?.(limit);
}

type TextStream = ReadableStream<Uint8Array> & { [BODY_TEXT]?: string };

/**
 * Called by a handler that made a Response of a string (its JSON answers): the Node adapter may
 * write `text` itself instead of reading the body stream back (a reader, a promise per chunk, a
 * copy). Kept on the body stream, so a Response rebuilt around the same body keeps it too.
 */
export function offerText(response: Response, text: string): Response {
  if (response.body) (response.body as TextStream)[BODY_TEXT] = text;
  return response;
}

type Marked = { [WRITES_TEXT_ANSWERS]?: true };

/** Called by the Node adapter: its Requests' answers may be TextAnswers (see textAnswer). */
export function markWritesTextAnswers<T extends object>(target: T): T {
  (target as Marked)[WRITES_TEXT_ANSWERS] = true;
  return target;
}

/**
 * Called by a handler for the headers it answers `request` with: new Headers, marked when the
 * request came through this package's Node adapter, which writes text answers itself.
 */
export function answerHeadersFor(request: Request): Headers {
  const headers = new Headers();
  if ((request as Marked)[WRITES_TEXT_ANSWERS]) markWritesTextAnswers(headers);
  return headers;
}

type TextAnswerClass = new (text: string, init: ResponseInit) => Response;
let TextAnswer: TextAnswerClass | undefined;

/**
 * A Response made of a string whose body stream (and the bytes in it) is made only when someone
 * asks for the body: the Node adapter writes the text itself and never does. On Node a body
 * stream costs more than the rest of the Response (about 25 µs of ~30); most JSON answers are
 * written without one. Anything else (a wrapper reading `text()`, `body`, `clone()`, a Response
 * rebuilt around `body`) is answered by the full Response, made then.
 */
function textAnswerClass(): TextAnswerClass {
  TextAnswer ??= class TextAnswer extends Response {
    readonly #text: string;
    #full: Response | undefined;
    constructor(text: string, init: ResponseInit) {
      super(null, init);
      this.#text = text;
    }
    #made(): Response {
      this.#full ??= offerText(
        new Response(this.#text, {
          status: this.status,
          statusText: this.statusText,
          headers: this.headers,
        }),
        this.#text,
      );
      return this.#full;
    }
    [OWN_TEXT](): string | undefined {
      return this.#full ? undefined : this.#text;
    }
    override text(): Promise<string> {
      return this.#made().text();
    }
    override json(): Promise<unknown> {
      return this.#made().json();
    }
    override arrayBuffer(): Promise<ArrayBuffer> {
      return this.#made().arrayBuffer();
    }
    override blob(): Promise<Blob> {
      return this.#made().blob();
    }
    override formData(): Promise<FormData> {
      return this.#made().formData();
    }
    override clone(): Response {
      return this.#made().clone();
    }
    static {
      // Accessors over the Response's own: a class cannot declare them over Response's properties.
      Object.defineProperties(TextAnswer.prototype, {
        body: {
          get(this: TextAnswer) {
            return this.#made().body;
          },
          configurable: true,
        },
        bodyUsed: {
          get(this: TextAnswer) {
            return this.#full?.bodyUsed ?? false;
          },
          configurable: true,
        },
        bytes: {
          value(this: TextAnswer) {
            return (this.#made() as Response & { bytes(): Promise<Uint8Array> }).bytes();
          },
          configurable: true,
          writable: true,
        },
      });
    }
  };
  return TextAnswer;
}

/**
 * Called by a handler: a Response of `text`. With headers from answerHeadersFor for a request of
 * the Node adapter, a TextAnswer (its body made only if asked for); otherwise an ordinary
 * Response, its text offered (offerText). Any runtime gets a Response that works as one.
 */
export function textAnswer(
  text: string,
  init: { readonly status?: number; readonly headers: Headers },
): Response {
  if ((init.headers as Marked)[WRITES_TEXT_ANSWERS]) return new (textAnswerClass())(text, init);
  return offerText(new Response(text, init), text);
}

/**
 * Called by the Node adapter: the text a Response's body was made of, if its maker offered it
 * and nothing has read the body yet (a stream begun by another consumer is read as a stream).
 */
export function textOf(response: Response): string | undefined {
  const own = (response as { [OWN_TEXT]?: () => string | undefined })[OWN_TEXT]?.();
  if (own !== undefined) return own;
  const body = response.body as TextStream | null;
  if (!body || body.locked || response.bodyUsed) return undefined;
  return body[BODY_TEXT];
}
