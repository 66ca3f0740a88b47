/**
 * Serves a (Request) => Response handler on Node's http server. The companion, the sandbox and
 * the demo share it; their handlers themselves stay web-standard. A response marked "dropped" cuts the connection with no answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachDirect, RequestBodyTooLargeError, rememberClientAddress, textOf } from './hand-off';
import { type BodySource, type ClientSignal, FORBIDDEN_METHODS, NodeRequest } from './node-request';

/**
 * What serve() takes of a body at most, for handlers that read a body whole (the sandbox and the
 * demo take 64 KB at most). The companion's adapters take less (LARGEST_BODY_BYTES).
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

export interface ServeOptions extends ServerTimeouts {
  readonly port?: number;
  readonly host?: string;
  readonly isDropped?: (response: Response) => boolean;
  /** The most of a body read, in bytes; above it the answer is 413. Default MAX_REQUEST_BYTES. */
  readonly maxBodyBytes?: number;
}

/**
 * Timeouts of Node's http server, in ms, against clients that hold connections without sending
 * (slowloris). Neither cuts an open event stream: Node's request timeout ends once the request
 * has arrived whole, and a GET arrives whole with its headers; the stream's heartbeats are
 * responses, not requests.
 */
export interface ServerTimeouts {
  /** The whole header block must arrive within this. Default 10 000 (Node's own: 60 000). */
  readonly headersTimeoutMs?: number;
  /** The whole request, body included, must arrive within this. Default 30 000 (Node's: 300 000). */
  readonly requestTimeoutMs?: number;
  /**
   * An idle keep-alive connection is closed after this. Default 5 000 (Node's). Behind a load
   * balancer, set it above the balancer's idle timeout (e.g. 65 000 behind AWS's 60 s).
   */
  readonly keepAliveTimeoutMs?: number;
}

export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as const satisfies Required<ServerTimeouts>;

function checkTimeout(name: string, value: unknown): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0))
    throw new TypeError(`${name} must be a whole number of ms above 0.`);
}

/**
 * The http server's options for these timeouts. Node looks for expired headers and requests
 * every `connectionsCheckingInterval` (30 s by default), which would let a headers timeout of
 * 10 s run to 40: it looks at least as often as the shortest timeout allows.
 */
