/**
 * The Request a Node request becomes: a Request (instanceof, every property and method) whose
 * undici Request, body stream and Headers are built only when a handler asks for them (issue 25,
 * item 3). The checkout's calls read the method, the URL, a few headers and a small JSON body:
 * read straight from the socket, they cost neither a web stream (~10 µs to make, a promise per
 * read) nor a Request's construction (~15 µs), nor the copy of the body a Request's text() makes.
 *
 * What a handler that reads more gets: `body`, `clone()`, `blob()`, `formData()`, `cache`, … build
 * the real Request once (its body the socket's stream, as before) and answer from it; from then
 * on every read of the body goes through it. Known limit, as with @hono/node-server: undici's own
 * `new Request(request)` and `fetch(request)` read private fields and do not take this object;
 * `new Request(request.url, { method, headers, body })` does.
 */
import { CAPPED_TEXT, LAZY_SIGNAL, markWritesTextAnswers } from './hand-off';

/**
 * Where the body comes from: read whole up to a limit (the fast path), or as the web stream the
 * real Request is built around.
 */
export interface BodySource {
  /** The body's bytes, or 'too-large' (nothing more read) when it is longer than `limit`. */
  upTo(limit: number): Promise<Uint8Array | 'too-large'>;
  /** The body the real Request is built with: the socket's stream, or the bytes. */
  body(): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
}

/** The client's signal, or a function that makes it when first asked for. */
export type ClientSignal = AbortSignal | (() => AbortSignal);

const UTF8 = new TextDecoder();

/** The real Request behind a NodeRequest, built now if it was not (set in the class). */
let realOf: (request: NodeRequest) => Request;

function unusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/** The methods a Request cannot have (Fetch): undici refuses them, so the adapter does too. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

export class NodeRequest {
  readonly #url: string;
  readonly #method: string;
  readonly #headersInit: Record<string, string> | Headers;
  readonly #source: BodySource | undefined;
  /** The client's signal, or what makes it (nodeListener's, made only when first asked for). */
  #signal: ClientSignal | undefined;
  #headers: Headers | undefined;
  #real: Request | undefined;
  /** The body was read (or begun) through the fast path. */
  #used = false;
  #spent: ReadableStream<Uint8Array> | undefined;

  constructor(
    url: string,
    method: string,
    headers: Record<string, string> | Headers,
    source: BodySource | undefined,
    signal: ClientSignal | undefined,
  ) {
    this.#url = url;
    this.#method = method;
    this.#headersInit = headers;
    this.#source = source;
    this.#signal = signal;
  }

  get url(): string {
    return this.#url;
  }

  get method(): string {
    return this.#method;
  }

  get headers(): Headers {
    this.#headers ??= this.#real?.headers ?? new Headers(this.#headersInit);
    return this.#headers;
  }

  /**
   * The client's signal, which aborts when the client goes away: not a second signal following
   * it, as a Request given `signal` would make (linked by a listener and a finalizer, ~1 KB a
   * request held for as long as an event stream is open, and CPU on every request). Without one
   * given, the real Request's.
   */
  get signal(): AbortSignal {
    const signal = this.#signal;
    if (signal === undefined) return this.#toRequest().signal;
    if (typeof signal !== 'function') return signal;
    const made = signal();
    this.#signal = made;
    return made;
  }

  /**
   * The getter of the client's signal, while it is not made (lazySignalOf, hand-off.ts): an event
   * stream holds it rather than a signal, and written straight to a socket never calls it.
   */
  get [LAZY_SIGNAL](): (() => AbortSignal) | undefined {
    const signal = this.#signal;
    return typeof signal === 'function' ? signal : undefined;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#used) return this.#spentBody();
    return this.#source ? this.#toRequest().body : null;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  /** The body's bytes through the fast path (the real Request, if made, has not got it). */
  async #bytes(): Promise<Uint8Array> {
    this.#used = true;
    if (!this.#source) return new Uint8Array(0);
    const bytes = await this.#source.upTo(Number.POSITIVE_INFINITY);
    // upTo(Infinity) never answers 'too-large': past the adapter's allowance it throws.
    return bytes === 'too-large' ? new Uint8Array(0) : bytes;
  }

  /**
   * Reads at most `limit` bytes: the text, or undefined (nothing more read) for a longer body.
   * What readCapped (server/http/read-body.ts) takes through the hand-off, instead of a stream.
   */
  async #cappedText(limit: number): Promise<string | undefined> {
    if (this.#used) throw unusable();
    this.#used = true;
    if (!this.#source) return '';
    const bytes = await this.#source.upTo(limit);
    return bytes === 'too-large' ? undefined : UTF8.decode(bytes);
  }

  // Each read refuses a body already read first: a real Request made after it (for `cache`, say)
  // has no body, and would answer an empty one.
  async text(): Promise<string> {
    if (this.#used) throw unusable();
    if (this.#real) return this.#real.text();
    return UTF8.decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#used) throw unusable();
    if (this.#real) return this.#real.arrayBuffer();
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.#used) throw unusable();
    if (this.#real) return new Uint8Array(await this.#real.arrayBuffer());
    const bytes = await this.#bytes();
    // A copy of its own, as a Request's: a Buffer may share Node's pool.
    return new Uint8Array(bytes);
  }

  blob(): Promise<Blob> {
    if (this.#used) return Promise.reject(unusable());
    return this.#toRequest().blob();
  }

  formData(): Promise<FormData> {
    if (this.#used) return Promise.reject(unusable());
    return this.#toRequest().formData();
  }

  clone(): Request {
    if (this.#used) throw unusable();
    return this.#toRequest().clone();
  }

  /** A body read through the fast path, as a Request shows one: a stream already disturbed. */
  #spentBody(): ReadableStream<Uint8Array> {
    if (!this.#spent) {
      this.#spent = new ReadableStream<Uint8Array>();
      void this.#spent.cancel();
    }
    return this.#spent;
  }

  /** The real Request, built once: its body the socket's stream, its headers these. */
  #toRequest(): Request {
    if (this.#real) return this.#real;
    const init: RequestInit & { duplex?: 'half' } = {
      method: this.#method,
      headers: this.#headers ?? this.#headersInit,
    };
    if (this.#source && !this.#used) {
      init.body = this.#source.body();
      if (init.body instanceof ReadableStream) init.duplex = 'half';
    }
    this.#real = new Request(this.#url, init);
    return this.#real;
  }

  /** What readCapped (server/http/read-body.ts) calls through the hand-off (readCappedText). */
  [CAPPED_TEXT](limit: number): Promise<string | undefined> | undefined {
    // Once the real Request holds the body, it is read as any Request's.
    if (this.#real) return undefined;
    return this.#cappedText(limit);
  }

  static {
    realOf = (request) => request.#toRequest();
  }
}

// Everything else a Request has (cache, credentials, mode, redirect, …, whatever this Node's
// Request adds) is answered by the real one: a handler that asks gets the same as before.
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (name === 'constructor' || Object.hasOwn(NodeRequest.prototype, name)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, name);
  if (!descriptor) continue;
  if (descriptor.get) {
    Object.defineProperty(NodeRequest.prototype, name, {
      get(this: NodeRequest) {
        return descriptor.get?.call(realOf(this));
      },
      configurable: true,
    });
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(NodeRequest.prototype, name, {
      value(this: NodeRequest, ...args: unknown[]) {
        const real = realOf(this);
        return (descriptor.value as (...given: unknown[]) => unknown).apply(real, args);
      },
      configurable: true,
      writable: true,
    });
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);
// Its answers go to writeResponse, which writes a text answer's text itself (textAnswer).
markWritesTextAnswers(NodeRequest.prototype);
