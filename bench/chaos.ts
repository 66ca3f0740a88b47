/**
 * The chaos run of issue 9 at scale: 1,000 checkouts of every channel and 1,000 payouts through
 * the companion, with 20 % of provider calls faulted at random and webhooks duplicated and
 * reordered. Prints what was lost, doubled or wrong (the budget, DESIGN.md: 0, 0, 0) and how long
 * the slowest outcome took to reach the merchant's hook after the customer's last step.
 * `BENCH_CHAOS_SEED` replays a run; `BENCH_CHAOS_SIZE` changes its size.
 */
import { runChaos } from '../test/helpers/chaos';

const size = Number(process.env.BENCH_CHAOS_SIZE ?? 1000);
const seed = Number(process.env.BENCH_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

const report = await runChaos({
  checkouts: size,
  payouts: size,
  seed,
  faultChance: 0.2,
  concurrency: 48,
  timeoutMs: 120_000,
});

const line = (label: string, value: string) => console.log(`${label.padEnd(34)}${value}`);
console.log(`\nChaos: ${size} checkouts and ${size} payouts, 20 % of provider calls faulted`);
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
