// paydrop/server/node: the companion handler on Node's http, Express/Connect and Fastify.
// paydrop/server stays web-standard (no node: import in its graph); these adapters only
// translate Node's request and response to and from the handler's Request and Response.

export { toExpressMiddleware } from './express';
export { type FastifyInstanceLike, toFastifyPlugin } from './fastify';
export { type NodeAdapterOptions, toNodeListener } from './node-listener';
export { type RunningServer, type ServeOptions, type ServerTimeouts, serve } from './serve';
