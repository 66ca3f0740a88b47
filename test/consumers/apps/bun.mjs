// Bun.serve with its defaults (among them a 10 s idle timeout), the handler as its fetch.
import { announce, checkout, outcomesResponse } from './merchant.mjs';

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request) =>
    new URL(request.url).pathname === '/outcomes' ? outcomesResponse() : checkout(request),
});
announce(server.port);
