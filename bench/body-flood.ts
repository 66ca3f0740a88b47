/**
 * 100 concurrent requests with a 1 MB body against the companion behind toNodeListener, as the
 * docs/server.md mounts it (issue 20, item 4): the server's resident memory before and after. The server
 * runs in a child process, so the client's own buffers are not counted.
 *
 *   npx tsx bench/body-flood.ts            # bodies with a Content-Length
 *   npx tsx bench/body-flood.ts chunked    # bodies without one (Transfer-Encoding: chunked)
 *
 * PAYDROP_SRC points the server at another checkout's src/ (to compare with an older version).
 */
import { fork } from 'node:child_process';
import { request as httpRequest } from 'node:http';

const REQUESTS = 100;
const BODY_BYTES = 1024 * 1024;

if (process.argv[2] === '--server') {
  const src = process.env.PAYDROP_SRC ?? new URL('../src/', import.meta.url).pathname;
  const { createCheckoutHandler } = await import(`${src}server/index.ts`);
  const { toNodeListener } = await import(`${src}server/node/index.ts`);
  const { createServer } = await import('node:http');
  const checkout = createCheckoutHandler({
    secretKey: 'sk_test_body_flood_0000000000000000',
    baseUrl: 'http://127.0.0.1:9/provider',
    resolveOrder: () => null,
    logger: { warn: () => {}, error: () => {} },
  });
  const listener = toNodeListener(checkout);
  const server = createServer((incoming, outgoing) => {
    if (incoming.url === '/__rss') {
      globalThis.gc?.();
      outgoing.end(String(process.memoryUsage().rss));
      return;
    }
    listener(incoming, outgoing);
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.((server.address() as { port: number }).port);
  });
} else {
  const chunked = process.argv[2] === 'chunked';
  const child = fork(new URL(import.meta.url).pathname, ['--server'], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: process.env,
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m) => resolve(Number(m))),
  );
  const rss = async () => Number(await (await fetch(`http://127.0.0.1:${port}/__rss`)).text());
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  // Warm up: one ordinary call, so start-up allocations are not counted as the flood's.
  await fetch(`http://127.0.0.1:${port}/api/checkout/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"order":"x"}',
  });
  const before = await rss();
  const body = Buffer.alloc(BODY_BYTES, 'a');
  const statuses = new Map<number | string, number>();
  let peak = before;
  const sampling = setInterval(() => {
    rss().then(
      (value) => {
        peak = Math.max(peak, value);
      },
      () => {},
    );
  }, 20);
  await Promise.all(
    Array.from(
      { length: REQUESTS },
      () =>
        new Promise<void>((resolve) => {
          const outgoing = httpRequest({
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/checkout/session',
            headers: {
              'content-type': 'application/json',
              ...(chunked ? {} : { 'content-length': String(BODY_BYTES) }),
            },
          });
          const note = (key: number | string) => {
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
            resolve();
          };
          outgoing.on('response', (answer) => {
            answer.resume();
            answer.on('end', () => note(answer.statusCode ?? 0));
          });
          // The server hangs up on a body it refused: the client's write may fail.
          outgoing.on('error', (error) => note((error as NodeJS.ErrnoException).code ?? 'error'));
          outgoing.end(body);
        }),
    ),
  );
  clearInterval(sampling);
  const after = await rss();
  console.log(
    JSON.stringify({
      bodies: chunked ? 'chunked' : 'content-length',
      requests: REQUESTS,
      bodyBytes: BODY_BYTES,
      rssBefore: mb(before),
      rssPeak: mb(peak),
      rssAfter: mb(after),
      answers: Object.fromEntries(statuses),
    }),
  );
  child.kill();
}
