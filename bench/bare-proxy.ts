/**
 * The reference the companion is measured against (issue 25, item 4): a bare forwarding proxy,
 * node:http and fetch and nothing else, in a process of its own, making the provider calls the
 * companion makes for the same browser calls. Once the provider's validation is cached (after
 * the first checkout), `/session` makes none, so here it answers at once; `/initiate` forwards
 * one initiation to the sandbox at SANDBOX_URL and hands back its answer. No token, no store, no
 * checks: what is left between it and the companion is what the companion does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const sandbox = process.env.SANDBOX_URL ?? '';
const secretKey = process.env.SANDBOX_SECRET_KEY ?? '';
const initiateUrl = `${sandbox}/api/payment/pay/initiate`;
const session = JSON.stringify({ token: 'bare', channels: ['PayByTransfer', 'Card'] });

const server = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', async () => {
    if (incoming.url?.endsWith('/session')) {
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end(session);
      return;
    }
    try {
      const { channel } = JSON.parse(Buffer.concat(chunks).toString()) as { channel: string };
      const answer = await fetch(initiateUrl, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-api': secretKey,
        },
        body: JSON.stringify({ amount: 2500.5, channel, currency: 'NGN' }),
      });
      const body = await answer.text();
      outgoing.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
    } catch (error) {
      outgoing.writeHead(502).end(String(error));
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
