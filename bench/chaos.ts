/**
 * The chaos run of issue 9 at scale: 1,000 checkouts of every channel and 1,000 payouts through
 * the companion, with 20 % of provider calls faulted at random and webhooks duplicated and
 * reordered. Prints what was lost, doubled or wrong (the budget, DESIGN.md: 0, 0, 0) and how long
 * the slowest outcome took to reach the merchant's hook after the customer's last step.
 * Run on the memory store (one instance) and, issue 22, on two instances on one PostgreSQL
 * database (a real server started here): webhooks to one, the customers' calls alternating.
 * `BENCH_CHAOS_SEED` replays a run; `BENCH_CHAOS_SIZE` changes its size; `BENCH_CHAOS_STORES`
 * picks the runs (default `memory,postgres`); `PAYDROP_CHAOS_LOG=1` prints the companions'
 * warnings and errors.
 */
import type { CheckoutStore } from '../src/server';
import { type ChaosReport, runChaos } from '../test/helpers/chaos';

const size = Number(process.env.BENCH_CHAOS_SIZE ?? 1000);
const seed = Number(process.env.BENCH_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const runs = (process.env.BENCH_CHAOS_STORES ?? 'memory,postgres').split(',');

const line = (label: string, value: string) => console.log(`${label.padEnd(34)}${value}`);

function print(title: string, report: ChaosReport): void {
  console.log(
    `\nChaos: ${size} checkouts and ${size} payouts, 20 % of provider calls faulted, ${title}`,
  );
  line('  seed', String(report.seed));
  line('  lost', String(report.lost.length));
  line('  doubled', String(report.doubled.length));
  line('  wrong', String(report.wrong.length));
  line('  slowest outcome after last step', `${(report.slowestMs / 1000).toFixed(1)} s`);
  line('  provider calls', String(report.providerCalls));
  line('  run time', `${(report.elapsedMs / 1000).toFixed(1)} s`);
  for (const problem of [...report.lost, ...report.doubled, ...report.wrong].slice(0, 20)) {
    console.log(`    ${problem}`);
  }
  if (report.lost.length + report.doubled.length + report.wrong.length > 0) {
    console.log(`  over budget: replay with BENCH_CHAOS_SEED=${seed}`);
    process.exitCode = 1;
  }
}

const run = (store?: CheckoutStore, secondStore?: CheckoutStore) =>
  runChaos({
    checkouts: size,
    payouts: size,
    seed,
    faultChance: 0.2,
    concurrency: 48,
    timeoutMs: 120_000,
    ...(store ? { store } : {}),
    ...(secondStore ? { secondStore } : {}),
  });

if (runs.includes('memory')) print('one instance, memory store', await run());

if (runs.includes('postgres')) {
  const { hasPostgresServer, startPostgres } = await import('../test/helpers/postgres');
  if (!hasPostgresServer()) {
    console.log('\nChaos on PostgreSQL skipped: no PostgreSQL (set POSTGRES_BIN)');
  } else {
    const { createPostgresStore } = await import('../src/server/store/postgres');
    const postgres = await startPostgres();
    try {
      const url = await postgres.createDatabase('chaos');
      const first = createPostgresStore({ url });
      const second = createPostgresStore({ url });
      try {
        print('two instances on one PostgreSQL database', await run(first, second));
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    } finally {
      await postgres.stop();
    }
  }
}
