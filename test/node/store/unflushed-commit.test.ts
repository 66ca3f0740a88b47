/**
 * An unflushed commit (CommitOptions.flush false, issue 25: an initiation's guards) skips the
 * sync for that one commit only. store-commit.test.ts shows on every store that it commits like
 * any other; this file shows, on a real SQLite file and a real PostgreSQL server, that the sync
 * is skipped for it and for nothing after it. A commit left unsynced by mistake would lose an
 * outcome to a power cut; the sync cannot be watched from SQL, so SQLite's setting is watched
 * where it is made (better-sqlite3's pragma) and PostgreSQL's where it lands (the session).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresStore } from '../../../src/server/store/postgres';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import type { StoreWrite } from '../../../src/server/store/store';
import { hasPostgresServer, type RunningPostgres, startPostgres } from '../../helpers/postgres';
import { watchSqlite } from '../../helpers/sqlite-watch';

const HOUR = 3_600_000;
const guard = (id: string): StoreWrite[] => [
  { op: 'add', key: `lock:${id}`, value: id, ttlMs: HOUR },
  { op: 'set', key: `budget:${id}`, value: 1, ttlMs: HOUR },
];

describe('SQLite: an unflushed commit', () => {
  const folder = mkdtempSync(join(tmpdir(), 'paydrop-unflushed-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('skips the sync for that commit and syncs every commit after it, at durability full', async () => {
    const store = createSqliteStore({ path: join(folder, 'full.db') });
    try {
      const settings = watchSqlite().syncSettings;
      expect(await store.commit(guard('a'), { flush: false })).toBe(true);
      expect(settings).toEqual(['synchronous = NORMAL', 'synchronous = FULL']);
      // A flushed commit, and the default, change nothing: the connection stays at FULL.
      expect(await store.commit(guard('b'))).toBe(true);
      expect(await store.commit(guard('c'), { flush: true })).toBe(true);
      expect(settings).toHaveLength(2);
      expect(await store.getMany(['lock:a', 'lock:b', 'lock:c'])).toEqual(['a', 'b', 'c']);
    } finally {
      await store.close();
    }
  });

  it('syncs again after an unflushed commit that its guard refused, or that failed', async () => {
    const store = createSqliteStore({ path: join(folder, 'refused.db') });
    try {
      await store.commit(guard('a'));
      const settings = watchSqlite().syncSettings;
      // The add finds its key: nothing written, and the setting is back.
      expect(await store.commit(guard('a'), { flush: false })).toBe(false);
      expect(settings).toEqual(['synchronous = NORMAL', 'synchronous = FULL']);
      // A value that is not JSON fails before the transaction: no setting is touched at all.
      const bad: StoreWrite[] = [{ op: 'set', key: 'k', value: 10n, ttlMs: HOUR }];
      await expect(store.commit(bad, { flush: false })).rejects.toThrow(TypeError);
      expect(settings).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('changes nothing at durability normal, which never syncs a commit', async () => {
    const store = createSqliteStore({ path: join(folder, 'normal.db'), durability: 'normal' });
    try {
      const settings = watchSqlite().syncSettings;
      expect(await store.commit(guard('a'), { flush: false })).toBe(true);
      expect(settings).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!hasPostgresServer())('PostgreSQL: an unflushed commit', () => {
  let postgres: RunningPostgres | undefined;
  let url = '';
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('unflushed');
    // The test server runs with synchronous_commit off for speed; a real one has it on.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('ALTER DATABASE unflushed SET synchronous_commit = on');
    await admin.end();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  it('commits with synchronous_commit off for its own transaction only', async () => {
    // One connection, so what the store's statements leave on the session is seen after them.
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const sent: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((config: unknown, values?: unknown) => {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      if (text.includes('paydrop_commit')) sent.push(text);
      return query(config as never, values as never);
    }) as typeof pool.query;
    const store = createPostgresStore({ pool });
    try {
      await store.ready();
      const setting = async () =>
        (await query<{ value: string }>("SELECT current_setting('synchronous_commit') AS value"))
          .rows[0]?.value;
      expect(await setting()).toBe('on');

      expect(await store.commit(guard('a'), { flush: false })).toBe(true);
      expect(await store.commit(guard('b'))).toBe(true);
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatch(/set_config\('synchronous_commit', 'off', true\)/);
      expect(sent[1]).not.toMatch(/synchronous_commit/);
      // Local to the commit's transaction: the session, and every commit after, syncs.
      expect(await setting()).toBe('on');
      expect(await store.getMany(['lock:a', 'lock:b'])).toEqual(['a', 'b']);
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
