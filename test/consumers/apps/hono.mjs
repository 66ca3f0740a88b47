// Hono on @hono/node-server, the handler given Hono's Request as it is.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { announce, checkout, outcomesResponse } from './merchant.mjs';

const app = new Hono();
app.all('/api/checkout/*', (c) => checkout(c.req.raw));
app.get('/outcomes', () => outcomesResponse());
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => announce(info.port));
