/**
 * Express (4 and 5) and Connect. The handler itself is web-standard and runs as it is on Deno,
 * Bun, edge runtimes, Hono or a Next.js route; this only translates I/O.
 */
import type { ServerResponse } from 'node:http';
import { nodeListener } from '../../node/serve';
import { LARGEST_BODY_BYTES } from '../http';
import { type ParsedIncomingMessage, requestFrom } from './framework-body';
import type { NodeAdapterOptions } from './node-listener';

type Handler = (request: Request) => Promise<Response>;

interface ExpressRequest extends ParsedIncomingMessage {
  originalUrl?: string;
}

/**
 * For Express or Connect: `app.use('/api/checkout', toExpressMiddleware(checkout))`. Best
 * mounted before any body parser; behind `express.json()` the browser's calls still work, and
 * signed webhooks do when the parser keeps the raw bytes
 * (`express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`).
 * @example app.use('/api/checkout', toExpressMiddleware(checkout));
 */
export function toExpressMiddleware(
  handler: Handler,
  options: NodeAdapterOptions = {},
): (request: ExpressRequest, response: ServerResponse, next: (error?: unknown) => void) => void {
  // Express strips the mount path from req.url; originalUrl keeps the path the handler routes on.
  const listener = nodeListener(handler, {
    maxBodyBytes: options.maxBodyBytes ?? LARGEST_BODY_BYTES,
    request: (incoming, signal, allowance) => {
      const request = incoming as ExpressRequest;
      const url = request.originalUrl ?? request.url;
      return requestFrom(request, signal, url, 'express.json()', allowance);
    },
  });
  return (request, response, next) => {
    listener(request, response).catch(next);
  };
}