export function serverOptions(timeouts: ServerTimeouts = {}) {
  checkTimeout('headersTimeoutMs', timeouts.headersTimeoutMs);
  checkTimeout('requestTimeoutMs', timeouts.requestTimeoutMs);
  checkTimeout('keepAliveTimeoutMs', timeouts.keepAliveTimeoutMs);
  const headersTimeout = timeouts.headersTimeoutMs ?? SERVER_TIMEOUTS.headersTimeoutMs;
  // Node requires the request timeout to be at least the headers timeout.
  const requestTimeout = Math.max(
    timeouts.requestTimeoutMs ?? SERVER_TIMEOUTS.requestTimeoutMs,
    headersTimeout,
  );
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs ?? SERVER_TIMEOUTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

export interface RunningServer {
  readonly server: Server;
  /** e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly close: () => Promise<void>;
}

/**
 * How much of one request's body may be read, and whether the client sent more: then the answer
 * is 413 whatever the handler made of the cut body.
 */
export interface BodyAllowance {
  readonly maxBytes: number;
  exceeded: boolean;
  /** The handler began to read the body. */
  started: boolean;
  /**
   * The handler read the body to its end (Node may not have marked the message complete yet:
   * the connection is kept all the same).
   */
  finished?: boolean;
}

/** True when the declared Content-Length is above `maxBytes`: refused before a byte is read. */
function declaredTooLarge(incoming: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(incoming.headers['content-length'] ?? '0');
  return declared > maxBytes;
}

/**
 * The request's body as a web stream that reads the socket only as the handler reads it, and
 * never past `allowance.maxBytes`: a handler that takes 8 KB reads 8 KB and cancels, and nothing
 * more is buffered (issue 20: the adapter read up to 1 MB of a body before the handler's 8 KB
 * check; 100 such requests took 126 MB). Past the allowance the stream fails with
 * RequestBodyTooLargeError, which readCapped (server/http/read-body.ts) takes as "too large".
 */
function bodyStream(
  incoming: IncomingMessage,
  allowance: BodyAllowance,
): ReadableStream<Uint8Array> {
  let size = 0;
  let started = false;
  let settled = false;
  const detach = () => {
    settled = true;
    incoming.off('data', onData);
    incoming.off('end', onEnd);
    incoming.off('error', onError);
    incoming.off('close', onClose);
    incoming.pause();
  };
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  function onData(chunk: Buffer): void {
    size += chunk.length;
    if (size > allowance.maxBytes) {
      allowance.exceeded = true;
      detach();
      controller?.error(new RequestBodyTooLargeError(allowance.maxBytes));
      return;
    }
    controller?.enqueue(chunk);
    // highWaterMark 0: hold the socket until the handler reads again.
    incoming.pause();
  }
  function onEnd(): void {
    detach();
    allowance.finished = true;
    controller?.close();
  }
  function onError(error: Error): void {
    detach();
    controller?.error(error);
  }
  function onClose(): void {
    if (!settled) onError(new Error('The client went away before sending the whole body.'));
  }
  return new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
      },
      pull() {
        if (settled) return;
        if (!started) {
          started = true;
          allowance.started = true;
          incoming.on('data', onData);
          incoming.once('end', onEnd);
          incoming.once('error', onError);
          incoming.once('close', onClose);
        }
        incoming.resume();
      },
      cancel() {
        if (!settled) detach();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The request's body read whole, without a web stream (a handler's `text()`, `json()`, or
 * readCapped's limit): at most `limit` bytes, else 'too-large' and the socket read no further;
 * past `allowance.maxBytes` it fails with RequestBodyTooLargeError, as the stream does.
 */
function readWhole(
  incoming: IncomingMessage,
  allowance: BodyAllowance,
  limit: number,
): Promise<Uint8Array | 'too-large'> {
  allowance.started = true;
  // A small body nearly always came in the packet of its headers: Node's parser has buffered all
  // of it (what Content-Length says) before the handler runs, and it is taken at once, with no
  // listener and no event.
  const declared = incoming.headers['content-length'];
  if (
    incoming.complete ||
    (declared !== undefined && incoming.readableLength === Number(declared))
  ) {
    const size = incoming.readableLength;
    if (size > allowance.maxBytes) {
      allowance.exceeded = true;
      return Promise.reject(new RequestBodyTooLargeError(allowance.maxBytes));
    }
    if (size > limit) return Promise.resolve('too-large');
    // One read takes all that is buffered (the stream is paused); a loop in case it is not.
    const chunks: Buffer[] = [];
    if (size > 0)
      for (let chunk = incoming.read() as Buffer | null; chunk !== null; chunk = incoming.read())
        chunks.push(chunk);
    // Flowing from here, so that the message ends (its 'end' event) as a read one does.
    incoming.resume();
    allowance.finished = true;
    if (chunks.length === 0) return Promise.resolve(new Uint8Array(0));
    return Promise.resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  }
  return new Promise((resolve, reject) => {
    const reading: WholeRead = { allowance, limit, resolve, reject, chunks: [], size: 0 };
    (incoming as ReadingMessage)[READING] = reading;
    incoming.on('data', onWholeData);
    incoming.once('end', onWholeEnd);
    incoming.once('error', onWholeError);
    incoming.once('close', onWholeClose);
  });
}

/**
 * readWhole of a body still arriving, its chunks gathered as they come. Kept on the request
 * under READING, its listeners shared by every request (`this` is the request): none made per
 * request.
 */
interface WholeRead {
  readonly allowance: BodyAllowance;
  readonly limit: number;
  readonly resolve: (bytes: Uint8Array | 'too-large') => void;
  readonly reject: (error: Error) => void;
  readonly chunks: Buffer[];
  size: number;
}
const READING = Symbol('whole body being read');
type ReadingMessage = IncomingMessage & { [READING]?: WholeRead | undefined };

/** The read under way on `incoming`, now ended: its listeners removed, the socket held. */
function endWholeRead(incoming: ReadingMessage): WholeRead | undefined {
  const reading = incoming[READING];
  incoming[READING] = undefined;
  incoming.off('data', onWholeData);
  incoming.off('end', onWholeEnd);
  incoming.off('error', onWholeError);
  incoming.off('close', onWholeClose);
  incoming.pause();
  return reading;
}

function onWholeData(this: ReadingMessage, chunk: Buffer): void {
  const reading = this[READING];
  if (!reading) return;
  reading.size += chunk.length;
  if (reading.size > reading.allowance.maxBytes) {
    reading.allowance.exceeded = true;
    endWholeRead(this);
    reading.reject(new RequestBodyTooLargeError(reading.allowance.maxBytes));
  } else if (reading.size > reading.limit) {
    endWholeRead(this);
    reading.resolve('too-large');
  } else reading.chunks.push(chunk);
}

function onWholeEnd(this: ReadingMessage): void {
  const reading = endWholeRead(this);
  if (!reading) return;
  reading.allowance.finished = true;
  const { chunks } = reading;
  reading.resolve(
    chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, reading.size),
  );
}

function onWholeError(this: ReadingMessage, error: Error): void {
  endWholeRead(this)?.reject(error);
}

function onWholeClose(this: ReadingMessage): void {
  endWholeRead(this)?.reject(new Error('The client went away before sending the whole body.'));
}

/** The socket's body for a NodeRequest: read whole, or streamed once the real Request needs it. */
class SocketBody implements BodySource {
  constructor(
    readonly incoming: IncomingMessage,
    readonly allowance: BodyAllowance,
  ) {}
  upTo(limit: number): Promise<Uint8Array | 'too-large'> {
    return readWhole(this.incoming, this.allowance, limit);
  }
  body(): ReadableStream<Uint8Array> {
    return bodyStream(this.incoming, this.allowance);
  }
}

/** Bytes a framework in front already read, as a NodeRequest's body. */
class BytesBody implements BodySource {
  constructor(readonly bytes: Uint8Array) {}
  upTo(limit: number): Promise<Uint8Array | 'too-large'> {
    return Promise.resolve(this.bytes.length > limit ? 'too-large' : this.bytes);
  }
  body(): Uint8Array<ArrayBuffer> {
    // A copy, as before: the framework keeps its own.
    return new Uint8Array(this.bytes);
  }
}

/** A request that cannot be turned into a URL (a malformed Host): the client's fault, a 400. */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError' as const;
}

/**
 * The client's signal for a Request: the signal itself, or a function that makes it when first
 * asked for (nodeListener's: most requests never ask, and an AbortController is ~6 µs).
 */
export type { ClientSignal };

/** Node's parsed headers as a Request's, as they are when no value is a list (nearly always). */
function headersOf(incoming: IncomingMessage): Record<string, string> | Headers {
  const given = incoming.headers;
  for (const name in given) {
    if (typeof given[name] !== 'string') {
      // A list (set-cookie) or nothing: each value on a line of its own, as Node gave them.
      const headers = new Headers();
      for (const [key, value] of Object.entries(given)) {
        if (Array.isArray(value)) for (const item of value) headers.append(key, item);
        else if (value !== undefined) headers.set(key, value);
      }
      return headers;
    }
  }
  return given as Record<string, string>;
}

/**
 * The Request for `incoming` (a NodeRequest: built in full only when the handler asks, see
 * node-request.ts). `body` is what a framework in front already read, or the socket's.
 */
export function toRequest(
  incoming: IncomingMessage,
  body: Uint8Array | BodySource | undefined,
  signal?: ClientSignal,
  url = incoming.url,
): Request {
  const host = incoming.headers.host ?? 'localhost';
  const method = incoming.method ?? 'GET';
  // On a TLS socket (https.createServer, or an http2 server's https fallback) the URL says
  // https, so the checkout takes the shop's https pages as its own (issue 21).
  const scheme = (incoming.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
  const path = url ?? '/';
  // An origin-form target ('/api/…', nearly every request) is appended to the origin as text;
  // anything else ('//host/…', '/\\…', an absolute URL) is resolved against the origin first.
  const direct =
    path.charCodeAt(0) === 47 && path.charCodeAt(1) !== 47 && path.charCodeAt(1) !== 92;
  let href: string;
  try {
    const parsed = direct
      ? new URL(`${scheme}://${host}${path}`)
      : new URL(path, `${scheme}://${host}`);
    // A Request refuses a URL with credentials in it (a Host of 'user:pass@shop'): so does this.
    if (parsed.username !== '' || parsed.password !== '') throw new TypeError('credentials');
    href = parsed.href;
  } catch {
    throw new MalformedRequestError('The Host header or the request target is not valid.');
  }
  if (FORBIDDEN_METHODS.has(method))
    throw new MalformedRequestError(`A request cannot have the method ${method}.`);
  const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  const source = !hasBody ? undefined : body instanceof Uint8Array ? new BytesBody(body) : body;
  // The client's signal is the Request's own, not followed by a second one: Node's Request makes
  // a signal of its own per `signal` given, linked by a listener and a finalizer, ~1 KB a request
  // held for as long as an event stream is open (10,000 waiting browsers: 10 MB) and CPU on every
  // request. `request.signal` still aborts when the client goes away; given as a function, it is
  // made only when first asked for.
  return new NodeRequest(href, method, headersOf(incoming), source, signal) as unknown as Request;
}

/** A response's headers as Node writes them, and what writing its body needs to know of them. */
function headerListOf(response: Response): {
  readonly headers: string[];
  readonly eventStream: boolean;
  readonly length: boolean;
} {
  // As a flat list: forEach gives each Set-Cookie on its own (Fetch's "sort and combine"), and
  // each stays a header of its own.
  const headers: string[] = [];
  let eventStream = false;
  let length = false;
  response.headers.forEach((value, name) => {
    headers.push(name, value);
    if (name === 'content-type') eventStream = value.startsWith('text/event-stream');
    else if (name === 'content-length') length = true;
  });
  return { headers, eventStream, length };
}

/**
 * Has this package's own event stream written straight to the socket (offerDirect in
 * hand-off.ts); false when the body is not one. A function of its own so that the sink's
 * closures, alive as long as the stream, hold `outgoing` and nothing else of writeResponse (its
 * header list stayed with every open stream: ~0.4 KB each, issue 25).
 */
function writeDirect(body: ReadableStream<Uint8Array>, outgoing: ServerResponse): boolean {
  const detach = attachDirect(body, {
    write: (chunk) => void outgoing.write(chunk),
    end: () => void outgoing.end(),
  });
  if (!detach) return false;
  if (outgoing.destroyed) detach();
  else outgoing.on('close', detach);
  return true;
}

export async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const { headers, eventStream, length } = headerListOf(response);
  // A JSON answer that said what text it was made of (offerText in hand-off.ts) is written as
  // that text, with its length: no reader, no promise per chunk, no copy, no chunked framing.
  const text = eventStream ? undefined : textOf(response);
  if (text !== undefined) {
    if (!length) headers.push('content-length', String(Buffer.byteLength(text)));
    outgoing.writeHead(response.status, headers);
    outgoing.end(text);
    return;
  }
  outgoing.writeHead(response.status, headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  // Most answers are small JSON: one write is cheaper than pumping a stream. Event streams and
  // anything without a known end are pumped as they come.
  if (!eventStream) {
    // Read by hand rather than arrayBuffer(): a small answer is one chunk, written as it is
    // (arrayBuffer copies it into a buffer of its own; ~8 µs a call).
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    outgoing.end(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks));
    return;
  }
  // This package's own event streams are written straight to the socket: no reader waiting
  // between heartbeats, no promise per chunk, and the Response let go of.
  if (writeDirect(response.body, outgoing)) return;
  const reader = response.body.getReader();
  // A client that leaves mid-stream cancels the body, so its producer can clean up.
  outgoing.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      outgoing.write(value);
    }
  } finally {
    outgoing.end();
  }
}

