/**
 * Serves a (Request) => Response handler on Node's http server. The companion, the sandbox and
 * the demo share it; their handlers themselves stay web-standard. A response marked "dropped" cuts the connection with no answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rememberClientAddress } from '../server/client-address';
import { attachDirect } from '../server/direct-stream';

/** Bodies above this are refused before being read whole; the handler's own limit is lower. */
const MAX_REQUEST_BYTES = 1024 * 1024;

export interface ServeOptions {
  readonly port?: number;
  readonly host?: string;
  readonly isDropped?: (response: Response) => boolean;
}

export interface RunningServer {
  readonly server: Server;
  /** e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly close: () => Promise<void>;
}

/** The stream's bytes, refused past MAX_REQUEST_BYTES. */
export async function readBody(incoming: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A request that cannot be turned into a URL (a malformed Host): the client's fault, a 400. */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError' as const;
}

export function toRequest(
  incoming: IncomingMessage,
  body: Uint8Array | undefined,
  signal?: AbortSignal,
  url = incoming.url,
): Request {
  const host = incoming.headers.host ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  let target: URL;
  try {
    target = new URL(url ?? '/', `http://${host}`);
  } catch {
    throw new MalformedRequestError('The Host header or the request target is not valid.');
  }
  const request = new Request(target, {
    method,
    headers,
    ...(body && method !== 'GET' && method !== 'HEAD' ? { body: new Uint8Array(body) } : {}),
  });
  // The client's signal is the Request's own, not followed by a second one: Node's Request makes
  // a signal of its own per `signal` given, linked by a listener and a finalizer, ~1 KB a request
  // held for as long as an event stream is open (10,000 waiting browsers: 10 MB) and CPU on every
  // request. `request.signal` still aborts when the client goes away.
  if (signal) Object.defineProperty(request, 'signal', { value: signal, enumerable: true });
  return request;
}

export async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  outgoing.writeHead(response.status, headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  // Most answers are small JSON: one write is cheaper than pumping a stream. Event streams and
  // anything without a known end are pumped as they come.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    outgoing.end(new Uint8Array(await response.arrayBuffer()));
    return;
  }
  // This package's own event streams are written straight to the socket: no reader waiting
  // between heartbeats, no promise per chunk, and the Response let go of (direct-stream.ts).
  const detach = attachDirect(response.body, {
    write: (chunk) => void outgoing.write(chunk),
    end: () => void outgoing.end(),
  });
  if (detach) {
    if (outgoing.destroyed) detach();
    else outgoing.once('close', detach);
    return;
  }
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

/** The Request for `incoming`, its body read from the stream. */
export async function readRequest(
  incoming: IncomingMessage,
  signal: AbortSignal,
  url?: string,
): Promise<Request | 'too-large'> {
  const bodyless = incoming.method === 'GET' || incoming.method === 'HEAD';
  const body = bodyless ? undefined : await readBody(incoming);
  return body === 'too-large' ? body : toRequest(incoming, body, signal, url);
}

export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

/**
 * A Node `request` listener around a web-standard handler. The Request's signal aborts when the
 * client goes away, so streams (Server-Sent Events) end and clean up.
 */
export function nodeListener(
  handler: (request: Request) => Promise<Response>,
  options: {
    isDropped?: (response: Response) => boolean;
    url?: (incoming: IncomingMessage) => string | undefined;
    /**
     * Builds the Request; the default reads the stream. Adapters use it to take what a framework
     * in front already read of the body.
     */
    request?: (incoming: IncomingMessage, signal: AbortSignal) => Promise<Request | 'too-large'>;
  } = {},
): NodeListener {
  /**
   * The handler's answer, or undefined for a body too large. The Request is let go of once the
   * handler has answered: an event stream written for minutes keeps only what it uses.
   */
  async function respond(
    incoming: IncomingMessage,
    signal: AbortSignal,
  ): Promise<Response | undefined> {
    const request = options.request
      ? await options.request(incoming, signal)
      : await readRequest(incoming, signal, options.url?.(incoming));
    if (request === 'too-large') return undefined;
    // The per-address limits' default: the socket's address, kept beside the Request (issue 20).
    rememberClientAddress(request, incoming.socket.remoteAddress);
    return handler(request);
  }
  return async (incoming, outgoing) => {
    const gone = new AbortController();
    // Only a client that left before the answer was sent aborts: a normal end costs nothing.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) gone.abort();
    });
    try {
      const response = await respond(incoming, gone.signal);
      if (response === undefined) {
        outgoing.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        outgoing.end(
          JSON.stringify({
            error: { code: 'body_too_large', message: 'The request body is too large.' },
          }),
        );
        return;
      }
      if (options.isDropped?.(response)) {
        incoming.socket.destroy();
        return;
      }
      await writeResponse(response, outgoing);
    } catch (error) {
      if (!gone.signal.aborted) answerFailure(error, outgoing);
    }
  };
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
  const listener = nodeListener(handler, options.isDropped ? { isDropped: options.isDropped } : {});
  const server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
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
