/**
 * The Request for a Node request whose body a framework in front may already have read: the raw
 * bytes it kept (`req.rawBody`, or `req.body` as a Buffer or string), else the JSON it parsed
 * written out again, else the stream if nobody read it (issue 13).
 */
import type { IncomingMessage } from 'node:http';
import { type BodyAllowance, type ClientSignal, readRequest, toRequest } from '../../node/serve';
import { noteBody } from '../http';

/** What Express, Connect and body-parser leave on the request. */
export interface ParsedIncomingMessage extends IncomingMessage {
  body?: unknown;
  rawBody?: unknown;
  /** body-parser sets it once it read the stream. */
  _body?: boolean;
}

function bytesOf(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return new TextEncoder().encode(value);
  return undefined;
}

/**
 * @param readBy who would have read the body, for the message when its bytes are gone,
 *   e.g. 'express.json()'.
 */
export function requestFrom(
  incoming: ParsedIncomingMessage,
  signal: ClientSignal,
  url: string | undefined,
  readBy: string,
  allowance: BodyAllowance,
): Promise<Request | 'too-large'> {
  const raw = bytesOf(incoming.rawBody);
  if (raw) return Promise.resolve(toRequest(incoming, raw, signal, url));
  const streamRead = incoming.readableDidRead || incoming.readableEnded || incoming._body === true;
  const bodyless = incoming.method === 'GET' || incoming.method === 'HEAD';
  if (!streamRead || bodyless) return readRequest(incoming, signal, url, allowance);
  const body = incoming.body;
  const bytes = bytesOf(body);
  if (bytes) return Promise.resolve(toRequest(incoming, bytes, signal, url));
  if (body !== null && typeof body === 'object') {
    // Enough for the browser's calls; a webhook's signature is checked on these bytes and, if
    // they differ from the provider's, the handler says why (assertExactBody).
    const json = new TextEncoder().encode(JSON.stringify(body));
    return Promise.resolve(
      noteBody(toRequest(incoming, json, signal, url), { left: 'json', readBy }),
    );
  }
  return Promise.resolve(
    noteBody(toRequest(incoming, undefined, signal, url), { left: 'nothing', readBy }),
  );
}