/**
 * The Request for `incoming`, its body streamed from the socket as the handler reads it; or
 * 'too-large' when its Content-Length is above the allowance, before a byte of it is read.
 */
export function readRequest(
  incoming: IncomingMessage,
  signal: ClientSignal,
  url: string | undefined,
  allowance: BodyAllowance,
): Promise<Request | 'too-large'> {
  if (declaredTooLarge(incoming, allowance.maxBytes)) return Promise.resolve('too-large');
  const bodyless = incoming.method === 'GET' || incoming.method === 'HEAD';
  const body = bodyless ? undefined : new SocketBody(incoming, allowance);
  return Promise.resolve(toRequest(incoming, body, signal, url));
}

export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

export interface NodeListenerOptions {
  readonly isDropped?: ((response: Response) => boolean) | undefined;
  readonly url?: ((incoming: IncomingMessage) => string | undefined) | undefined;
  /** The most of a body read, in bytes; past it the answer is 413. Default MAX_REQUEST_BYTES. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Builds the Request; the default streams the body from the socket. Adapters use it to take
   * what a framework in front already read of the body.
   */
  readonly request?:
    | ((
        incoming: IncomingMessage,
        signal: ClientSignal,
        allowance: BodyAllowance,
      ) => Promise<Request | 'too-large'>)
    | undefined;
}

