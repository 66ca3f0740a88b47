// Fastify with its default JSON parser for the merchant's own routes, the companion registered
// as a plugin under a prefix.
import Fastify from 'fastify';
import { toFastifyPlugin } from 'paydrop/server/node';
import { announce, checkout, outcomes } from './merchant.mjs';

const app = Fastify();
app.get('/outcomes', async () => outcomes);
await app.register(toFastifyPlugin(checkout), { prefix: '/api/checkout' });
await app.listen({ port: 0, host: '127.0.0.1' });
announce(app.server.address().port);
