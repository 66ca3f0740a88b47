/**
 * One companion for bench/streams.ts, in a process of its own: the checkout handler on Node's
 * http server with the store named by BENCH_STREAMS_STORE_SPEC (memory, sqlite:<file>,
 * redis:<url>), against the sandbox at SANDBOX_URL, plus /__bench/memory, which answers its
 * resident memory, heap and CPU time after a full collection (run with --expose-gc).
 *
 * The bench runs it bundled as plain JavaScript (as a merchant runs the built package), not
 * through tsx: tsx's loader runs in a thread with a V8 of its own, ~35 MB resident that is the
 * bench's, not the companion's. BENCH_STREAMS_TSX=1 runs it through tsx all the same.
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { serve } from '../src/node/serve';
import { createCheckoutHandler, createMemoryStore } from '../src/server';

const spec = process.env.BENCH_STREAMS_STORE_SPEC ?? 'memory';
const store = spec.startsWith('sqlite:')
  ? (await import('../src/server/store/sqlite')).createSqliteStore({
      path: spec.slice('sqlite:'.length),
    })
  : spec.startsWith('redis:')
    ? (await import('../src/server/store/redis')).createRedisStore({
        url: spec.slice('redis:'.length),
      })
    : createMemoryStore();
const checkout = createCheckoutHandler({
  secretKey: process.env.SANDBOX_SECRET_KEY ?? '',
  baseUrl: process.env.SANDBOX_URL ?? '',
  resolveOrder: () => ({ amountMinor: 250_050, currency: 'NGN', description: 'bench' }),
  logger: { warn: () => {}, error: console.error },
  store,
  // One bench client plays every customer: no per-address limit (10,000 streams need more
  // payments than the highest allows from one address in an hour). The others hold.
  clientAddress: () => null,
});
// The bench asks for memory after a full collection (the companion runs with --expose-gc),
// so one reading is not a garbage collector's mood.
let snapshots = 0;
const memory = () => {
  // CPU time so far, the forced collection not counted.
  const { user, system } = process.cpuUsage();
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  // BENCH_HEAP_SNAPSHOT=<folder>: each reading also writes a heap snapshot there, to find out
  // what a stream or a payment keeps.
  if (process.env.BENCH_VERBOSE) {
    // Resident memory by kind of mapping: the brk heap, large anonymous areas (malloc arenas
    // and V8's pages), files (code).
    const kinds = new Map<string, number>();
    let kind = '';
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head)
        kind = head[1] === '' ? 'anonymous' : head[1]?.startsWith('/') ? 'files' : (head[1] ?? '');
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) kinds.set(kind, (kinds.get(kind) ?? 0) + Number(rss[1]));
    }
    console.error(
      `  companion ${process.pid} heap spaces (used/committed MB): ${v8
        .getHeapSpaceStatistics()
        .map(
          (space) =>
            `${space.space_name} ${(space.space_used_size / 2 ** 20).toFixed(0)}/${(space.space_size / 2 ** 20).toFixed(0)}`,
        )
        .join(', ')}`,
    );
    console.error(
      `  companion ${process.pid} resident by mapping: ${[...kinds].map(([name, kb]) => `${name} ${(kb / 1024).toFixed(0)} MB`).join(', ')}`,
    );
  }
  const folder = process.env.BENCH_HEAP_SNAPSHOT;
  if (folder)
    v8.writeHeapSnapshot(`${folder}/companion-${process.pid}-${++snapshots}.heapsnapshot`);
  return Response.json({
    rss,
    heapUsed,
    heapTotal,
    external,
    cpuMs: (user + system) / 1000,
    ...youngAndLimit(),
  });
};
/**
 * V8's young generation as reserved now, and the memory Node was given (a container's limit;
 * with none, 0 or cgroup v1's "unlimited", a huge number): Node 24 sizes the first from the second
 * (see bench/memory-limit.ts).
 */
function youngAndLimit() {
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return { young: young?.space_size ?? 0, limit: process.constrainedMemory() };
}
const running = await serve(
  (request) => (new URL(request.url).pathname === '/__bench/memory' ? memory() : checkout(request)),
  { host: '127.0.0.1' },
);
console.log(`listening on ${running.url}`);
process.on('SIGTERM', () => {
  checkout.close();
  // Open streams would hold close() up: the process ends regardless.
  setTimeout(() => process.exit(0), 2000).unref();
  void running
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
