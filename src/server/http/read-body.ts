/**
 * How the companion reads a request's body: the one place that knows how bodies arrive
 * (streamed, or already consumed by a framework in front of the handler).
 *
 * A framework's body parser (express.json(), Fastify's, a Hono middleware) reads the stream
 * before the handler. The Node adapters then hand over what the parser left (the raw bytes, or
 * the parsed JSON written out again) and attach a {@link BodyNote} saying which; a Request whose
 * stream was read with nothing handed over arrives used or locked. Browser calls work on
 * re-serialized JSON; a webhook signature needs the provider's exact bytes (issue 13).
 */
import { readCappedText } from '../../node/hand-off';
import { CheckoutError } from './errors';

/** One decoder for every body: making one per call was a visible part of a call's CPU. */
const UTF8 = new TextDecoder();

/**
 * The largest body the companion's handlers take (a provider webhook; the browser's calls take
 * 8 KB, the back office's 16 KB): what its Node adapters let a handler read at most.
 */
export const LARGEST_BODY_BYTES = 64 * 1024;

/**
 * The Node adapter's body stream failed past its allowance (RequestBodyTooLargeError of
 * src/node/hand-off.ts). Told by name, not class: each bundle may carry a copy of that class.
 */
function isBodyTooLarge(error: unknown): boolean {
  return error instanceof Error && error.name === 'RequestBodyTooLargeError';
}

/** Attached to a Request by an adapter that built its body from what a framework left. */
export const BODY_NOTE = Symbol.for('paydrop.body-note');

export interface BodyNote {
  /** What the framework left: parsed JSON (written out again for the handler), or nothing. */
  readonly left: 'json' | 'nothing';
  /** Who read the body before the handler, e.g. 'express.json()'; for the error's message. */
  readonly readBy: string;
}

type NotedRequest = Request & { [BODY_NOTE]?: BodyNote };

/** Marks `request` as built from a body a framework had already read. */
export function noteBody(request: Request, note: BodyNote): Request {
  (request as NotedRequest)[BODY_NOTE] = note;
  return request;
}

function noteOf(request: Request): BodyNote | undefined {
  return (request as NotedRequest)[BODY_NOTE];
}

interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * The loggers already told that bodies arrive read: each handler's logger hears it once, at the
 * first such request, not at every one (a weak set, so a closed handler leaves nothing behind).
 */
const told = new WeakSet<Logger>();

const FIX =
  'Mount the checkout before any body parser (app.use(express.json()) after it), or keep the raw bytes: ' +
  'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }). ' +
  'With Fastify use toFastifyPlugin from paydrop/server/node; with Hono pass c.req.raw before any middleware reads it.';

function bodyGone(cause: string, logger: Logger | undefined): CheckoutError {
  const message = `${cause} ${FIX}`;
  if (logger && !told.has(logger)) {
    told.add(logger);
    logger.warn(`paydrop: ${message}`);
  }
  return new CheckoutError('body_already_read', message);
}

/** A body a middleware in front read as a stream (not one an adapter handed over: see noteBody). */
function readBefore(logger: Logger | undefined): CheckoutError {
  return bodyGone(
    'The request body was already read before the checkout handler (by a body parser or middleware), so it is gone.',
    logger,
  );
}

export interface ReadOptions {
  /** Told once, at the first request whose body a framework consumed. */
  readonly logger?: Logger;
}

/**
 * Reads at most `limit` bytes; undefined when the body is larger. Throws `body_already_read`
 * (naming cause and fix) when something in front of the handler consumed the stream and left
 * nothing.
 */
export async function readCapped(
  request: Request,
  limit: number,
  options: ReadOptions = {},
): Promise<string | undefined> {
  // Refused on what the client declares, before a byte of the body is read.
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return undefined;
  const note = noteOf(request);
  if (note?.left === 'nothing') {
    throw bodyGone(
      `The request body was read before the checkout handler (by ${note.readBy} or another body parser) and nothing of it was left.`,
      options.logger,
    );
  }
  if (request.bodyUsed) throw readBefore(options.logger);
  // From this package's Node adapter: read straight from the socket, no web stream made.
  const direct = readCappedText(request, limit);
  if (direct) {
    try {
      return await direct;
    } catch (error) {
      // The adapter's allowance ran out before this handler's limit did.
      if (isBodyTooLarge(error)) return undefined;
      throw error;
    }
  }
  if (request.body?.locked) throw readBefore(options.logger);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      // The adapter's allowance ran out before this handler's limit did (one large chunk).
      if (isBodyTooLarge(error)) return undefined;
      throw error;
    }
    const { done, value } = read;
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return UTF8.decode(bytes);
}

/**
 * A JSON body of the browser's calls (the checkout's, the back office's): sent as
 * `application/json`, at most `maxBytes`, parsed. Each refusal is the CheckoutError both handlers
 * answer with (415, 413, 400), the same words from either.
 */
export async function readJson(
  request: Request,
  maxBytes: number,
  options: ReadOptions = {},
): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
    throw new CheckoutError(
      'unsupported_media_type',
      'Send JSON with Content-Type: application/json.',
    );
  }
  const text = await readCapped(request, maxBytes, options);
  if (text === undefined)
    throw new CheckoutError('body_too_large', `The body must be at most ${maxBytes / 1024} KB.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new CheckoutError('invalid_json', 'The body is not valid JSON.');
  }
}

/**
 * Called when a webhook's signature did not match: if the body was parsed JSON written out
 * again, the provider's exact bytes are gone and that, not the provider, is why. Throws
 * `body_already_read` then (a 500, so the provider retries once the merchant fixed the mount);
 * returns for a body that was exact, whose signature really is bad.
 */
export function assertExactBody(request: Request, logger?: Logger): void {
  const note = noteOf(request);
  if (note?.left !== 'json') return;
  throw bodyGone(
    `Webhook signatures are checked on the exact bytes the provider sent, but ${note.readBy} parsed the body before the checkout handler and those bytes are gone.`,
    logger,
  );
}
