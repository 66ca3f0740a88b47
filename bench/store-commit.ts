/**
 * What one `commit` saves over single calls (issue 25, item 2: one transaction per call): the
 * writes of an `/initiate` (an add, two sets, an append, a schedule, an index or a third set) as
 * one commit against the same six as single calls, interleaved, on each store that has commit:
 * Redis (a real redis-server on loopback) and PostgreSQL (a real server on loopback, as the
 * tests start them), and memory and SQLite once they have it.
 *
 *   npx tsx bench/store-commit.ts            # BENCH_ROUNDS=500 by default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '../src/server/store/postgres';
import { createRedisStore } from '../src/server/store/redis';
import { createSqliteStore } from '../src/server/store/sqlite';
import { type CheckoutStore, createMemoryStore } from '../src/server/store/store';
import { hasPostgresServer, startPostgres } from '../test/helpers/postgres';
import { hasRedisServer, startRedis } from '../test/helpers/redis';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARM_UP = 50;
const HOUR = 3_600_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ??
  Number.NaN;

/** The writes of one payment's initiation, named by its reference. */
function initiation(reference: string) {
  const payment = { reference, orderId: `order-${reference}`, amountMinor: 250_050 };
  return {
    async commit(store: CheckoutStore) {
      const done = await store.commit([
        { op: 'add', key: `attempt:${reference}`, value: 1, ttlMs: HOUR },
        { op: 'set', key: `payment:${reference}`, value: payment, ttlMs: HOUR },
        { op: 'set', key: `order:${payment.orderId}`, value: reference, ttlMs: HOUR },
        { op: 'append', stream: `events:${reference}`, value: { status: 'PENDING' } },
        { op: 'schedule', queue: 'confirm', key: reference, value: payment, dueAt: Date.now() },
        { op: 'index', list: 'payments', key: `payment:${reference}`, score: Date.now() },
      ]);
      if (!done) throw new Error(`commit of ${reference} found its add taken`);
    },
    async singles(store: CheckoutStore) {
      if (!(await store.add(`attempt:${reference}`, 1, HOUR)))
        throw new Error(`add of ${reference} found its key taken`);
      await store.set(`payment:${reference}`, payment, HOUR);
      await store.set(`order:${payment.orderId}`, reference, HOUR);
      await store.append(`events:${reference}`, { status: 'PENDING' });
      await store.schedule('confirm', reference, payment, Date.now());
      // No single call indexes: a sixth write of the same kind as the others.
      await store.set(`listed:${reference}`, Date.now(), HOUR);
    },
  };
}

async function measure(kind: string, store: CheckoutStore) {
  const commit: number[] = [];
  const singles: number[] = [];
  for (let round = 0; round < ROUNDS + WARM_UP; round++) {
    // Interleaved, alternating which goes first, so drift on a shared machine hits both alike.
    const order: Array<'commit' | 'singles'> =
      round % 2 ? ['commit', 'singles'] : ['singles', 'commit'];
    for (const way of order) {
      const writes = initiation(`${kind}-${way}-${round}`);
      const started = performance.now();
      await writes[way](store);
      const took = performance.now() - started;
      if (round >= WARM_UP) (way === 'commit' ? commit : singles).push(took);
    }
  }
  commit.sort((a, b) => a - b);
  singles.sort((a, b) => a - b);
  return { kind, commit, singles };
}

const folder = mkdtempSync(join(tmpdir(), 'paydrop-bench-commit-'));
const redis = hasRedisServer() ? await startRedis() : undefined;
const postgres = hasPostgresServer() ? await startPostgres() : undefined;
const stores: Array<[string, CheckoutStore]> = [
  ['memory', createMemoryStore()],
  ['sqlite', createSqliteStore({ path: join(folder, 'checkout.db') })],
];
if (redis) stores.push(['redis', createRedisStore({ url: redis.url })]);
if (postgres)
  stores.push(['postgres', createPostgresStore({ url: await postgres.createDatabase('bench') })]);

const rows = [];
try {
  for (const [kind, store] of stores) {
    if (typeof store.commit !== 'function') {
      console.log(`  ${kind}: no commit yet, skipped`);
      continue;
    }
    rows.push(await measure(kind, store));
  }
} finally {
  await Promise.all(stores.map(([, store]) => store.close()));
  await redis?.stop();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`.padStart(10);
console.log(`one commit of 6 writes vs 6 single calls (${ROUNDS} rounds each, interleaved)`);
console.log(
  `  ${'store'.padEnd(9)}${'commit p50'.padStart(11)}${'p99'.padStart(11)}${'singles p50'.padStart(12)}${'p99'.padStart(11)}${'p50 ratio'.padStart(11)}`,
);
for (const row of rows)
  console.log(
    `  ${row.kind.padEnd(9)}${fmt(percentile(row.commit, 50))} ${fmt(percentile(row.commit, 99))} ${fmt(percentile(row.singles, 50))} ${fmt(percentile(row.singles, 99))} ${`${(percentile(row.commit, 50) / percentile(row.singles, 50)).toFixed(2)}x`.padStart(10)}`,
  );
