// The chaos run of issue 9 (test/node/server/chaos.test.ts runs it on memory) on the durable
// stores of issue 10: a SQLite file and a real redis-server; and issue 22's PostgreSQL, a real
// server, with two companion instances on one database (webhooks to one, customers on both). Checkouts of every channel and
// payouts, 20 % of provider calls faulted, webhooks duplicated and reordered: each ends in its
// right outcome, reported once, no order charged twice. Fewer of each than the memory run, to
// keep the file's time reasonable on a shared machine (PAYDROP_CHAOS_COUNT for more); seeded, a
// failure prints the seed to replay with PAYDROP_CHAOS_SEED.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CheckoutStore } from '../../../src/server';
import { createPostgresStore } from '../../../src/server/store/postgres';
import { createRedisStore } from '../../../src/server/store/redis';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import { CHAOS_RUN_TIMEOUT_MS, runChaos } from '../../helpers/chaos';
import { hasPostgresServer, type RunningPostgres, startPostgres } from '../../helpers/postgres';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const COUNT = Number(process.env.PAYDROP_CHAOS_COUNT ?? 100);

let folder = '';
let redis: RunningRedis | undefined;
let postgres: RunningPostgres | undefined;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'paydrop-chaos-'));
  if (hasRedisServer()) redis = await startRedis();
  if (hasPostgresServer()) postgres = await startPostgres();
});
afterAll(async () => {
  await redis?.stop();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function chaosOn(store: CheckoutStore, secondStore?: CheckoutStore) {
  const seed = Number(process.env.PAYDROP_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  try {
    const report = await runChaos({
      checkouts: COUNT,
      payouts: COUNT,
      seed,
      faultChance: 0.2,
      store,
      ...(secondStore ? { secondStore } : {}),
      timeoutMs: 40_000,
    });
    const problems = { lost: report.lost, doubled: report.doubled, wrong: report.wrong };
    expect(problems, `chaos seed ${seed} (replay: PAYDROP_CHAOS_SEED=${seed})`).toEqual({
      lost: [],
      doubled: [],
      wrong: [],
    });
  } finally {
    await store.close();
    await secondStore?.close();
  }
}

it(
  `${COUNT} checkouts and ${COUNT} payouts under 20 % faults on SQLite: nothing lost, doubled or wrong`,
  async () => {
    await chaosOn(createSqliteStore({ path: join(folder, 'chaos.db') }));
  },
  CHAOS_RUN_TIMEOUT_MS,
);

it.skipIf(!hasRedisServer())(
  `${COUNT} checkouts and ${COUNT} payouts under 20 % faults on Redis: nothing lost, doubled or wrong`,
  async () => {
    await chaosOn(createRedisStore({ url: (redis as RunningRedis).url }));
  },
  CHAOS_RUN_TIMEOUT_MS,
);

it.skipIf(!hasPostgresServer())(
  `${COUNT} checkouts and ${COUNT} payouts under 20 % faults on two instances on one PostgreSQL database: nothing lost, doubled or wrong`,
  async () => {
    const url = await (postgres as RunningPostgres).createDatabase('chaos');
    await chaosOn(createPostgresStore({ url }), createPostgresStore({ url }));
  },
  CHAOS_RUN_TIMEOUT_MS,
);
