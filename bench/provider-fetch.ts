/**
 * What one provider call costs the companion's process (issue 25, item 3): the global fetch
 * against providerFetch (src/provider/provider-fetch.ts: fetch's own dispatcher asked without
 * fetch's streams), the same POST of an initiation's size to a node:http server in a process of
 * its own that answers a status-sized JSON. CPU time of this process per call (user + system, so
 * undici's and the garbage collector's threads count), CONCURRENCY calls in flight; the median
 * of ROUNDS interleaved rounds of BENCH_CALLS calls each, after a warm-up of both.
 */
import { providerFetch } from '../src/provider/provider-fetch';
import { startServer } from './servers';

const ROUNDS = 5;
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const CONCURRENCY = 8;

const SERVER = `
const body = JSON.stringify({ isSuccess: true, data: { reference: 'PAY_6N3E3V6U563I1002', status: 'PENDING',
  amount: 2500.5, currency: 'NGN', virtualAccount: { bank: 'Paydrop Sandbox Bank', accountNumber: '9770410730',
  accountName: 'Paydrop Sandbox / Checkout', expiresAt: '2026-11-26T13:30:00Z' }, note: ${JSON.stringify('x'.repeat(400))} } });
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
`;

const payload = JSON.stringify({
  amount: 2500.5,
  channel: 'PayByTransfer',
  currency: 'NGN',
  customer: { email: 'ada@example.com', name: 'Ada Obi' },
  reference: 'order-12345',
});

/** As the transport calls: the key, JSON both ways, a deadline by AbortController. */
async function providerCall(send: typeof fetch, url: string): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const response = await send(url, {
      method: 'POST',
      headers: {
        'X-Api': 'sk_test_bench_0123456789abcdef',
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: payload,
      signal: controller.signal,
      // The transport follows redirects itself; providerFetch takes only such calls.
      redirect: 'manual',
    });
    response.headers.get('date');
    JSON.parse(await response.text());
  } finally {
    clearTimeout(timer);
  }
}

/** CPU µs of this process per call, for `count` calls CONCURRENCY at a time. */
async function cpuPerCall(send: typeof fetch, url: string, count: number): Promise<number> {
  let left = count;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await providerCall(send, url);
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const server = await startServer(['-e', SERVER]);
try {
  const url = `${server.url}/api/payment/pay/initiate`;
  const senders: Array<[string, typeof fetch]> = [
    ['fetch', fetch],
    ['providerFetch', providerFetch],
  ];
  for (const [, send] of senders) await cpuPerCall(send, url, 2000);
  const figures = new Map<string, number[]>(senders.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, send] of round % 2 ? [...senders].reverse() : senders)
      figures.get(name)?.push(await cpuPerCall(send, url, CALLS));
  const reference = median(figures.get('fetch') ?? []);
  console.log(
    `provider call (POST, JSON both ways, ${CONCURRENCY} in flight): CPU of the calling process per call, median of ${ROUNDS} interleaved rounds of ${CALLS}`,
  );
  for (const [name] of senders) {
    const cost = median(figures.get(name) ?? []);
    console.log(
      `  ${name.padEnd(14)} ${cost.toFixed(1).padStart(7)} µs  (${(cost / reference).toFixed(2)}× fetch)`,
    );
  }
} finally {
  server.child.kill('SIGTERM');
}
