// The packed package mounted as docs/server.md shows it on Node's own http server (timeouts set), for
// the limits test: cards typed in the card frame (the direct path), so card testing is tried
// through the companion itself.
import http from 'node:http';
import { createCheckoutHandler } from 'paydrop/server';
import { toNodeListener } from 'paydrop/server/node';
import { announce } from './merchant.mjs';

const ORDERS = {
  'order-ngn': { amountMinor: 2_500_050, currency: 'NGN', description: 'Adire tote bag' },
};

const checkout = createCheckoutHandler({
  secretKey: process.env.PROVIDER_SECRET_KEY ?? '',
  baseUrl: process.env.PROVIDER_BASE_URL ?? '',
  resolveOrder: (id) => ORDERS[id.split(':')[0] ?? ''] ?? null,
  cardEntry: 'direct',
  logger: { warn: () => {}, error: () => {} },
});

const server = http.createServer(
  {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000,
  },
  toNodeListener(checkout),
);
server.listen(0, '127.0.0.1', () => announce(server.address().port));
