import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeListener } from '../../node/serve';
import { requestFrom } from './framework-body';

type Handler = (request: Request) => Promise<Response>;

/**
 * For Node's `http` server, or any framework that hands over Node's request and response:
 * `http.createServer(toNodeListener(checkout))`. A body a framework already read is taken from
 * `req.rawBody` or `req.body` when it left one there.
 * @example http.createServer(toNodeListener(createCheckoutHandler({ ... }))).listen(3000)
 */
export function toNodeListener(
  handler: Handler,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const listener = nodeListener(handler, {
    request: (incoming, signal) => requestFrom(incoming, signal, incoming.url, 'a body parser'),
  });
  return (incoming, outgoing) => void listener(incoming, outgoing);
}
