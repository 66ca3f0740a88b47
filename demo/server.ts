/**
 * `npm start`: the demo on PORT (default 3000). Until the companion and the widget exist it
 * serves a placeholder page at `/` and an embedded sandbox at `/sandbox` (its `{base_url}`).
 */
import { readFile } from 'node:fs/promises';
import { createSandboxHandler, isDroppedResponse } from '../src/sandbox';
import { serve } from '../src/sandbox/node-http';
import { SANDBOX_TEST_KEY } from '../src/sandbox/test-data';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number from 0 to 65535, not "${process.env.PORT}".`);
  process.exit(1);
}
const secretKey = process.env.PROVIDER_SECRET_KEY || SANDBOX_TEST_KEY;
const sandbox = createSandboxHandler({ secretKey, basePath: '/sandbox' });
const page = await readFile(new URL('./index.html', import.meta.url), 'utf8');

const running = await serve(
  async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/sandbox' || pathname.startsWith('/sandbox/')) return sandbox(request);
    if (pathname === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      return new Response(page, {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'self'; style-src 'self'; script-src 'self'",
        },
      });
    }
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  },
  { port, host: process.env.HOST ?? '127.0.0.1', isDropped: isDroppedResponse },
);
console.log(`paydrop demo ready at ${running.url}/ (sandbox at ${running.url}/sandbox)`);
const stop = () => {
  sandbox.close();
  void running.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
