/**
 * Checkout starts through the companion beside a bare forwarding proxy (issue 25, item 4): what
 * `/session` + `/initiate` cost the browser through the companion with each store, against the
 * same two calls through bench/bare-proxy.ts (node:http + fetch, the same provider calls), all
 * against one sandbox, in one run. Every figure is printed beside its reference:
 * - added latency: a start (session then initiate, sequential) timed on each target in turn,
 *   round-robin, so that drift in the machine's load falls on all alike; median and p99 of each,
 *   minus the proxy's;
 * - checkout starts per second, CONCURRENCY in flight: ROUNDS rounds, each measuring every target
 *   in turn (its order rotated per round); the ratio to the proxy of the same round, median of
 *   the rounds;
 * - CPU per start: the CPU time each server process spent in those rounds (Linux /proc), per
 *   start, against the proxy's: the figure least moved by other load on the machine.
 * Targets (issue 25): added ≤ 0.5 ms median with memory, ≤ 1 ms with SQLite; starts/s ≥ 0.9× the
 * proxy with memory, ≥ 0.75× with SQLite.
 *
 * The sandbox, the proxy, each companion (bench/stores.ts in its companion role) and this client
 * each run in a process of their own. BENCH_STARTS (default 500) the sequential starts per
 * target; BENCH_STARTS_ROUNDS (default 5) and BENCH_STARTS_PER_ROUND (default 300);
 * BENCH_STARTS_WARM (default 1000) the starts each target makes first, unmeasured.
 * BENCH_STARTS_BEFORE=<folder> (with BENCH_STARTS_BEFORE_STORES, default memory): the same
 * stores from another copy of the sources too, in the same rounds, for before/after figures.
 * BENCH_STARTS_STORES (e.g. memory,sqlite): only those stores' rows.
 */
import type { ChildProcess } from 'node:child_process';
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_TEST_KEY } from '../src/sandbox';
import { hasPostgresServer, type RunningPostgres, startPostgres } from '../test/helpers/postgres';
import { hasRedisServer, type RunningRedis, startRedis } from '../test/helpers/redis';
import { startEntry as start, stopped } from './servers';

/**
 * The stores, one line each: the environment bench/stores.ts's companion role needs for it, or
 * undefined when its server is not on this machine (the row is then skipped, and said so).
 */
interface StoreRow {
  /** The row's name. */
  readonly kind: string;
  /** The store bench/stores.ts opens (BENCH_STORE), when not named by `kind`. */
  readonly store?: string;
  readonly environment: (folder: string) => Promise<Record<string, string> | undefined>;
}
let redis: RunningRedis | undefined;
let postgres: RunningPostgres | undefined;
const STORES: readonly StoreRow[] = [
  { kind: 'memory', environment: async () => ({}) },
  {
    kind: 'sqlite',
    environment: async (folder) => ({ BENCH_SQLITE_PATH: join(folder, 'starts.db') }),
  },
  {
    // durability: 'normal' (synchronous = NORMAL in WAL mode): a commit is not flushed to the
    // disk before it returns, so a power cut (not a crash of the process) may lose the last
    // commits. The row shows what the one flush of a start (its closing commit; the guards'
    // commit is unflushed) costs at the default, 'full'.
    kind: 'sqlite-normal',
    store: 'sqlite',
    environment: async (folder) => ({
      BENCH_SQLITE_PATH: join(folder, 'starts-normal.db'),
      BENCH_SQLITE_DURABILITY: 'normal',
    }),
  },
  {
    kind: 'redis',
    environment: async () => {
      if (!hasRedisServer()) return undefined;
      redis ??= await startRedis();
      return { BENCH_REDIS_URL: redis.url };
    },
  },
  {
    kind: 'postgres',
    environment: async () => {
      if (!hasPostgresServer()) return undefined;
      postgres ??= await startPostgres();
      return { BENCH_POSTGRES_URL: await postgres.createDatabase('starts') };
    },
  },
];

const SEQUENTIAL = Number(process.env.BENCH_STARTS ?? 500);
const ROUNDS = Number(process.env.BENCH_STARTS_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_STARTS_PER_ROUND ?? 300);
const CONCURRENCY = 16;
/** Starts each target makes before anything is measured, CONCURRENCY in flight. */
const WARM = Number(process.env.BENCH_STARTS_WARM ?? 1000);
const secretKey = SANDBOX_TEST_KEY;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ??
  Number.NaN;