function bodyTooLarge(outgoing: ServerResponse, maxBytes: number): void {
  // connection: close: the rest of the body is not read, so this connection serves nothing more.
  outgoing.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
  outgoing.end(
    JSON.stringify({
      error: {
        code: 'body_too_large',
        message: `The request body must be at most ${Math.floor(maxBytes / 1024)} KB.`,
      },
    }),
  );
}

/**
 * A Node `request` listener around a web-standard handler. The Request's signal aborts when the
 * client goes away, so streams (Server-Sent Events) end and clean up.
 */
export function nodeListener(
  handler: (request: Request) => Promise<Response>,
  options: NodeListenerOptions = {},
): NodeListener {
  const maxBytes = options.maxBodyBytes ?? MAX_REQUEST_BYTES;
  if (!(Number.isInteger(maxBytes) && maxBytes > 0))
    throw new TypeError('maxBodyBytes must be a whole number of bytes above 0.');
  /**
   * The handler's answer, or undefined for a body too large. The Request is let go of once the
   * handler has answered: an event stream written for minutes keeps only what it uses.
   */
  async function respond(
    incoming: IncomingMessage,
    signal: ClientSignal,
    allowance: BodyAllowance,
  ): Promise<Response | undefined> {
    const request = options.request
      ? await options.request(incoming, signal, allowance)
      : await readRequest(incoming, signal, options.url?.(incoming), allowance);
    if (request === 'too-large') return undefined;
    // The per-address limits' default: the socket's address, kept beside the Request (issue 20).
    rememberClientAddress(request, incoming.socket.remoteAddress);
    return handler(request);
  }
  return async (incoming, outgoing) => {
    const exchange: Exchange = { maxBytes, exceeded: false, started: false, left: false };
    (outgoing as ExchangeResponse)[EXCHANGE] = exchange;
    outgoing.on('close', onOutgoingClose);
    const allowance: BodyAllowance = exchange;
    try {
      // The signal's getter given inline: a named one costs a name per request under tsx.
      const response = await respond(incoming, () => clientSignal(exchange), allowance);
      // Past the allowance, whatever the handler made of the cut body, the answer is 413.
      if (response === undefined || allowance.exceeded) {
        await response?.body?.cancel().catch(() => {});
        bodyTooLarge(outgoing, maxBytes);
        return;
      }
      if (options.isDropped?.(response)) {
        incoming.socket.destroy();
        return;
      }
      // Answered before the body was read whole: a body of known, allowed length is drained by
      // Node and the connection kept; one the handler stopped reading (its own 413) or of no
      // known length is not read further, and the connection closes once the answer is out.
      const unread =
        !incoming.complete &&
        !exchange.finished &&
        incoming.method !== 'GET' &&
        incoming.method !== 'HEAD';
      if (unread && (allowance.started || incoming.headers['content-length'] === undefined))
        outgoing.setHeader('connection', 'close');
      await writeResponse(response, outgoing);
    } catch (error) {
      if (!exchange.left) answerFailure(error, outgoing);
    }
  };
}

