import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeListener } from '../../node/serve';
import { LARGEST_BODY_BYTES } from '../http';
import { requestFrom } from './framework-body';

type Handler = (request: Request) => Promise<Response>;

/** Options of the Node adapters (toNodeListener, toExpressMiddleware, serve). */
export interface NodeAdapterOptions {
  /**
   * The most of a request body read, in bytes: a larger Content-Length is answered 413 before a
   * byte is read, and a body without one is read no further. Default 65 536, the largest body
   * the checkout and back-office handlers take (a provider webhook); each route reads only its
   * own limit of it (the browser's calls 8 KB).
   */
  readonly maxBodyBytes?: number | undefined;
}

/**
 * For Node's `http` server, or any framework that hands over Node's request and response:
 * `http.createServer(toNodeListener(checkout))`. A body a framework already read is taken from
 * `req.rawBody` or `req.body` when it left one there. Set the server's timeouts too (docs/server.md,
 * "Timeouts"), or use `serve()`, which does.
 * @example http.createServer(toNodeListener(createCheckoutHandler({ ... }))).listen(3000)
 */
export function toNodeListener(
  handler: Handler,
  options: NodeAdapterOptions = {},
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const listener = nodeListener(handler, {
    maxBodyBytes: options.maxBodyBytes ?? LARGEST_BODY_BYTES,
    request: (incoming, signal, allowance) =>
      requestFrom(incoming, signal, incoming.url, 'a body parser', allowance),
  });
  return (incoming, outgoing) => void listener(incoming, outgoing);
}