const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

interface Target {
  readonly name: string;
  /** Base URL of the checkout API (…/api/checkout). */
  readonly api: string;
  readonly child: ChildProcess;
  readonly latencies: number[];
  readonly rates: number[];
  /** CPU time the process spent in the rounds of starts per second, ms; NaN where unknown. */
  cpuMs: number;
}

/**
 * The CPU time a process has used so far, in ms (user + system, from /proc on Linux; NaN
 * elsewhere). Unlike wall-clock figures it barely moves with the machine's other load.
 */
function cpuMsOf(child: ChildProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;

/** The median time of writing 4 KB to a file in `folder` and syncing it, over 200 tries, ms. */
function diskSyncMs(folder: string): number {
  const file = join(folder, 'sync-probe');
  const fd = openSync(file, 'w');
  const page = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let index = 0; index < 200; index++) {
      writeSync(fd, page, 0, page.length, (index % 16) * page.length);
      const begun = performance.now();
      fsyncSync(fd);
      times.push(performance.now() - begun);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return median(times);
}

let order = 0;
async function post(url: string, body: unknown, token?: string): Promise<{ token: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { token: string };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
/** One checkout start, as the browser makes it: /session, then /initiate with its token. */
async function checkoutStart(target: Target): Promise<void> {
  const session = await post(`${target.api}/session`, { order: `starts-${++order}` });
  await post(`${target.api}/initiate`, { channel: 'PayByTransfer' }, session.token);
}
async function timedStart(target: Target): Promise<number> {
  const begun = performance.now();
  await checkoutStart(target);
  return performance.now() - begun;
}
async function startsPerSecond(target: Target, count: number): Promise<number> {
  let left = count;
  const begun = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await checkoutStart(target);
    }),
  );
  return (count / (performance.now() - begun)) * 1000;
}

