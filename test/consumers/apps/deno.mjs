// Deno.serve with its defaults, the handler as its handler.
import { announce, checkout, outcomesResponse } from './merchant.mjs';

Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => announce(port) }, (request) =>
  new URL(request.url).pathname === '/outcomes' ? outcomesResponse() : checkout(request),
);