/**
 * One request's state in nodeListener: its body allowance, and its client's signal, made only
 * when the handler asks for it (an event stream does; most calls never do), `left` remembering a
 * client gone before that. Kept on the response under EXCHANGE, so that one listener shared by
 * every request (onOutgoingClose) serves them all.
 */
interface Exchange extends BodyAllowance {
  gone?: AbortController;
  left: boolean;
}
const EXCHANGE = Symbol('nodeListener exchange');
type ExchangeResponse = ServerResponse & { [EXCHANGE]?: Exchange };

function clientSignal(exchange: Exchange): AbortSignal {
  exchange.gone ??= new AbortController();
  if (exchange.left) exchange.gone.abort();
  return exchange.gone.signal;
}

/** Only a client that left before the answer was sent aborts: a normal end costs nothing. */
function onOutgoingClose(this: ExchangeResponse): void {
  const exchange = this[EXCHANGE];
  if (this.writableFinished || !exchange) return;
  exchange.left = true;
  exchange.gone?.abort();
}

/**
 * What a request that threw gets: a malformed Host or target is the client's fault (400, nothing
 * logged); anything else is ours (500, logged). Shared by every Node adapter.
 */
export function answerFailure(error: unknown, outgoing: ServerResponse): void {
  if (error instanceof MalformedRequestError && !outgoing.headersSent) {
    outgoing.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
    outgoing.end(JSON.stringify({ error: { code: 'invalid_request', message: error.message } }));
    return;
  }
  console.error('paydrop: request failed', error);
  if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
  outgoing.end();
}

export function serve(
  handler: (request: Request) => Promise<Response>,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const listener = nodeListener(handler, {
    isDropped: options.isDropped,
    maxBodyBytes: options.maxBodyBytes,
  });
  return listen(listener, { ...options, host: options.host ?? '127.0.0.1' });
}

/**
 * An http server with the timeouts set (serverOptions), listening on `port` (0: a free one) and
 * `host` (default: every interface, as Node's listen).
 */
export function listen(
  listener: NodeListener,
  options: ServerTimeouts & { readonly port?: number; readonly host?: string | undefined },
): Promise<RunningServer> {
  const server = createServer(serverOptions(options), (incoming, outgoing) => {
    void listener(incoming, outgoing);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        url: `http://${host}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
