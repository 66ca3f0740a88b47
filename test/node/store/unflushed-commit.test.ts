/**
 * An unflushed commit (CommitOptions.flush false, issue 25: an initiation's guards) skips the
 * sync for that one commit only. store-commit.test.ts shows on every store that it commits like
 * any other; this file shows, on a real SQLite file and a real PostgreSQL server, that the sync
 * is skipped for it and for nothing after it. A commit left unsynced by mistake would lose an
 * outcome to a power cut; the sync cannot be watched from SQL, so SQLite's setting is watched
 * on the connection as each COMMIT runs and PostgreSQL's where it lands (the session).
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
      const seen = watchSqlite();
      // The very first commit after opening too: the store's first setting is not lost.
      expect(await store.commit(guard('a'), { flush: false })).toBe(true);
      // A flushed commit, and the default, are synced.
      expect(await store.commit(guard('b'))).toBe(true);
      expect(await store.commit(guard('c'), { flush: true })).toBe(true);
      expect(await store.commit(guard('d'), { flush: false })).toBe(true);
      expect(await store.commit(guard('e'))).toBe(true);
      expect(seen.commitLevels).toEqual(['NORMAL', 'FULL', 'FULL', 'NORMAL', 'FULL']);
      expect(await store.getMany(['lock:a', 'lock:b', 'lock:c'])).toEqual(['a', 'b', 'c']);
    } finally {
      await store.close();
    }
  });

  it('syncs again after an unflushed commit that its guard refused, or that failed', async () => {
    const store = createSqliteStore({ path: join(folder, 'refused.db') });
    try {
      await store.commit(guard('a'));
      const seen = watchSqlite();
      // The add finds its key: nothing written, and the next commit is synced.
      expect(await store.commit(guard('a'), { flush: false })).toBe(false);
      expect(await store.commit(guard('b'))).toBe(true);
      // A value that is not JSON fails before the transaction, and changes nothing either.
      const bad: StoreWrite[] = [{ op: 'set', key: 'k', value: 10n, ttlMs: HOUR }];
      await expect(store.commit(bad, { flush: false })).rejects.toThrow(TypeError);
      expect(await store.commit(guard('c'))).toBe(true);
      // The refused commit rolled back (no COMMIT); the two after it were synced.
      expect(seen.commitLevels).toEqual(['FULL', 'FULL']);
    } finally {
      await store.close();
    }
  });

  it('syncs no commit at durability normal, flushed or not', async () => {
    const store = createSqliteStore({ path: join(folder, 'normal.db'), durability: 'normal' });
    try {
      const seen = watchSqlite();
      expect(await store.commit(guard('a'), { flush: false })).toBe(true);
      expect(await store.commit(guard('b'))).toBe(true);
      expect(await store.append('events', 1)).toBe('1');
      expect(seen.commitLevels).toEqual(['NORMAL', 'NORMAL', 'NORMAL']);
    } finally {
      await store.close();
    }
  });

  it('syncs every commit at durability full, appends and claims included', async () => {
    const store = createSqliteStore({ path: join(folder, 'full-other.db') });
    try {
      const seen = watchSqlite();
      expect(await store.append('events', 1)).toBe('1');
      await store.schedule('jobs', 'a', 1, 0);
      expect(await store.claim('jobs', 'me', 1, 10, HOUR)).toHaveLength(1);
      expect(seen.commitLevels).toEqual(['FULL', 'FULL']);
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
