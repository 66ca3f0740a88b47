/**
 * The SQLite store's schema, one migration per version. A database remembers the version it is
 * at (table `paydrop_schema`); opening it runs the migrations it has not had yet, each in a
 * transaction of its own, so two processes opening one new file at once migrate it once.
 * Append new migrations; never edit one that has shipped.
 */
import type { Database } from 'better-sqlite3';

export const MIGRATIONS: readonly string[] = [
  // 1: values with expiry, event streams, scheduled jobs, named leases.
  `
  CREATE TABLE store_values (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX store_values_expiry ON store_values (expires_at);
  CREATE TABLE store_streams (
    stream TEXT PRIMARY KEY,
    last_id INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX store_streams_expiry ON store_streams (expires_at);
  CREATE TABLE store_events (
    stream TEXT NOT NULL,
    id INTEGER NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (stream, id)
  ) WITHOUT ROWID;
  CREATE TABLE store_jobs (
    queue TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    owner TEXT NOT NULL DEFAULT '',
    leased_until INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (queue, key)
  ) WITHOUT ROWID;
  CREATE INDEX store_jobs_due ON store_jobs (queue, due_at);
  CREATE TABLE store_leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 2: one row per append across all streams, so another process on the same file learns which
  // streams grew without asking each one (its subscribers poll this, see sqlite-store.ts).
  `
  CREATE TABLE store_appends (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL,
    id INTEGER NOT NULL
  );
  `,
  // 3: lists (the `index` op of a commit, read back by `page`): each entry a key of store_values
  // with a score, kept in page order (score, then key, both down) by the primary key itself.
  `
  CREATE TABLE store_lists (
    list TEXT NOT NULL,
    score REAL NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (list, score, key)
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX store_lists_key ON store_lists (list, key);
  `,
];

/** Brings `db` to the newest schema; refuses a database written by a newer paydrop. */
export function migrate(db: Database, path: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS paydrop_schema (version INTEGER NOT NULL)');
  const current = () =>
    (
      db.prepare('SELECT max(version) AS version FROM paydrop_schema').get() as {
        version: number | null;
      }
    ).version ?? 0;
  if (current() > MIGRATIONS.length)
    throw new Error(
      `createSqliteStore: ${path} has schema version ${current()}, newer than this paydrop knows (${MIGRATIONS.length}); upgrade paydrop`,
    );
  for (let version = 1; version <= MIGRATIONS.length; version++) {
    // IMMEDIATE takes the write lock first, so the check and the migration are one step even
    // with another process opening the same file.
    db.transaction(() => {
      if (current() >= version) return;
      db.exec(MIGRATIONS[version - 1] ?? '');
      db.prepare('INSERT INTO paydrop_schema (version) VALUES (?)').run(version);
    }).immediate();
  }
}
