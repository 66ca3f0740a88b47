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
  // 2: lists (entries by score, paged newest first) and the commit of several writes at once.
  // Keys of a list sort by their bytes (COLLATE "C"), as Redis and JavaScript order them, not by
  // the database's language. An entry goes with its value: when the value is deleted or swept,
  // its entries are too. paydrop_commit applies a commit's writes in order in one statement
  // (one round trip, one transaction); an add that finds its key live raises PDADD, which
  // undoes every write before it, and the store answers false.
  `
  CREATE TABLE paydrop_list_entries (
    list text NOT NULL,
    key text COLLATE "C" NOT NULL,
    score double precision NOT NULL,
    PRIMARY KEY (list, key)
  );
  CREATE INDEX paydrop_list_entries_page ON paydrop_list_entries (list, score DESC, key DESC);
  CREATE INDEX paydrop_list_entries_key ON paydrop_list_entries (key);
  CREATE FUNCTION paydrop_commit(writes jsonb, now_ms bigint, max_events bigint, stream_ttl_ms bigint)
  RETURNS boolean LANGUAGE plpgsql AS $commit$
  DECLARE
    write jsonb;
    event_id bigint;
  BEGIN
    FOR write IN
      SELECT item FROM jsonb_array_elements(writes) WITH ORDINALITY AS w(item, place) ORDER BY place
    LOOP
      CASE write->>'op'
      WHEN 'set' THEN
        INSERT INTO paydrop_values (key, value, expires_at)
        VALUES (write->>'key', write->>'value', now_ms + (write->>'ttlMs')::bigint)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at;
      WHEN 'add' THEN
        INSERT INTO paydrop_values (key, value, expires_at)
        VALUES (write->>'key', write->>'value', now_ms + (write->>'ttlMs')::bigint)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
        WHERE paydrop_values.expires_at <= now_ms;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'paydrop commit: the key of an add is present' USING ERRCODE = 'PDADD';
        END IF;
      WHEN 'delete' THEN
        DELETE FROM paydrop_values WHERE key = write->>'key';
        DELETE FROM paydrop_list_entries WHERE key = write->>'key';
      WHEN 'append' THEN
        INSERT INTO paydrop_streams (stream, last_id, expires_at)
        VALUES (write->>'stream', 1, now_ms + stream_ttl_ms)
        ON CONFLICT (stream) DO UPDATE
          SET last_id = paydrop_streams.last_id + 1, expires_at = excluded.expires_at
        RETURNING last_id INTO event_id;
        INSERT INTO paydrop_events (stream, id, value)
        VALUES (write->>'stream', event_id, write->>'value');
        DELETE FROM paydrop_events
        WHERE stream = write->>'stream' AND id <= event_id - max_events;
        PERFORM pg_notify('paydrop_events', event_id || ':' || (write->>'stream'));
      WHEN 'schedule' THEN
        INSERT INTO paydrop_jobs (queue, key, value, due_at)
        VALUES (write->>'queue', write->>'key', write->>'value', (write->>'dueAt')::bigint)
        ON CONFLICT (queue, key) DO UPDATE
          SET value = excluded.value, due_at = excluded.due_at, owner = '', leased_until = 0;
      WHEN 'finish' THEN
        DELETE FROM paydrop_jobs WHERE queue = write->>'queue' AND key = write->>'key';
      WHEN 'index' THEN
        INSERT INTO paydrop_list_entries (list, key, score)
        VALUES (write->>'list', write->>'key', (write->>'score')::double precision)
        ON CONFLICT (list, key) DO UPDATE SET score = excluded.score;
      END CASE;
    END LOOP;
    RETURN true;
  END
  $commit$;
  `,
  // 3: three more writes of a commit (issue 25 item 2: one transaction per call): expect (a
  // guard: the key holds this text, '' when absent, read with its row locked), take (a place in a sliding window kept as
  // JSON, a list of [end, id]; a full one fails the commit, or is skipped) and give (a place
  // given back). A window's row is locked (made first, expired, when absent) so two commits
  // taking places in it queue up rather than both counting the same free place.
  `
  CREATE OR REPLACE FUNCTION paydrop_commit(writes jsonb, now_ms bigint, max_events bigint, stream_ttl_ms bigint)
  RETURNS boolean LANGUAGE plpgsql AS $commit$
  DECLARE
    write jsonb;
    event_id bigint;
    held text;
    held_until bigint;
    entries jsonb;
    kept jsonb;
  BEGIN
    FOR write IN
      SELECT item FROM jsonb_array_elements(writes) WITH ORDINALITY AS w(item, place) ORDER BY place
    LOOP
      CASE write->>'op'
      WHEN 'set' THEN
        INSERT INTO paydrop_values (key, value, expires_at)
        VALUES (write->>'key', write->>'value', now_ms + (write->>'ttlMs')::bigint)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at;
      WHEN 'add' THEN
        INSERT INTO paydrop_values (key, value, expires_at)
        VALUES (write->>'key', write->>'value', now_ms + (write->>'ttlMs')::bigint)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
        WHERE paydrop_values.expires_at <= now_ms;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'paydrop commit: the key of an add is present' USING ERRCODE = 'PDADD';
        END IF;
      WHEN 'expect' THEN
        -- Read locked (the row made first, expired, when absent): a commit writing the key now
        -- is waited for and its value seen, so what was expected cannot change before this
        -- commit's own writes land (a plain read would see the value before it).
        INSERT INTO paydrop_values (key, value, expires_at) VALUES (write->>'key', '', 0)
        ON CONFLICT (key) DO NOTHING;
        SELECT CASE WHEN expires_at > now_ms THEN value ELSE '' END INTO held
        FROM paydrop_values WHERE key = write->>'key' FOR UPDATE;
        IF held IS DISTINCT FROM write->>'value' THEN
          RAISE EXCEPTION 'paydrop commit: a key holds another value' USING ERRCODE = 'PDADD';
        END IF;
      WHEN 'take', 'give' THEN
        INSERT INTO paydrop_values (key, value, expires_at) VALUES (write->>'key', '[]', 0)
        ON CONFLICT (key) DO NOTHING;
        SELECT value, expires_at INTO held, held_until FROM paydrop_values
        WHERE key = write->>'key' FOR UPDATE;
        entries := '[]';
        IF held_until > now_ms AND held LIKE '[%' THEN
          BEGIN
            entries := held::jsonb;
          EXCEPTION WHEN others THEN
            entries := '[]';
          END;
        END IF;
        SELECT coalesce(jsonb_agg(entry ORDER BY place), '[]') INTO kept
        FROM jsonb_array_elements(entries) WITH ORDINALITY AS e(entry, place)
        WHERE jsonb_typeof(entry) = 'array' AND jsonb_typeof(entry->0) = 'number'
          AND jsonb_typeof(entry->1) = 'string'
          AND (write->>'op' = 'give' OR (entry->>0)::double precision > (write->>'at')::double precision);
        IF write->>'op' = 'give' THEN
          SELECT coalesce(jsonb_agg(entry ORDER BY place), '[]') INTO entries
          FROM jsonb_array_elements(kept) WITH ORDINALITY AS e(entry, place)
          WHERE entry->>1 IS DISTINCT FROM write->>'id';
          IF jsonb_array_length(entries) = 0 THEN
            DELETE FROM paydrop_values WHERE key = write->>'key';
          ELSIF jsonb_array_length(entries) < jsonb_array_length(kept) THEN
            UPDATE paydrop_values SET value = entries::text WHERE key = write->>'key';
          END IF;
        ELSIF NOT EXISTS (
          SELECT 1 FROM jsonb_array_elements(kept) AS e(entry) WHERE entry->>1 = write->>'id'
        ) THEN
          IF jsonb_array_length(kept) >= (write->>'limit')::integer THEN
            IF write->>'whenFull' = 'fail' THEN
              RAISE EXCEPTION 'paydrop commit: the window of a take is full' USING ERRCODE = 'PDADD';
            END IF;
          ELSE
            UPDATE paydrop_values
            SET value = (kept || jsonb_build_array(jsonb_build_array(
                  (write->>'at')::double precision + (write->>'windowMs')::bigint, write->>'id')))::text,
                expires_at = now_ms + (write->>'windowMs')::bigint
            WHERE key = write->>'key';
          END IF;
        END IF;
      WHEN 'delete' THEN
        DELETE FROM paydrop_values WHERE key = write->>'key';
        DELETE FROM paydrop_list_entries WHERE key = write->>'key';
      WHEN 'append' THEN
        INSERT INTO paydrop_streams (stream, last_id, expires_at)
        VALUES (write->>'stream', 1, now_ms + stream_ttl_ms)
        ON CONFLICT (stream) DO UPDATE
          SET last_id = paydrop_streams.last_id + 1, expires_at = excluded.expires_at
        RETURNING last_id INTO event_id;
        INSERT INTO paydrop_events (stream, id, value)
        VALUES (write->>'stream', event_id, write->>'value');
        DELETE FROM paydrop_events
        WHERE stream = write->>'stream' AND id <= event_id - max_events;
        PERFORM pg_notify('paydrop_events', event_id || ':' || (write->>'stream'));
      WHEN 'schedule' THEN
        INSERT INTO paydrop_jobs (queue, key, value, due_at)
        VALUES (write->>'queue', write->>'key', write->>'value', (write->>'dueAt')::bigint)
        ON CONFLICT (queue, key) DO UPDATE
          SET value = excluded.value, due_at = excluded.due_at, owner = '', leased_until = 0;
      WHEN 'finish' THEN
        DELETE FROM paydrop_jobs WHERE queue = write->>'queue' AND key = write->>'key';
      WHEN 'index' THEN
        INSERT INTO paydrop_list_entries (list, key, score)
        VALUES (write->>'list', write->>'key', (write->>'score')::double precision)
        ON CONFLICT (list, key) DO UPDATE SET score = excluded.score;
      END CASE;
    END LOOP;
    RETURN true;
  END
  $commit$;
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
