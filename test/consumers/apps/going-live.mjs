// The packed package mounted as the README shows, with nothing but the provider, the orders and a
// store (no publicUrl, no allowedOrigins, the default console logger), three ways production
// reaches it (issue 21), chosen by MODE:
// - http: Node's own http server, for the test's TLS-terminating proxy in front of it;
// - https: Node's own https.createServer, with the test's throw-away certificate (TLS_KEY, TLS_CERT);
// - route: a Web-standard route handler (a Next.js app/api/checkout/[...path]/route.js) fed the
//   Request Next.js builds, whose url says http://localhost:3000 whatever the Host.
// Each serves a bare shop page at / for the browser to call the checkout from.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createCheckoutHandler, createMemoryStore } from 'paydrop/server';
import { toNodeListener } from 'paydrop/server/node';
import { announce } from './merchant.mjs';

const checkout = createCheckoutHandler({
  secretKey: process.env.PROVIDER_SECRET_KEY ?? '',
  baseUrl: process.env.PROVIDER_BASE_URL ?? '',
  resolveOrder: (id) =>
    id.startsWith('order_')
      ? { amountMinor: 2_500_050, currency: 'NGN', description: `Order ${id}` }
      : null,
  store: createMemoryStore(),
});

const SHOP_PAGE = '<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>';

function shop(request) {
  if (new URL(request.url).pathname === '/')
    return new Response(SHOP_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  return checkout(request);
}

// app/api/checkout/[...path]/route.js
const route = { GET: (request) => checkout(request), POST: (request) => checkout(request) };

/** What Next.js hands a route handler: the same method, headers and body; a localhost URL. */
async function nextLike(request) {
  const { pathname, search } = new URL(request.url);
  const inner = new Request(`http://localhost:3000${pathname}${search}`, {
    method: request.method,
    headers: request.headers,
    ...(request.method === 'GET' || request.method === 'HEAD'
      ? {}
      : { body: await request.arrayBuffer() }),
  });
  if (pathname === '/') return shop(inner);
  const method = route[request.method];
  return method ? method(inner) : new Response(null, { status: 405 });
}

const mode = process.env.MODE ?? 'http';
const server =
  mode === 'https'
    ? https.createServer(
        {
          key: readFileSync(process.env.TLS_KEY ?? ''),
          cert: readFileSync(process.env.TLS_CERT ?? ''),
        },
        toNodeListener(shop),
      )
    : http.createServer(toNodeListener(mode === 'route' ? nextLike : shop));
server.listen(0, '127.0.0.1', () => announce(server.address().port));
