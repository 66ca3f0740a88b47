/**
 * A process of its own on a SQLite store file, for the tests that kill one or race several:
 *   tsx sqlite-child.ts <path> write   writes, prints "committed", then waits to be killed;
 *   tsx sqlite-child.ts <path> race    adds order:0..99 and claims the "race" queue until empty,
 *                                      printing what it won as one JSON line;
 *   tsx sqlite-child.ts <path> append  appends 1..5 to events:R1 once told "go", then exits.
 */
import { createSqliteStore } from '../../../src/server/store/sqlite';

const [path = '', mode = 'write'] = process.argv.slice(2);
const store = createSqliteStore({ path });

if (mode === 'write') {
  for (let index = 0; index < 200; index++)
    await store.set(`payment:R${index}`, { orderId: `order-${index}` }, 3_600_000);
  await store.add('outcome:R7', 'SUCCESSFUL', 3_600_000);
  for (const status of ['PENDING', 'SUCCESSFUL']) await store.append('events:R7', { status });
  await store.schedule('confirm', 'R8', { reference: 'R8' }, 5000);
  await store.claim('confirm', 'dying-instance', 5000, 1, 60_000);
  await store.lease('reconcile', 'dying-instance', 3_600_000);
  console.log('committed');
  // Held open, as a running companion would be, until SIGKILL.
  setInterval(() => {}, 1000);
} else if (mode === 'append') {
  console.log('ready');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  for (let index = 1; index <= 5; index++) await store.append('events:R1', index);
  await store.close();
  process.exit(0);
} else {
  // Start together: the parent writes "go" once every child is ready.
  console.log('ready');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const added: string[] = [];
  const claimed: string[] = [];
  for (let index = 0; index < 100; index++)
    if (await store.add(`order:${index}`, process.pid, 60_000)) added.push(`order:${index}`);
  for (;;) {
    const jobs = await store.claim('race', String(process.pid), 1000, 3, 60_000);
    if (jobs.length === 0) break;
    claimed.push(...jobs.map((job) => job.key));
  }
  console.log(JSON.stringify({ added, claimed }));
  await store.close();
  process.exit(0);
}
