/**
 * Thin adapters that only translate I/O: Node's `http` and Express/Connect. The handler itself
 * is web-standard and runs as it is on Deno, Bun, edge runtimes, Hono or a Next.js route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeListener } from '../node/serve';

type Handler = (request: Request) => Promise<Response>;

/**
 * For `http.createServer(toNodeListener(checkout))`.
 * @example http.createServer(toNodeListener(createCheckoutHandler({ ... }))).listen(3000)
 */
export function toNodeListener(
  handler: Handler,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const listener = nodeListener(handler);
  return (incoming, outgoing) => void listener(incoming, outgoing);
}

interface ExpressRequest extends IncomingMessage {
  originalUrl?: string;
}

/**
 * For Express or Connect: `app.use('/api/checkout', toExpressMiddleware(checkout))`. Mount it
 * before any body parser: webhook signatures are checked on the raw body.
 * @example app.use('/api/checkout', toExpressMiddleware(checkout));
 */
export function toExpressMiddleware(
  handler: Handler,
): (request: ExpressRequest, response: ServerResponse, next: (error?: unknown) => void) => void {
  // Express strips the mount path from req.url; originalUrl keeps the path the handler routes on.
  const listener = nodeListener(handler, {
    url: (incoming) => (incoming as ExpressRequest).originalUrl ?? incoming.url,
  });
  return (request, response, next) => {
    listener(request, response).catch(next);
  };
}
