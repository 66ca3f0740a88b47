/**
 * The reference for the companion's event streams (issue 25, item 4): a bare Server-Sent Events
 * server, node:http writing `data:` lines and nothing else, in a process of its own, run by
 * bench/streams.ts beside the companion. GET /events?reference=… opens a stream (a `retry:` line,
 * then a shared heartbeat every 5 s as the companion's); POST /push/<reference> does what the
 * companion's webhook does on the network (one status call to the sandbox at SANDBOX_URL) and
 * writes the outcome on that reference's stream. GET /__bench/memory answers resident memory and
 * heap after a full collection (run it with --expose-gc). Plain JavaScript, so no loader thread
 * counts in its memory.
 */
import { createServer } from 'node:http';
import v8 from 'node:v8';

const sandbox = process.env.SANDBOX_URL ?? '';
const secretKey = process.env.SANDBOX_SECRET_KEY ?? '';
/** reference → its open stream's response */
const streams = new Map();

setInterval(() => {
  for (const outgoing of streams.values()) outgoing.write(': keep-alive\n\n');
}, 5000).unref();

let snapshots = 0;
const server = createServer((incoming, outgoing) => {
  const url = new URL(incoming.url ?? '/', 'http://bare');
  if (url.pathname === '/events') {
    const reference = url.searchParams.get('reference') ?? '';
    outgoing.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    outgoing.write('retry: 2000\n\n');
    streams.set(reference, outgoing);
    outgoing.on('close', () => streams.delete(reference));
    return;
  }
  if (url.pathname.startsWith('/push/')) {
    const reference = url.pathname.slice('/push/'.length);
    incoming.resume();
    incoming.on('end', async () => {
      try {
        const answer = await fetch(`${sandbox}/api/payment/pay/status/${reference}`, {
          headers: { 'x-api': secretKey },
        });
        await answer.arrayBuffer();
        streams.get(reference)?.write(`event: status\ndata: {"status":"SUCCESSFUL"}\n\n`);
        outgoing.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch (error) {
        outgoing.writeHead(502).end(String(error));
      }
    });
    return;
  }
  if (url.pathname === '/__bench/memory') {
    const { user, system } = process.cpuUsage();
    globalThis.gc?.();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    // BENCH_HEAP_SNAPSHOT=<folder>: as the companion's, to compare what a stream keeps.
    const folder = process.env.BENCH_HEAP_SNAPSHOT;
    if (folder) v8.writeHeapSnapshot(`${folder}/bare-${process.pid}-${++snapshots}.heapsnapshot`);
    outgoing.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        rss,
        heapUsed,
        heapTotal,
        external,
        cpuMs: (user + system) / 1000,
        // As bench/streams-companion.ts: the young generation reserved, the memory given.
        young:
          v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')
            ?.space_size ?? 0,
        limit: process.constrainedMemory(),
      }),
    );
    return;
  }
  outgoing.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
