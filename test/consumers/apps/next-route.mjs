// A Next.js-style route handler (app/api/checkout/[...path]/route.js exports one function per
// method), served the way Next does: each request to the route goes to the export of its method.
import { createServer } from 'node:http';
import { toNodeListener } from 'paydrop/server/node';
import { announce, outcomesResponse } from './merchant.mjs';
import { GET, POST } from './route.mjs';

async function next(request) {
  const { pathname } = new URL(request.url);
  if (pathname === '/outcomes') return outcomesResponse();
  if (!pathname.startsWith('/api/checkout/')) return new Response('Not found', { status: 404 });
  const method = { GET, POST }[request.method];
  return method
    ? method(request, { params: Promise.resolve({}) })
    : new Response(null, { status: 405 });
}

const server = createServer(toNodeListener(next));
server.listen(0, '127.0.0.1', () => announce(server.address().port));
