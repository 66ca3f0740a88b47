/**
 * `npm start`: the demo on PORT (default 3000): the shop page at `/`, the companion at
 * `/api/checkout`, and an embedded sandbox at `/sandbox` (its `{base_url}`), all with the key in
 * PROVIDER_SECRET_KEY. With PROVIDER_BASE_URL set, the companion talks to that provider instead.
 */
import { readFile } from 'node:fs/promises';
import { serve } from '../src/node/serve';
import { createSandboxHandler, isDroppedResponse } from '../src/sandbox';
import { SANDBOX_TEST_KEY } from '../src/sandbox/test-data';
import { createCheckoutHandler } from '../src/server';
import { resolveDemoOrder } from './catalogue';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number from 0 to 65535, not "${process.env.PORT}".`);
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const secretKey = process.env.PROVIDER_SECRET_KEY || SANDBOX_TEST_KEY;
const externalProvider = process.env.PROVIDER_BASE_URL;
const sandbox = externalProvider
  ? undefined
  : createSandboxHandler({ secretKey, basePath: '/sandbox' });
const page = await readFile(new URL('./index.html', import.meta.url), 'utf8');

let checkout: ReturnType<typeof createCheckoutHandler> | undefined;

const running = await serve(
  async (request) => {
    const { pathname } = new URL(request.url);
    if (sandbox && (pathname === '/sandbox' || pathname.startsWith('/sandbox/')))
      return sandbox(request);
    if (checkout && (pathname === '/api/checkout' || pathname.startsWith('/api/checkout/')))
      return checkout(request);
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
  { port, host, isDropped: isDroppedResponse },
);

const baseUrl = externalProvider ?? `${running.url}/sandbox`;
checkout = createCheckoutHandler({
  secretKey,
  baseUrl,
  publicUrl: `${running.url}/api/checkout`,
  resolveOrder: resolveDemoOrder,
  onPaymentOutcome: (outcome) =>
    console.log(`payment ${outcome.reference}: ${outcome.status} (order ${outcome.orderId})`),
});
if (sandbox) sandbox.world().config.webhookUrl = `${running.url}/api/checkout/webhooks`;

console.log(`paydrop demo ready at ${running.url}/`);
console.log(
  `  companion: ${running.url}/api/checkout   provider: ${externalProvider ?? `${baseUrl} (sandbox)`}`,
);
const stop = () => {
  checkout?.close();
  sandbox?.close();
  void running.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
