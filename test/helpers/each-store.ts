/**
 * Runs one set of store tests on every CheckoutStore: memory, SQLite (a real file in a temp
 * folder), Redis (a real redis-server on a free loopback port) and PostgreSQL (a real server,
 * initdb in a temp folder, on a free loopback port); a store whose server is not installed is
 * skipped with a reason. Where a store can be opened twice on the same data (two SQLite
 * connections to one file, two Redis clients, two PostgreSQL pools), the second store object
 * plays another instance of the companion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { createPostgresStore } from '../../src/server/store/postgres';
import { createRedisStore } from '../../src/server/store/redis';
import { createSqliteStore } from '../../src/server/store/sqlite';
import { type CheckoutStore, createMemoryStore } from '../../src/server/store/store';
import { FakeClock } from './fake-clock';
import { hasPostgresServer, type RunningPostgres, startPostgres } from './postgres';
import { hasRedisServer, type RunningRedis, startRedis } from './redis';

/**
 * Another client's transaction that has set a key and stays open until `land` commits it (a
 * commit of another instance in flight); `blocked` says how many sessions wait on a lock
 * meanwhile.
 */
export interface WriteInFlight {
  blocked(): Promise<number>;
  land(): Promise<void>;
}

/** The server of a shared store, taken down and brought back (an outage). */
export interface StoreOutage {
  /** A store on the same data that gives up on an unreachable server within a second. */
  open(): CheckoutStore;
  down(): Promise<void>;
  up(): Promise<void>;
}

export interface StoreUnderTest {
  /** A store on this kind's data (or the one `make` opens); closed after the test. */
  open(make?: () => CheckoutStore): CheckoutStore;
  /** Whether two open() calls share their data, subscriptions included, as two instances would. */
  readonly shared: boolean;
  /** Redis and PostgreSQL: a server that can go away. */
  readonly outage?: StoreOutage | undefined;
  /**
   * The stores' clock: memory, SQLite and PostgreSQL take it as their `now`, so their time moves
   * only through `advance`; Redis counts expiry on its own server, where a test polls for it.
   */
  readonly clock: FakeClock;
  /**
   * PostgreSQL: another client's open transaction that sets `key` to the JSON `text` (for an
   * hour), so a test can show a commit waits for it and sees what it wrote.
   */
  readonly inFlight?: ((key: string, text: string) => Promise<WriteInFlight>) | undefined;
}

interface StoreKind {
  readonly open: () => CheckoutStore;
  readonly shared: boolean;
  readonly outage?: StoreOutage;
  readonly inFlight?: (key: string, text: string) => Promise<WriteInFlight>;
}

/**
 * `tests` once per store, inside `describe('<Kind> store, <title>')`. Each test starts on an
 * emptied store; every store it opened is closed after it.
 */
export function eachStore(title: string, tests: (store: StoreUnderTest) => void): void {
  kind(title, 'memory', tests, async (now) => ({
    open: () => createMemoryStore({ now }),
    shared: false,
  }));

  let folder = '';
  kind(
    title,
    'SQLite',
    tests,
    async (now) => {
      folder = mkdtempSync(join(tmpdir(), 'paydrop-store-'));
      const path = join(folder, 'checkout.db');
      return { open: () => createSqliteStore({ path, now }), shared: true };
    },
    async () => rmSync(folder, { recursive: true, force: true }),
  );

  let redis: RunningRedis | undefined;
  if (hasRedisServer()) {
    const prefix = `${title.replace(/\W+/g, '-')}:`;
    const url = () => (redis as RunningRedis).url;
    kind(
      title,
      'Redis',
      tests,
      async () => {
        redis = await startRedis();
        return {
          open: () => createRedisStore({ url: url(), prefix }),
          shared: true,
          outage: {
            open: () => createRedisStore({ url: url(), prefix, commandTimeoutMs: 500 }),
            down: async () => {
              await redis?.stop();
            },
            // Started again on the same port, empty (the helper's log goes with the server).
            up: async () => {
              redis = await startRedis({ port: (redis as RunningRedis).port });
            },
          },
        };
      },
      async () => {
        await redis?.stop();
      },
    );
  } else it.skip('Redis store: no redis-server (install Debian redis-server or set REDIS_SERVER)');

  let postgres: RunningPostgres | undefined;
  if (hasPostgresServer())
    kind(
      title,
      'PostgreSQL',
      tests,
      async (now) => {
        postgres = await startPostgres();
        const url = await postgres.createDatabase('store');
        return {
          open: () => createPostgresStore({ url, now }),
          shared: true,
          outage: {
            open: () => createPostgresStore({ url, now, commandTimeoutMs: 1000 }),
            down: async () => postgres?.halt(),
            up: async () => postgres?.resume(),
          },
          inFlight: async (key, text) => {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            await client.query('BEGIN');
            await client.query(
              `INSERT INTO paydrop_values (key, value, expires_at) VALUES ($1, $2, $3)
               ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
              [key, text, now() + 3_600_000],
            );
            return {
              async blocked() {
                // pg_locks is read live (pg_stat_activity would be a snapshot in a transaction).
                const { rows } = await client.query(
                  'SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted',
                );
                return rows[0].waiting as number;
              },
              async land() {
                await client.query('COMMIT');
                await client.end();
              },
            };
          },
        };
      },
      async () => {
        await postgres?.stop();
      },
    );
  else it.skip('PostgreSQL store: no PostgreSQL (install Debian postgresql or set POSTGRES_BIN)');
}

function kind(
  title: string,
  name: string,
  tests: (store: StoreUnderTest) => void,
  setup: (now: () => number) => Promise<StoreKind>,
  teardown: () => Promise<void> = async () => {},
): void {
  describe(`${name} store, ${title}`, () => {
    const clock = new FakeClock(Date.now());
    let made: StoreKind | undefined;
    let opened: CheckoutStore[] = [];
    const given = (): StoreKind => {
      if (!made) throw new Error(`${name} store: not set up yet`);
      return made;
    };
    beforeAll(async () => {
      made = await setup(() => clock.monotonic());
    });
    afterAll(teardown);
    beforeEach(async () => {
      const store = given().open();
      opened.push(store);
      await store.clear();
    });
    afterEach(async () => {
      await Promise.all(opened.map((store) => store.close()));
      opened = [];
    });
    tests({
      open(make) {
        const store = (make ?? given().open)();
        opened.push(store);
        return store;
      },
      get shared() {
        return given().shared;
      },
      get outage() {
        return given().outage;
      },
      get inFlight() {
        return given().inFlight;
      },
      clock,
    });
  });
}
