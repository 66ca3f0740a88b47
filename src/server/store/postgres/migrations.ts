/**
 * The PostgreSQL store's schema, one migration per version. A database remembers the versions it
 * has had (table `paydrop_schema`); start-up runs the ones it has not, each in a transaction of
 * its own, under a session advisory lock, so instances starting together migrate once: the
 * second waits for the first's lock, then finds nothing left to do. Append new migrations; never
 * edit one that has shipped.
 *
 * Times are epoch milliseconds in `bigint` columns, from the companion's clock rather than the
 * database's `now()`: the store contract passes claim times in, and the companion's tests move
 * its clock. Values are JSON as `text`, not `jsonb`: kept byte for byte (jsonb reorders keys) and
 * read back with the same decoder as the SQLite and Redis stores.
 */
import type { PoolClient } from 'pg';

export const MIGRATIONS: readonly string[] = [
  // 1: values with expiry, event streams, scheduled jobs, named leases.
  `
  CREATE TABLE paydrop_values (
    key text PRIMARY KEY,
    value text NOT NULL,
    expires_at bigint NOT NULL
  );
  CREATE INDEX paydrop_values_expiry ON paydrop_values (expires_at);
  CREATE TABLE paydrop_streams (
    stream text PRIMARY KEY,
    last_id bigint NOT NULL,
    expires_at bigint NOT NULL
  );
  CREATE INDEX paydrop_streams_expiry ON paydrop_streams (expires_at);
  CREATE TABLE paydrop_events (
    stream text NOT NULL,
    id bigint NOT NULL,
    value text NOT NULL,
    PRIMARY KEY (stream, id)
  );
  CREATE TABLE paydrop_jobs (
    queue text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    due_at bigint NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    owner text NOT NULL DEFAULT '',
    leased_until bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (queue, key)
  );
  CREATE INDEX paydrop_jobs_due ON paydrop_jobs (queue, due_at);
  CREATE TABLE paydrop_leases (
    name text PRIMARY KEY,
    owner text NOT NULL,
    until bigint NOT NULL
  );
  `,
];

/**
 * The advisory lock's key: a constant of our own ('paydrop' in ASCII as a bigint, passed as text
 * since it is past JavaScript's safe integers), the same in every instance and release, unlikely
 * to be one an application picks.
 */
export const MIGRATION_LOCK = '31632371395751792';

/**
 * Brings the database to the newest schema on `client` (a connection of its own: the advisory
 * lock is held by the session). Refuses a database written by a newer paydrop.
 */
export async function migrate(client: PoolClient, where: string): Promise<number[]> {
  const applied: number[] = [];
  // Waiting for another instance's migration is normal: no statement timeout while locked.
  await client.query("SELECT set_config('statement_timeout', '0', false)");
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS paydrop_schema (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM paydrop_schema',
    );
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length)
      throw new Error(
        `${where}: the database has paydrop schema version ${current}, newer than this paydrop knows (${MIGRATIONS.length}); upgrade paydrop`,
      );
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[version - 1] ?? '');
        await client.query('INSERT INTO paydrop_schema (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(
          `${where}: migration ${version} failed: ${(error as Error).message} (nothing of it was kept)`,
          { cause: error },
        );
      }
      applied.push(version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.query('RESET statement_timeout').catch(() => {});
  }
  return applied;
}