const folder = mkdtempSync(join(tmpdir(), 'paydrop-bench-starts-'));
const sandbox = await start('src/sandbox/cli.ts', { PORT: '0', SANDBOX_SECRET_KEY: secretKey });
const targets: Target[] = [];
const skipped: string[] = [];
try {
  const base = { SANDBOX_URL: sandbox.url, SANDBOX_SECRET_KEY: secretKey };
  const proxy = await start('bench/bare-proxy.ts', base);
  targets.push({
    name: 'bare proxy',
    api: `${proxy.url}/api/checkout`,
    child: proxy.child,
    latencies: [],
    rates: [],
    cpuMs: 0,
  });
  // BENCH_STARTS_STORES=memory,sqlite: only these rows (e.g. a branch whose other stores lag).
  const only = process.env.BENCH_STARTS_STORES?.split(',');
  for (const store of STORES) {
    if (only && !only.includes(store.kind)) continue;
    const environment = await store.environment(folder);
    if (!environment) {
      skipped.push(store.kind);
      continue;
    }
    const companion = await start('bench/stores.ts', {
      ...base,
      ...environment,
      BENCH_STORE_ROLE: 'companion',
      BENCH_STORE: store.store ?? store.kind,
    });
    targets.push({
      name: store.kind,
      api: `${companion.url}/api/checkout`,
      child: companion.child,
      latencies: [],
      rates: [],
      cpuMs: 0,
    });
    // BENCH_STARTS_BEFORE=<folder>: the same store on another checkout of the sources (e.g.
    // `git worktree add` of an older commit), measured in the same rounds.
    const before = process.env.BENCH_STARTS_BEFORE;
    if (
      !before ||
      !(process.env.BENCH_STARTS_BEFORE_STORES ?? 'memory').split(',').includes(store.kind)
    )
      continue;
    const older = await start(
      'bench/stores.ts',
      {
        ...base,
        ...environment,
        // A file of its own, not the other companion's.
        ...(environment.BENCH_SQLITE_PATH
          ? { BENCH_SQLITE_PATH: `${environment.BENCH_SQLITE_PATH}.before.db` }
          : {}),
        BENCH_STORE_ROLE: 'companion',
        BENCH_STORE: store.store ?? store.kind,
      },
      before,
    );
    targets.push({
      name: `${store.kind} (before)`,
      api: `${older.url}/api/checkout`,
      child: older.child,
      latencies: [],
      rates: [],
      cpuMs: 0,
    });
  }
  const [reference] = targets as [Target];

  // Warm every path (JIT, connections, the provider's validation in each companion's cache), as
  // a companion in service is: V8 optimises a function only after many calls, and the
  // companion has far more of them than the proxy. After 50 starts (this bench until session
  // 12) its median was still falling: +1.39 ms added over 300 starts, +0.87 ms over 2,000.
  for (const target of targets) await startsPerSecond(target, WARM);
  for (let index = 0; index < SEQUENTIAL; index++)
    for (const target of targets) target.latencies.push(await timedStart(target));
  const ratios = new Map<Target, number[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = [
      ...targets.slice(round % targets.length),
      ...targets.slice(0, round % targets.length),
    ];
    for (const target of order) {
      const cpuBefore = cpuMsOf(target.child);
      target.rates.push(await startsPerSecond(target, PER_ROUND));
      target.cpuMs += cpuMsOf(target.child) - cpuBefore;
    }
    for (const target of targets)
      ratios.get(target)?.push((target.rates.at(-1) ?? 0) / (reference.rates.at(-1) ?? 1));
  }

  const ms = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)} ms`;
  const targetsOf: Record<string, { added: number; ratio: number }> = {
    memory: { added: 0.5, ratio: 0.9 },
    sqlite: { added: 1, ratio: 0.75 },
    'sqlite-normal': { added: 1, ratio: 0.75 },
  };
  console.log(
    `checkout starts (/session + /initiate) through the companion beside a bare node:http + fetch proxy, one sandbox, loopback\n` +
      `  each target warmed by ${WARM} starts first; latency: ${SEQUENTIAL} sequential starts per target, round-robin; starts/s: ${CONCURRENCY} in flight, median of ${ROUNDS} rounds of ${PER_ROUND}, ratio to the proxy in the same round`,
  );
  const refMedian = percentile(
    reference.latencies.sort((a, b) => a - b),
    50,
  );
  const refP99 = percentile(reference.latencies, 99);
  const refRate = median(reference.rates);
  const cpuPerStart = (target: Target) => target.cpuMs / (ROUNDS * PER_ROUND);
  console.log(
    `  ${'bare proxy'.padEnd(17)} median ${refMedian.toFixed(3)} ms  p99 ${refP99.toFixed(3)} ms  ${refRate.toFixed(0)} starts/s  ${cpuPerStart(reference).toFixed(2)} ms CPU/start  (reference)`,
  );
  for (const target of targets.slice(1)) {
    target.latencies.sort((a, b) => a - b);
    const added = percentile(target.latencies, 50) - refMedian;
    const addedP99 = percentile(target.latencies, 99) - refP99;
    const roundRatios = ratios.get(target) ?? [];
    const ratio = median(roundRatios);
    // The spread of the rounds' ratios: how much of a verdict near its target is this machine's
    // noise (on 2 shared cores the proxy's own CPU per start moved by 1.7× within an hour).
    const spread = `rounds ${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}`;
    const goal = targetsOf[target.name];
    const verdict = goal
      ? `  target ≤ +${goal.added} ms, ≥ ${goal.ratio}×: ${added <= goal.added ? 'ok' : 'MISSED'}, ${ratio >= goal.ratio ? 'ok' : 'MISSED'}`
      : '';
    console.log(
      `  ${target.name.padEnd(17)} median ${percentile(target.latencies, 50).toFixed(3)} ms (${ms(added)} vs proxy)  p99 ${percentile(target.latencies, 99).toFixed(3)} ms (${ms(addedP99)})  ${median(target.rates).toFixed(0)} starts/s (${ratio.toFixed(2)}× proxy, ${spread})  ${cpuPerStart(target).toFixed(2)} ms CPU/start (${(cpuPerStart(target) / cpuPerStart(reference)).toFixed(2)}×)${verdict}`,
    );
  }
  for (const kind of skipped)
    console.log(`  ${kind.padEnd(17)} skipped: its server is not on this machine`);
  // What one sync to this disk costs on its own: the floor under SQLite's added latency at
  // durability 'full', whose closing commit of a start waits for one.
  if (targets.some((target) => target.name.startsWith('sqlite')))
    console.log(
      `  one disk sync in ${folder} (4 KB written, then fsync): median ${diskSyncMs(folder).toFixed(3)} ms`,
    );
} finally {
  await Promise.all(targets.map((target) => stopped(target.child)));
  await stopped(sandbox.child);
  await redis?.stop();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
}
