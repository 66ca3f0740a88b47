/**
 * What only the durable stores promise: SQLite keeps everything across a close, a reopen and a
 * SIGKILL, and stays exclusive between processes; Redis quits only the connections it made;
 * PostgreSQL migrates once however many instances start together, says what is wrong with a
 * database it cannot use, and hears appends again after its listening connection drops; all
 * refuse bad options and values with a clear error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../src/server/store/postgres';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../../src/server/store/postgres/migrations';
import { createRedisStore } from '../../../src/server/store/redis';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import { MIGRATIONS } from '../../../src/server/store/sqlite/migrations';
import type { CheckoutStore, StoredEvent } from '../../../src/server/store/store';
import { hasPostgresServer, type RunningPostgres, startPostgres } from '../../helpers/postgres';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

const CHILD = new URL('./sqlite-child.ts', import.meta.url).pathname;

let folder = '';
let redis: RunningRedis | undefined;
let postgres: RunningPostgres | undefined;
let postgresBadInputUrl = '';
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'paydrop-durable-'));
  if (hasRedisServer()) redis = await startRedis();
  if (hasPostgresServer()) {
    postgres = await startPostgres();
    postgresBadInputUrl = await postgres.createDatabase('bad_input');
  }
});
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await redis?.stop();
  await postgres?.stop();
});
let files = 0;
const newPath = () => join(folder, `store-${++files}.db`);

function child(path: string, mode: 'write' | 'race' | 'append'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, path, mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

function lineFrom(process: ChildProcess, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    process.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find(match);
      if (line !== undefined) resolve(line);
    });
    process.once('exit', (code) => reject(new Error(`child exited with ${code}: ${output}`)));
  });
}

async function everythingWritten(store: CheckoutStore): Promise<void> {
  for (let index = 0; index < 200; index++)
    expect(await store.get(`payment:R${index}`)).toEqual({ orderId: `order-${index}` });
  expect(await store.add('outcome:R7', 'SUCCESSFUL', 60_000)).toBe(false);
  expect(await store.read('events:R7', '1')).toEqual([
    { id: '2', value: { status: 'SUCCESSFUL' } },
  ]);
  expect(await store.append('events:R7', { status: 'REPORTED' })).toBe('3');
  expect(await store.pending('confirm')).toBe(1);
  // Leased by the instance that died: back once its lease has run out, with its attempt counted.
  expect(await store.claim('confirm', 'survivor', 5000, 10, 60_000)).toEqual([]);
  expect(await store.claim('confirm', 'survivor', 65_000, 10, 60_000)).toEqual([
    { key: 'R8', value: { reference: 'R8' }, dueAt: 5000, attempts: 1 },
  ]);
  expect(await store.lease('reconcile', 'survivor', 60_000)).toBe(false);
}

describe('SQLite store', () => {
  it('keeps everything when closed and opened again on the same file', async () => {
    const path = newPath();
    const first = createSqliteStore({ path });
    for (let index = 0; index < 200; index++)
      await first.set(`payment:R${index}`, { orderId: `order-${index}` }, 3_600_000);
    await first.add('outcome:R7', 'SUCCESSFUL', 3_600_000);
    for (const status of ['PENDING', 'SUCCESSFUL']) await first.append('events:R7', { status });
    await first.schedule('confirm', 'R8', { reference: 'R8' }, 5000);
    await first.claim('confirm', 'first', 5000, 1, 60_000);
    await first.lease('reconcile', 'first', 3_600_000);
    await first.close();
    const second = createSqliteStore({ path });
    await everythingWritten(second);
    await second.close();
  });

  it('loses nothing committed when its process is killed with SIGKILL', async () => {
    const path = newPath();
    const writer = child(path, 'write');
    await lineFrom(writer, (line) => line === 'committed');
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    writer.kill('SIGKILL');
    await exited;
    expect(writer.signalCode).toBe('SIGKILL');
    const store = createSqliteStore({ path });
    await everythingWritten(store);
    await store.close();
  });

  it('adds and claims exactly once between processes racing on one file', async () => {
    const path = newPath();
    const setup = createSqliteStore({ path });
    for (let index = 0; index < 90; index++) await setup.schedule('race', `job-${index}`, index, 0);
    const racers = [child(path, 'race'), child(path, 'race'), child(path, 'race')];
    await Promise.all(racers.map((racer) => lineFrom(racer, (line) => line === 'ready')));
    const results = racers.map((racer) => lineFrom(racer, (line) => line.startsWith('{')));
    for (const racer of racers) racer.stdin?.end('go\n');
    const won = (await Promise.all(results)).map(
      (line) => JSON.parse(line) as { added: string[]; claimed: string[] },
    );
    const added = won.flatMap((racer) => racer.added);
    const claimed = won.flatMap((racer) => racer.claimed);
    expect(added).toHaveLength(100);
    expect(new Set(added).size).toBe(100);
    expect(claimed).toHaveLength(90);
    expect(new Set(claimed).size).toBe(90);
    expect(await setup.pending('race')).toBe(90);
    await setup.close();
  });

  it("wakes a subscriber with another process's appends, in order, within a poll", async () => {
    const path = newPath();
    const store = createSqliteStore({ path, pollMs: 20 });
    await store.append('events:R1', 0);
    const heard: StoredEvent[] = [];
    const unsubscribe = store.subscribe('events:R1', (event) => heard.push(event));
    const writer = child(path, 'append');
    await lineFrom(writer, (line) => line === 'ready');
    writer.stdin?.end('go\n');
    await expect.poll(() => heard.map((event) => event.value)).toEqual([1, 2, 3, 4, 5]);
    expect(heard.map((event) => event.id)).toEqual(['2', '3', '4', '5', '6']);
    unsubscribe();
    await store.close();
  });

  it('is in WAL mode with its schema version recorded, and migrates once', async () => {
    const path = newPath();
    await createSqliteStore({ path }).close();
    await createSqliteStore({ path }).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version FROM paydrop_schema').all()).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
    ]);
    db.close();
  });

  it('brings a database of an older schema up to date, keeping its data', async () => {
    const path = newPath();
    const db = new Database(path);
    db.exec(
      'CREATE TABLE paydrop_schema (version INTEGER NOT NULL); INSERT INTO paydrop_schema VALUES (1)',
    );
    db.exec(MIGRATIONS[0] ?? '');
    db.prepare('INSERT INTO store_values VALUES (\'payment:R1\', \'{"orderId":"o1"}\', ?)').run(
      Date.now() + 60_000,
    );
    db.close();
    const store = createSqliteStore({ path });
    expect(await store.get('payment:R1')).toEqual({ orderId: 'o1' });
    expect(await store.append('events:R1', 'x')).toBe('1');
    // Version 3's lists work on the data kept from version 1.
    expect(await store.commit([{ op: 'index', list: 'l', key: 'payment:R1', score: 1 }])).toBe(
      true,
    );
    expect(await store.page('l', { limit: 5 })).toEqual([
      { key: 'payment:R1', score: 1, value: { orderId: 'o1' } },
    ]);
    await store.close();
  });

  it('refuses a database from a newer paydrop, and a file that is not a database', () => {
    const path = newPath();
    const db = new Database(path);
    db.exec(
      'CREATE TABLE paydrop_schema (version INTEGER NOT NULL); INSERT INTO paydrop_schema VALUES (99)',
    );
    db.close();
    expect(() => createSqliteStore({ path })).toThrow(/schema version 99, newer than/);
    const junk = newPath();
    writeFileSync(junk, 'this is not a database, just some text that is long enough '.repeat(20));
    expect(() => createSqliteStore({ path: junk })).toThrow(
      /createSqliteStore: .* (not a usable database|cannot open)/,
    );
  });

  it('creates the folder it is given, and names a bad path', () => {
    const path = join(folder, 'nested', 'deeper', 'checkout.db');
    const store = createSqliteStore({ path });
    void store.close();
    mkdirSync(join(folder, 'a-folder'));
    expect(() => createSqliteStore({ path: join(folder, 'a-folder') })).toThrow(
      /createSqliteStore: cannot use .*a-folder is a directory/,
    );
    writeFileSync(join(folder, 'a-file'), '');
    expect(() => createSqliteStore({ path: join(folder, 'a-file', 'x.db') })).toThrow(
      /createSqliteStore: cannot use/,
    );
    for (const bad of [undefined, null, {}, { path: '' }, { path: 42 }])
      expect(() => createSqliteStore(bad as never)).toThrow(TypeError);
    expect(() => createSqliteStore({ path: newPath(), durability: 'fast' as never })).toThrow(
      /durability/,
    );
    expect(() => createSqliteStore({ path: newPath(), maxEventsPerStream: 0 })).toThrow(
      /maxEventsPerStream/,
    );
  });

  it('keeps the newest events of a stream, and counts on past them', async () => {
    const store = createSqliteStore({ path: newPath(), maxEventsPerStream: 5 });
    for (let index = 1; index <= 12; index++) await store.append('events:R1', index);
    expect((await store.read('events:R1')).map((event) => event.id)).toEqual([
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
    await store.close();
  });

  it('checks expiry on access with its own clock, and sweeps expired rows as it writes', async () => {
    let time = 1_000_000;
    const path = newPath();
    const store = createSqliteStore({ path, now: () => time });
    await store.set('short', 1, 1000);
    await store.append('events:old', 'x');
    time += 25 * 3600 * 1000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.read('events:old')).toEqual([]);
    for (let index = 0; index < 300; index++) await store.set(`fresh-${index}`, index, 60_000);
    const db = new Database(path, { readonly: true });
    const count = (table: string) =>
      db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    expect(count('store_values')).toBe(300);
    expect(count('store_events')).toBe(0);
    db.close();
    await store.close();
  });
});

const badInputStores: Array<[string, () => CheckoutStore]> = [
  ['SQLite', () => createSqliteStore({ path: newPath() })],
];
if (hasRedisServer())
  badInputStores.push(['Redis', () => createRedisStore({ url: redisUrl(), prefix: 'bad-input:' })]);
if (hasPostgresServer())
  badInputStores.push(['PostgreSQL', () => createPostgresStore({ url: postgresBadInputUrl })]);
describe.each(badInputStores)('%s store, bad input', (_name, open) => {
  it('refuses values JSON cannot carry and times that are not times, changing nothing', async () => {
    const store = open();
    await expect(store.set('k', () => 1, 1000)).rejects.toThrow(/cannot be stored as JSON/);
    await expect(store.set('k', 10n, 1000)).rejects.toThrow(TypeError);
    for (const ttl of [0, -1, Number.NaN, '1000'])
      await expect(store.set('k', 1, ttl as number)).rejects.toThrow(/ttlMs must be a positive/);
    await expect(store.add('k', 1, 0)).rejects.toThrow(TypeError);
    await expect(store.lease('l', 'o', 0)).rejects.toThrow(TypeError);
    await expect(store.schedule('q', 'j', 1, Number.NaN)).rejects.toThrow(/dueAt/);
    await expect(store.claim('q', 'o', 0, 1, 0)).rejects.toThrow(/leaseMs/);
    expect(await store.get('k')).toBeUndefined();
    expect(await store.pending('q')).toBe(0);
    // A key set to nothing reads back as nothing.
    await store.set('nothing', undefined, 1000);
    expect(await store.get('nothing')).toBeUndefined();
    await store.close();
    await expect(store.get('k')).rejects.toThrow(/the store is closed/);
    expect(() => store.subscribe('events:R1', () => {})).toThrow(/the store is closed/);
  });
});

function redisUrl(): string {
  if (!redis) throw new Error('redis-server not started');
  return redis.url;
}
describe.runIf(hasRedisServer())('Redis store', () => {
  it('names a bad url or client, never echoing a password', () => {
    for (const bad of [
      undefined,
      {},
      { url: '' },
      { url: 'not a url' },
      { url: 'http://user:secret@localhost:6379' },
      { url: 'redis://localhost', client: {} },
      { client: {} },
      { client: { duplicate() {}, evalsha() {}, options: { keyPrefix: 'shop:' } } },
      { url: 'redis://localhost', prefix: '' },
      { url: 'redis://localhost', streamTtlMs: -5 },
    ]) {
      expect(() => createRedisStore(bad as never)).toThrow(TypeError);
      try {
        createRedisStore(bad as never);
      } catch (error) {
        expect(String(error)).toMatch(/createRedisStore: /);
        expect(String(error)).not.toContain('secret');
      }
    }
  });

  it('quits the connections it opened, and leaves a client it was given open', async () => {
    const client = new Redis(redisUrl());
    const store = createRedisStore({ client, prefix: 'given:' });
    const heard: unknown[] = [];
    store.subscribe('events:R1', (event) => heard.push(event.value));
    // Subscribe then read, as /events does: what is appended after the read is heard.
    await store.read('events:R1');
    await store.append('events:R1', 'x');
    await expect.poll(() => heard).toEqual(['x']);
    const before = Number(/connected_clients:(\d+)/.exec(await client.info('clients'))?.[1]);
    await store.close();
    expect(await client.ping()).toBe('PONG');
    const after = Number(/connected_clients:(\d+)/.exec(await client.info('clients'))?.[1]);
    expect(after).toBe(before - 1);
    const own = createRedisStore({ url: redisUrl(), prefix: 'own:' });
    own.subscribe('events:R1', () => {});
    await own.set('k', 1, 1000);
    expect(Number(/connected_clients:(\d+)/.exec(await client.info('clients'))?.[1])).toBe(
      after + 2,
    );
    await own.close();
    await expect
      .poll(async () => Number(/connected_clients:(\d+)/.exec(await client.info('clients'))?.[1]))
      .toBe(after);
    await client.quit();
  });

  it('keeps keys under its prefix only, and clear leaves other keys alone', async () => {
    const client = new Redis(redisUrl());
    await client.set('someone-else', 'keep');
    const store = createRedisStore({ client, prefix: 'shop[1]*:' });
    await store.set('k', 1, 60_000);
    await store.append('events:R1', 1);
    await store.schedule('q', 'j', 1, 0);
    expect((await client.keys('shop*')).length).toBeGreaterThanOrEqual(4);
    await store.clear();
    expect(await client.keys('shop*')).toEqual([]);
    expect(await client.get('someone-else')).toBe('keep');
    await store.close();
    await client.quit();
  });

  it('drops the entries of a list whose value is gone as a page passes them', async () => {
    const client = new Redis(redisUrl());
    const store = createRedisStore({ client, prefix: 'drop:' });
    for (const name of ['a', 'b', 'c'])
      await store.commit([
        { op: 'set', key: name, value: name, ttlMs: 60_000 },
        { op: 'index', list: 'links', key: name, score: 1 },
      ]);
    await store.delete('b');
    expect(await client.zcard('drop:i:links')).toBe(3);
    expect((await store.page('links', { limit: 10 })).map((entry) => entry.key)).toEqual([
      'c',
      'a',
    ]);
    expect(await client.zrange('drop:i:links', 0, -1)).toEqual(['a', 'c']);
    await store.close();
    await client.quit();
  });

  it('trims a stream to about its maximum and keeps counting', async () => {
    const store = createRedisStore({ url: redisUrl(), prefix: 'trim:', maxEventsPerStream: 5 });
    for (let index = 1; index <= 300; index++) await store.append('events:R1', index);
    const events = await store.read('events:R1');
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events.length).toBeLessThan(300);
    expect(events.at(-1)).toEqual({ id: '300', value: 300 });
    expect(await store.read('events:R1', '298')).toHaveLength(2);
    await store.close();
  });

  it('catches a subscriber up with what was published while its connection was down', async () => {
    const admin = new Redis(redisUrl());
    const holder = createRedisStore({ url: redisUrl(), prefix: 'drop:' });
    const writer = createRedisStore({ url: redisUrl(), prefix: 'drop:' });
    const heard: unknown[] = [];
    holder.subscribe('events:R1', (event) => heard.push(event.value));
    // Subscribe then read, as /events does: what is appended after the read is heard.
    await holder.read('events:R1');
    await writer.append('events:R1', 'before');
    await expect.poll(() => heard).toEqual(['before']);
    // The subscriber's connection dies; what is published until ioredis reconnects is lost to it.
    await admin.client('KILL', 'TYPE', 'pubsub');
    await writer.append('events:R1', 'while down');
    await expect.poll(() => heard).toEqual(['before', 'while down']);
    await writer.append('events:R1', 'after');
    await expect.poll(() => heard).toEqual(['before', 'while down', 'after']);
    await Promise.all([holder.close(), writer.close(), admin.quit()]);
  });

  it('takes a url or path alone, and keyPrefix for prefix', async () => {
    const store = createRedisStore(redisUrl());
    await store.set('k', 1, 1000);
    await store.close();
    const prefixed = createRedisStore({ url: redisUrl(), keyPrefix: 'alias:' });
    await prefixed.set('k', 2, 60_000);
    const client = new Redis(redisUrl());
    expect(await client.get('alias:v:k')).toBe('2');
    await Promise.all([prefixed.close(), client.quit()]);
    const sqlite = createSqliteStore(newPath());
    await sqlite.set('k', 3, 1000);
    expect(await sqlite.get('k')).toBe(3);
    await sqlite.close();
  });

  it('delivers to a subscriber after the script cache is flushed (a Redis restart)', async () => {
    const client = new Redis(redisUrl());
    const store = createRedisStore({ client, prefix: 'flush:' });
    await store.append('events:R1', 1);
    await client.script('FLUSH');
    expect(await store.append('events:R1', 2)).toBe('2');
    expect(await store.lease('l', 'o', 1000)).toBe(true);
    await store.close();
    await client.quit();
  });
});

function postgresServer(): RunningPostgres {
  if (!postgres) throw new Error('PostgreSQL not started');
  return postgres;
}
let databases = 0;
const newDatabase = () => postgresServer().createDatabase(`durable_${++databases}`);

describe.runIf(hasPostgresServer())('PostgreSQL store', () => {
  it('keeps everything when closed and opened again on the same database', async () => {
    const url = await newDatabase();
    const first = createPostgresStore({ url });
    for (let index = 0; index < 200; index++)
      await first.set(`payment:R${index}`, { orderId: `order-${index}` }, 3_600_000);
    await first.add('outcome:R7', 'SUCCESSFUL', 3_600_000);
    for (const status of ['PENDING', 'SUCCESSFUL']) await first.append('events:R7', { status });
    await first.schedule('confirm', 'R8', { reference: 'R8' }, 5000);
    await first.claim('confirm', 'first', 5000, 1, 60_000);
    await first.lease('reconcile', 'first', 3_600_000);
    await first.close();
    const second = createPostgresStore({ url });
    await everythingWritten(second);
    await second.close();
  });

  it('migrates once when several instances start together on a new database', async () => {
    const url = await newDatabase();
    const stores = Array.from({ length: 6 }, () => createPostgresStore({ url }));
    // All at once: without the advisory lock, concurrent CREATE TABLEs fail or run twice.
    await Promise.all(stores.map((store) => store.ready()));
    await Promise.all(stores.map((store) => store.add('once', 1, 60_000)));
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM paydrop_schema ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    // The lock is let go of: nothing of paydrop's is left holding an advisory lock.
    const locks = await client.query(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'",
    );
    expect(locks.rows[0].n).toBe(0);
    await client.end();
  });

  it('refuses a database from a newer paydrop, one that does not exist, and a user who cannot create tables', async () => {
    const url = await newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      'CREATE TABLE paydrop_schema (version integer PRIMARY KEY, applied_at timestamptz)',
    );
    await client.query('INSERT INTO paydrop_schema (version) VALUES (99)');
    const newer = createPostgresStore({ url });
    await expect(newer.ready()).rejects.toThrow(/schema version 99, newer than this paydrop knows/);
    await newer.close();

    const missing = createPostgresStore({ url: url.replace(/[^/]+$/, 'no_such_database') });
    await expect(missing.get('k')).rejects.toThrow(
      /createPostgresStore: the database at 127\.0\.0\.1:\d+\/no_such_database does not exist/,
    );
    await missing.close();

    // PostgreSQL 15 and later give only the owner CREATE on the public schema.
    const fresh = await newDatabase();
    await client.query('DROP ROLE IF EXISTS paydrop_reader');
    await client.query('CREATE ROLE paydrop_reader LOGIN');
    const reader = createPostgresStore({ url: fresh.replace('postgres@', 'paydrop_reader@') });
    await expect(reader.ready()).rejects.toThrow(/cannot create paydrop's tables/);
    await reader.close();
    await client.end();
  });

  it('says a refused connection is an outage, naming where, and connects once the database is there', async () => {
    const store = createPostgresStore({
      url: 'postgres://shop:secret@127.0.0.1:1/shop',
      commandTimeoutMs: 1000,
    });
    const refused = await store.get('k').catch((error: unknown) => error as Error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).name).toBe('StoreUnavailableError');
    expect(String(refused)).toMatch(/cannot connect to PostgreSQL at 127\.0\.0\.1:1\/shop/);
    expect(String(refused)).not.toContain('secret');
    await store.close();
  });

  it('names a bad url or pool, never echoing a password', () => {
    for (const bad of [
      undefined,
      {},
      { url: '' },
      { url: 'not a url' },
      { url: 'mysql://user:secret@localhost/shop' },
      { url: 'postgres://localhost/shop', pool: {} },
      { pool: {} },
      { url: 'postgres://localhost/shop', maxEventsPerStream: 0 },
      { url: 'postgres://localhost/shop', commandTimeoutMs: -5 },
    ]) {
      expect(() => createPostgresStore(bad as never)).toThrow(TypeError);
      try {
        createPostgresStore(bad as never);
      } catch (error) {
        expect(String(error)).toMatch(/createPostgresStore: /);
        expect(String(error)).not.toContain('secret');
      }
    }
  });

  it('runs on a pool of yours, and leaves it open on close', async () => {
    const url = await newDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    const store = createPostgresStore({ pool });
    const heard: unknown[] = [];
    store.subscribe('events:R1', (event) => heard.push(event.value));
    await store.read('events:R1');
    await store.append('events:R1', 'x');
    await expect.poll(() => heard).toEqual(['x']);
    await store.close();
    expect((await pool.query('SELECT count(*)::int AS n FROM paydrop_events')).rows[0].n).toBe(1);
    // The store's listening connection is gone with it.
    await expect
      .poll(
        async () =>
          (
            await pool.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN%'",
            )
          ).rows[0].n,
      )
      .toBe(0);
    await pool.end();
    const short = createPostgresStore(url);
    await short.set('k', 1, 1000);
    expect(await short.get('k')).toBe(1);
    await short.close();
    // Without named statements, for a pooler that cannot keep them: the same answers.
    const unprepared = createPostgresStore({ url, preparedStatements: false });
    expect(await unprepared.add('k2', 2, 60_000)).toBe(true);
    expect(await unprepared.get('k2')).toBe(2);
    await unprepared.close();
    expect(() =>
      createPostgresStore({ url, preparedStatements: 'yes' as unknown as boolean }),
    ).toThrow(/preparedStatements must be true or false/);
  });

  it('hears again, and catches up, after its listening connection is cut', async () => {
    const url = await newDatabase();
    const holder = createPostgresStore({ url });
    const writer = createPostgresStore({ url });
    const heard: unknown[] = [];
    holder.subscribe('events:R1', (event) => heard.push(event.value));
    await holder.read('events:R1');
    await writer.append('events:R1', 'before');
    await expect.poll(() => heard).toEqual(['before']);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // The listener's session ends (a failover, a proxy's idle cut): what is notified until it is
    // back is lost to it, the events are not.
    const cut = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()",
    );
    expect(cut.rowCount).toBe(1);
    await writer.append('events:R1', 'while down');
    await expect.poll(() => heard).toEqual(['before', 'while down']);
    await writer.append('events:R1', 'after');
    await expect.poll(() => heard).toEqual(['before', 'while down', 'after']);
    await Promise.all([holder.close(), writer.close(), admin.end()]);
  });

  it('drops the entries of a list with their value, deleted or swept', async () => {
    const url = await newDatabase();
    let time = 1_000_000;
    const store = createPostgresStore({ url, now: () => time });
    for (const [index, name] of ['a', 'b', 'c'].entries())
      await store.commit([
        { op: 'set', key: name, value: name, ttlMs: name === 'c' ? 1000 : 60_000 },
        { op: 'index', list: 'links', key: name, score: index },
      ]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const listed = async () =>
      (
        await client.query<{ key: string }>('SELECT key FROM paydrop_list_entries ORDER BY key')
      ).rows.map((row) => row.key);
    await store.delete('a');
    expect(await listed()).toEqual(['b', 'c']);
    // c's time is up: skipped at once, dropped by the sweep that runs as writes go by.
    time += 5000;
    expect((await store.page('links', { limit: 10 })).map((entry) => entry.key)).toEqual(['b']);
    for (let index = 0; index < 300; index++) await store.set(`filler:${index}`, index, 60_000);
    await expect.poll(listed).toEqual(['b']);
    await Promise.all([store.close(), client.end()]);
  });

  it('brings a database of schema 1 up to date, keeping its data, and commits on it', async () => {
    const url = await newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // A database as the first paydrop with PostgreSQL left it.
    await client.query(POSTGRES_MIGRATIONS[0] ?? '');
    await client.query(
      'CREATE TABLE paydrop_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await client.query('INSERT INTO paydrop_schema (version) VALUES (1)');
    await client.query(
      'INSERT INTO paydrop_values (key, value, expires_at) VALUES (\'payment:R1\', \'{"orderId":"o1"}\', $1)',
      [Date.now() + 3_600_000],
    );
    const store = createPostgresStore({ url });
    expect(await store.get('payment:R1')).toEqual({ orderId: 'o1' });
    expect(
      await store.commit([
        { op: 'index', list: 'payments', key: 'payment:R1', score: 1 },
        { op: 'add', key: 'once:R1', value: true, ttlMs: 60_000 },
      ]),
    ).toBe(true);
    expect(await store.page('payments', { limit: 5 })).toEqual([
      { key: 'payment:R1', score: 1, value: { orderId: 'o1' } },
    ]);
    const { rows } = await client.query('SELECT version FROM paydrop_schema ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3]);
    await Promise.all([store.close(), client.end()]);
  });

  it('commits, reads several and pages without named statements too', async () => {
    const url = await newDatabase();
    const store = createPostgresStore({ url, preparedStatements: false });
    for (let round = 0; round < 2; round++) {
      expect(
        await store.commit([
          { op: 'set', key: `link:${round}`, value: { round }, ttlMs: 60_000 },
          { op: 'index', list: 'links', key: `link:${round}`, score: round },
          { op: 'add', key: 'once', value: round, ttlMs: 60_000 },
        ]),
      ).toBe(round === 0);
    }
    expect(await store.getMany(['link:0', 'link:1', 'once'])).toEqual([{ round: 0 }, undefined, 0]);
    expect(await store.page('links', { limit: 5, after: { score: 5, key: 'x' } })).toEqual([
      { key: 'link:0', score: 0, value: { round: 0 } },
    ]);
    await store.close();
  });

  it('keeps the newest events of a stream, and counts on past them', async () => {
    const store = createPostgresStore({ url: await newDatabase(), maxEventsPerStream: 5 });
    for (let index = 1; index <= 12; index++) await store.append('events:R1', index);
    expect((await store.read('events:R1')).map((event) => event.id)).toEqual([
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
    await store.close();
  });

  it('checks expiry on access with its own clock, and sweeps expired rows as it writes', async () => {
    let time = 1_000_000;
    const url = await newDatabase();
    const store = createPostgresStore({ url, now: () => time });
    await store.set('short', 1, 1000);
    expect(await store.add('short', 2, 1000)).toBe(false);
    await store.append('events:old', 'x');
    await store.lease('sweep', 'a', 1000);
    time += 25 * 3600 * 1000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.read('events:old')).toEqual([]);
    expect(await store.lease('sweep', 'b', 1000)).toBe(true);
    expect(await store.add('short', 3, 60_000)).toBe(true);
    for (let index = 0; index < 300; index++) await store.set(`fresh-${index}`, index, 60_000);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const count = async (table: string) =>
      (await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
    await expect.poll(() => count('paydrop_events')).toBe(0);
    expect(await count('paydrop_values')).toBe(301);
    await client.end();
    await store.close();
  });
});
