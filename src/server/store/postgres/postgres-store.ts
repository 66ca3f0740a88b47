/**
 * The system of record for several instances: the PostgreSQL the merchant already runs, through
 * node-postgres (`pg`). Every instance sees the same values, event logs, jobs and leases, each
 * step an ACID statement (issue 22):
 * - values are rows with an `expires_at`; `add` is one `INSERT … ON CONFLICT`, so exactly one
 *   instance wins; an expired row counts as absent on every read and is swept as writes go by;
 * - each payment's events are rows numbered 1, 2, 3… per stream, so a browser reconnecting to
 *   any instance replays from its `Last-Event-ID`;
 * - an append notifies (`pg_notify`, sent only if its transaction commits) with the stream and
 *   the id alone; one listening connection per store hears it and reads the event from the
 *   table, so the instance holding the browser's stream learns of an event appended elsewhere;
 * - jobs are rows claimed with `FOR UPDATE SKIP LOCKED` and leased: each job goes to one owner,
 *   and one whose owner died comes back once its lease has run out;
 * - a `commit` is one call of the function paydrop_commit (migrations.ts): one round trip, one
 *   transaction, so its appends are notified only when all of it commits, and an `add` that
 *   finds its key undoes it all;
 * - lists are rows by (list, key) with a score, paged along an index, joined to their values;
 * - the schema is migrated at start-up under an advisory lock (migrations.ts).
 * The database's clock is never used: times are the companion's (see migrations.ts).
 */
import pg from 'pg';
import type { CheckoutStore, PageEntry, ScheduledJob, StoredEvent } from '../store';
import { withOutages } from '../store-unavailable';
import { checkKeys, checkPage, checkWrites, writePlace } from '../store-writes';
import {
  checkMs,
  checkTime,
  decodeValue,
  encodeValue,
  parseEventId,
  valuesInKeyOrder,
} from '../stored-value';
import { migrate } from './migrations';

interface PostgresStoreCommonOptions {
  /** Events kept per stream (oldest dropped first). Default 100. */
  readonly maxEventsPerStream?: number | undefined;
  /** How long an idle stream is kept, in ms. Default 24 hours. */
  readonly streamTtlMs?: number | undefined;
  /**
   * How long a statement, or opening a connection, may take before the store gives up and the
   * companion answers 503 `unavailable`, in ms. Default 5000. Applies to the pool the store opens
   * from `url`; a `pool` of yours keeps its own settings (set `connectionTimeoutMillis` and
   * `statement_timeout` on it).
   */
  readonly commandTimeoutMs?: number | undefined;
  /** Connections in the pool the store opens from `url`, besides its listener. Default 10. */
  readonly maxConnections?: number | undefined;
  /**
   * Named prepared statements (default true): each connection parses and plans a statement once,
   * which saves about a third of a simple statement's time. Set false behind a pooler that cannot
   * keep them (PgBouncer in transaction mode before 1.21, or without `max_prepared_statements`).
   */
  readonly preparedStatements?: boolean | undefined;
  /** The clock used for expiry and leases (tests). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

export type PostgresStoreOptions = PostgresStoreCommonOptions &
  (
    | {
        /**
         * `postgres://user:password@host:port/database` (or `postgresql://`, with `?sslmode=…`).
         * The store opens its own pool and closes it on close().
         */
        readonly url: string;
        readonly pool?: undefined;
      }
    | {
        /**
         * A `pg.Pool` you already have. The store runs its statements on it and opens one
         * connection of its own, with the pool's settings, to listen for appends; close() ends
         * that connection and leaves your pool open.
         */
        readonly pool: pg.Pool;
        readonly url?: undefined;
      }
  );

/** The store, with a way to wait for its start-up (connection and migrations) and fail fast. */
export interface PostgresStore extends CheckoutStore {
  /**
   * Resolves once the database answered and has the newest schema; rejects with what is wrong
   * (unreachable, a missing database, refused credentials, a read-only replica…). Every other
   * call waits for it too, so awaiting it is optional; after a failure the next call tries again.
   * @example
   * const store = createPostgresStore({ url: process.env.DATABASE_URL });
   * await store.ready(); // at start-up: a wrong url fails the deploy, not the first payment
   */
  ready(): Promise<void>;
}

const WHERE = 'createPostgresStore';
/** The one channel every append notifies on; the payload says which stream. */
const CHANNEL = 'paydrop_events';
/**
 * Default of commandTimeoutMs: well inside the provider's 10 s, with room for a busy database
 * (a store's statements take well under a millisecond on an idle one).
 */
const COMMAND_TIMEOUT_MS = 5000;
/** Writes between sweeps of expired rows (expiry is also checked on every read). */
const SWEEP_EVERY = 256;
/** The oldest PostgreSQL the store accepts (it is tested on 15; older lines are past end of life). */
const MIN_SERVER_VERSION = 120000;
/** The listener's wait before reconnecting, doubled per failure up to the maximum, in ms. */
const RECONNECT_MS = [100, 200, 500, 1000, 2000, 5000];
/**
 * How often the listening connection is asked `SELECT 1`: a connection cut without a word (a
 * NAT or proxy dropping it idle) hears no notification and reports no error, so without this it
 * would stay deaf until TCP keepalive noticed, hours later by default.
 */
const HEARTBEAT_MS = 15_000;

/**
 * SQLSTATE classes and codes that mean "not now" rather than a bug: the connection lost (08),
 * too many connections or a full disk (53), the server shutting down or starting (57P…), a
 * statement cancelled by its timeout (57014), a transaction to retry (40001, 40P01), a failover
 * that left us on a read-only node (25006).
 */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[1-3]|57014|40001|40P01|25006)/;
/**
 * What paydrop_commit raises when a guard fails (an `add` finds its key live, an `expect` is not
 * met, a `take` finds its window full): the commit is undone, not failed.
 */
const ADD_FOUND = 'PDADD';
/** deadlock_detected: the transaction PostgreSQL chose to end, rolled back whole. */
const DEADLOCK = '40P01';
/** One commit: one call of paydrop_commit, one round trip, one transaction. */
const COMMIT = 'SELECT paydrop_commit($1::jsonb, $2, $3, $4)';
const UNFLUSHED_COMMIT =
  "SELECT set_config('synchronous_commit', 'off', true), paydrop_commit($1::jsonb, $2, $3, $4)";
/** Tries of a commit that PostgreSQL ended in a deadlock. */
const COMMIT_ATTEMPTS = 3;
/** Node's socket errors and pg's own words for a connection that went away or timed out. */
const TRANSIENT_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|cannot connect to PostgreSQL/;

/**
 * A prepared statement's name, from its text (FNV-1a): the same in every store object, so two
 * stores sharing a pool never give one name to two texts on a connection.
 */
function statementName(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `paydrop_${hash.toString(36)}`;
}

function isOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (!(current instanceof Error) || current instanceof TypeError) return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return TRANSIENT_SQLSTATE.test(code);
    if (typeof code === 'string' && TRANSIENT_MESSAGE.test(code)) return true;
    if (TRANSIENT_MESSAGE.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

interface Listener {
  readonly deliver: (event: StoredEvent) => void;
  /** The id of the last event this listener heard, once it is ready. */
  last: number;
  ready: boolean;
}

interface Watched {
  readonly listeners: Set<Listener>;
  /** Set while subscriptions to this stream are finding where "now" is; reads wait for it. */
  starting: Promise<void> | undefined;
  pulling: boolean;
  again: boolean;
}

function checkOptions(options: PostgresStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `${WHERE}: pass { url } (e.g. { url: process.env.DATABASE_URL }) or { pool } (a pg.Pool)`,
    );
  const { url, pool } = options;
  if (url !== undefined && pool !== undefined)
    throw new TypeError(`${WHERE}: pass either url or pool, not both`);
  if (pool !== undefined) {
    const candidate = pool as unknown as Record<string, unknown>;
    if (
      typeof candidate !== 'object' ||
      candidate === null ||
      typeof candidate.query !== 'function' ||
      typeof candidate.connect !== 'function' ||
      typeof candidate.options !== 'object'
    )
      throw new TypeError(`${WHERE}: pool must be a pg.Pool (new pg.Pool({ connectionString }))`);
  } else {
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      // Reported below without echoing the URL, which may carry a password.
    }
    if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:'))
      throw new TypeError(
        `${WHERE}: url must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@localhost:5432/shop`,
      );
    if (parsed.hostname === '' && !parsed.searchParams.has('host'))
      throw new TypeError(`${WHERE}: url has no host, e.g. postgres://localhost:5432/shop`);
  }
  for (const name of [
    'maxEventsPerStream',
    'streamTtlMs',
    'commandTimeoutMs',
    'maxConnections',
  ] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new TypeError(`${WHERE}: ${name} must be a positive integer`);
  }
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new TypeError(`${WHERE}: now must be a function returning epoch ms`);
  if (options.preparedStatements !== undefined && typeof options.preparedStatements !== 'boolean')
    throw new TypeError(`${WHERE}: preparedStatements must be true or false`);
}

/** Where the database is, for messages: host, port and database, never the password. */
function describeTarget(config: pg.PoolConfig | pg.ClientConfig): string {
  let host = config.host;
  let port: string | number | undefined = config.port;
  let database = config.database;
  if (config.connectionString) {
    try {
      const url = new URL(config.connectionString);
      host ??= decodeURIComponent(url.hostname) || url.searchParams.get('host') || undefined;
      port ??= url.port || undefined;
      database ??= decodeURIComponent(url.pathname.slice(1)) || undefined;
    } catch {
      // Described by what is known.
    }
  }
  return `${host ?? 'localhost'}:${port ?? 5432}${database ? `/${database}` : ''}`;
}

/**
 * The start-up's failure as the merchant can act on it: what is wrong and what to change. A
 * connection that cannot be made keeps words isOutage knows (the next call tries again).
 */
function startupError(error: unknown, target: string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const say = (text: string) => new Error(`${WHERE}: ${text}`, { cause: error });
  if (message.startsWith(`${WHERE}:`)) return error as Error;
  switch (code) {
    case '3D000':
      return say(
        `the database at ${target} does not exist (${message}); create it (createdb) or fix the url`,
      );
    case '28P01':
    case '28000':
      return say(`PostgreSQL at ${target} refused the credentials: ${message}`);
    case '42501':
      return say(
        `the user cannot create paydrop's tables at ${target} (${message}); grant it CREATE on the schema, or run the first start-up as the database's owner`,
      );
  }
  if (isOutage(error))
    return say(
      `cannot connect to PostgreSQL at ${target} (${message}); is it running, and is the url right?`,
    );
  return say(`PostgreSQL at ${target} is not usable: ${message}`);
}

/**
 * `createPostgresStore(url)` is short for `createPostgresStore({ url })`.
 *
 * @example
 * import { createCheckoutHandler } from 'paydrop/server';
 * import { createPostgresStore } from 'paydrop/server/postgres';
 *
 * const store = createPostgresStore({ url: process.env.DATABASE_URL });
 * await store.ready(); // optional: fail at start-up on a wrong url
 * const checkout = createCheckoutHandler({
 *   // …
 *   store,
 * });
 */
export function createPostgresStore(options: PostgresStoreOptions | string): PostgresStore {
  if (typeof options === 'string') return createPostgresStore({ url: options });
  checkOptions(options);
  const now = options.now ?? Date.now;
  const maxEvents = options.maxEventsPerStream ?? 100;
  const streamTtlMs = options.streamTtlMs ?? 24 * 3600 * 1000;
  const timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const owned = options.pool === undefined;
  const prepared = options.preparedStatements ?? true;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      // Bounded while PostgreSQL is down or slow: a request is answered 503 in seconds.
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: 'paydrop',
      keepAlive: true,
    });
  // An idle connection dropped by the server is an error event, which would otherwise end the
  // process; the pool replaces it, and statements that fail say so themselves.
  if (owned) pool.on('error', () => {});
  // The listener's settings are the pool's (host, credentials, TLS), whoever made it.
  const listenerConfig: pg.ClientConfig = {
    ...(pool.options as pg.ClientConfig),
    application_name: owned
      ? 'paydrop-listener'
      : (pool.options as pg.ClientConfig).application_name,
    keepAlive: true,
  };
  const target = describeTarget(pool.options);

  let closed = false;
  let starting: Promise<void> | undefined;
  let writes = 0;
  let sweeping = false;
  const watched = new Map<string, Watched>();

  function usable(): void {
    if (closed) throw new Error(`${WHERE}: the store is closed`);
  }

  async function start(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw startupError(error, target);
    }
    try {
      const { rows } = await client.query<{ version: string; recovery: boolean }>(
        "SELECT current_setting('server_version_num') AS version, pg_is_in_recovery() AS recovery",
      );
      const version = Number(rows[0]?.version);
      if (!(version >= MIN_SERVER_VERSION))
        throw new Error(
          `${WHERE}: PostgreSQL at ${target} is version ${rows[0]?.version}; the store needs 12 or newer`,
        );
      // A hot standby answers reads and refuses every write: say so now, not at the first payment.
      if (rows[0]?.recovery)
        throw new Error(
          `${WHERE}: PostgreSQL at ${target} is a read-only standby; point the url at the primary`,
        );
      await migrate(client, WHERE);
      client.release();
    } catch (error) {
      // A connection whose session may hold the lock or a transaction is not given back.
      client.release(error instanceof Error ? error : true);
      throw startupError(error, target);
    }
  }

  /** Start-up, once; after a failure the next call tries again (the database may come up). */
  function ready(): Promise<void> {
    starting ??= start().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  }

  async function started(): Promise<void> {
    usable();
    await ready();
  }

  async function query<Row extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    usable();
    await ready();
    usable();
    return pool.query<Row>(
      prepared ? { name: statementName(text), text, values } : { text, values },
    );
  }

  function wrote(): void {
    if (++writes % SWEEP_EVERY !== 0 || sweeping) return;
    sweeping = true;
    // In the background: a write never waits for the sweep, and a failed sweep is tried again
    // SWEEP_EVERY writes later (expired rows are absent to reads meanwhile).
    void sweep(now())
      .catch(() => {})
      .finally(() => {
        sweeping = false;
      });
  }

  async function sweep(time: number): Promise<void> {
    // A list's entries go with their values.
    await query(
      `WITH gone AS (DELETE FROM paydrop_values WHERE expires_at <= $1 RETURNING key)
       DELETE FROM paydrop_list_entries AS entry USING gone WHERE entry.key = gone.key`,
      [time],
    );
    await query('DELETE FROM paydrop_leases WHERE until <= $1', [time]);
    // A stream someone here is listening to is kept, as in memory and SQLite.
    await query(
      `WITH gone AS (
         DELETE FROM paydrop_streams WHERE expires_at <= $1 AND NOT (stream = ANY($2::text[]))
         RETURNING stream
       )
       DELETE FROM paydrop_events USING gone WHERE paydrop_events.stream = gone.stream`,
      [time, [...watched.keys()]],
    );
  }

  async function readAfter(stream: string, after: number): Promise<StoredEvent[]> {
    const { rows } = await query<{ id: string; value: string }>(
      'SELECT id, value FROM paydrop_events WHERE stream = $1 AND id > $2 ORDER BY id',
      [stream, after],
    );
    return rows.map((row) => ({ id: String(row.id), value: decodeValue(row.value) }));
  }

  function hear(listener: Listener, event: StoredEvent): void {
    const id = Number(event.id);
    if (!listener.ready || id <= listener.last) return;
    listener.last = id;
    try {
      listener.deliver(event);
    } catch {
      // A listener's failure is its own; the others still hear the event.
    }
  }

  /** Brings a stream's ready listeners up to date from the table: ordered, no gaps, no repeats. */
  async function pull(stream: string): Promise<void> {
    const entry = watched.get(stream);
    if (!entry) return;
    if (entry.pulling) {
      entry.again = true;
      return;
    }
    entry.pulling = true;
    try {
      do {
        entry.again = false;
        const ready = [...entry.listeners].filter((listener) => listener.ready);
        if (ready.length === 0) break;
        const from = Math.min(...ready.map((listener) => listener.last));
        for (const event of await readAfter(stream, from)) {
          if (closed) return;
          for (const listener of entry.listeners) hear(listener, event);
        }
      } while (entry.again && !closed);
    } catch {
      // Unreachable for now: the next notification, or the listener's reconnection, pulls again.
    } finally {
      entry.pulling = false;
    }
  }

  // The listening connection: one per store, on one channel for every stream, so a new
  // subscription costs no round trip once it is up. A connection that drops is opened again, and
  // every watched stream is read from where its listeners were: a notification sent while it
  // was down is lost (NOTIFY is not queued for a session that is gone), the events are not.
  let listenerClient: pg.Client | undefined;
  let listening: Promise<void> | undefined;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let dropListener: (() => void) | undefined;
  let failures = 0;

  /** No answer within the command timeout, or an error: the connection is treated as lost. */
  function beat(): void {
    const client = listenerClient;
    const drop = dropListener;
    if (!client || !drop) return;
    const timer = setTimeout(drop, timeoutMs);
    client.query('SELECT 1').then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        drop();
      },
    );
  }

  function onNotification(message: pg.Notification): void {
    if (message.channel !== CHANNEL || !message.payload) return;
    const colon = message.payload.indexOf(':');
    const stream = message.payload.slice(colon + 1);
    const id = Number(message.payload.slice(0, colon));
    const entry = watched.get(stream);
    if (!entry || !Number.isSafeInteger(id)) return;
    if ([...entry.listeners].some((listener) => listener.ready && listener.last < id))
      void pull(stream);
  }

  function listen(): Promise<void> {
    listening ??= (async () => {
      await ready();
      const client = new pg.Client(listenerConfig);
      client.on('notification', onNotification);
      const lost = () => {
        if (listenerClient !== client) return;
        listenerClient = undefined;
        listening = undefined;
        client.removeAllListeners('notification');
        void client.end().catch(() => {});
        scheduleReconnect();
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        client.removeAllListeners();
        client.on('error', () => {});
        void client.end().catch(() => {});
        throw error;
      }
      if (closed) {
        void client.end().catch(() => {});
        return;
      }
      listenerClient = client;
      dropListener = lost;
      if (!heartbeat) {
        heartbeat = setInterval(beat, HEARTBEAT_MS);
        heartbeat.unref?.();
      }
      const reconnected = failures > 0;
      failures = 0;
      // Anything appended while there was no listening connection is read from the table now.
      if (reconnected) for (const stream of watched.keys()) void pull(stream);
    })().catch((error: unknown) => {
      listening = undefined;
      scheduleReconnect();
      throw error;
    });
    return listening;
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer || watched.size === 0) return;
    const delay = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)] ?? 5000;
    failures++;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      listen().catch(() => {});
    }, delay);
    // Reconnecting must not keep a process alive on its own.
    reconnectTimer.unref?.();
  }

  /**
   * Where "now" is for new listeners of `stream`: once the listening connection is up (so every
   * append committed from here on is notified), the stream's last id. An event after it is the
   * listener's to hear; one up to it, the caller's read (which waits for this) returns.
   */
  function startListeners(stream: string, entry: Watched): void {
    const finding = (async () => {
      try {
        await listen();
        const { rows } = await query<{ last_id: string }>(
          'SELECT last_id FROM paydrop_streams WHERE stream = $1',
          [stream],
        );
        const tail = Number(rows[0]?.last_id ?? 0);
        for (const listener of entry.listeners)
          if (!listener.ready) {
            listener.last = tail;
            listener.ready = true;
          }
      } catch {
        // Unreachable: hear from the first event on once the listener connection is back.
        for (const listener of entry.listeners) listener.ready = true;
      }
    })();
    entry.starting = finding;
    void finding.then(() => {
      if (entry.starting === finding) entry.starting = undefined;
      void pull(stream);
    });
  }

  async function appendRow(stream: string, text: string, time: number): Promise<number> {
    // One statement, so one transaction: the stream's row (locked by its upsert, so appends to one
    // stream take turns) numbers the event, the event is inserted, the oldest beyond the cap
    // dropped, and the notification queued; PostgreSQL sends it only when all of it commits.
    const { rows } = await query<{ id: string }>(
      `WITH next AS (
         INSERT INTO paydrop_streams (stream, last_id, expires_at) VALUES ($1, 1, $3)
         ON CONFLICT (stream) DO UPDATE
           SET last_id = paydrop_streams.last_id + 1, expires_at = excluded.expires_at
         RETURNING last_id
       ), inserted AS (
         INSERT INTO paydrop_events (stream, id, value) SELECT $1, last_id, $2 FROM next
       ), trimmed AS (
         DELETE FROM paydrop_events
         WHERE stream = $1 AND id <= (SELECT last_id FROM next) - $4::bigint
       )
       SELECT last_id AS id, pg_notify('${CHANNEL}', last_id || ':' || $1) FROM next`,
      [stream, text, time + streamTtlMs, maxEvents],
    );
    return Number(rows[0]?.id);
  }

  const store: PostgresStore = {
    async ready() {
      usable();
      await ready();
    },
    async get(key) {
      await started();
      const { rows } = await query<{ value: string }>(
        'SELECT value FROM paydrop_values WHERE key = $1 AND expires_at > $2',
        [key, now()],
      );
      return rows[0] === undefined ? undefined : decodeValue(rows[0].value);
    },
    async set(key, value, ttlMs) {
      usable();
      const ms = checkMs('store.set', 'ttlMs', ttlMs);
      const text = encodeValue('store.set', value);
      // The time is taken once started: a first call's connection does not eat into its TTL.
      await started();
      await query(
        `INSERT INTO paydrop_values (key, value, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [key, text, now() + ms],
      );
      wrote();
    },
    async add(key, value, ttlMs) {
      usable();
      const ms = checkMs('store.add', 'ttlMs', ttlMs);
      const text = encodeValue('store.add', value);
      await started();
      const time = now();
      // INSERT … ON CONFLICT: the unique key decides between racing instances, in one statement,
      // with no lock held past it. It does nothing on a live row; a row whose time is up counts as
      // absent, so it is taken over (the WHERE of DO UPDATE) rather than blocking the key until
      // the sweep.
      const result = await query(
        `INSERT INTO paydrop_values (key, value, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
         WHERE paydrop_values.expires_at <= $4`,
        [key, text, time + ms, time],
      );
      wrote();
      return (result.rowCount ?? 0) > 0;
    },
    async delete(key) {
      await query(
        `WITH gone AS (DELETE FROM paydrop_values WHERE key = $1)
         DELETE FROM paydrop_list_entries WHERE key = $1`,
        [key],
      );
    },
    async append(stream, value) {
      usable();
      const text = encodeValue('store.append', value);
      // A subscription here still finding its start: this append comes after it, in its order.
      await watched.get(stream)?.starting;
      await started();
      const id = await appendRow(stream, text, now());
      wrote();
      // Committed: this instance's listeners hear it now, without waiting for the notification.
      const entry = watched.get(stream);
      if (entry) {
        const ready = [...entry.listeners].filter((listener) => listener.ready);
        if (!entry.pulling && ready.every((listener) => listener.last === id - 1)) {
          const event: StoredEvent = { id: String(id), value: decodeValue(text) };
          for (const listener of ready) hear(listener, event);
        } else void pull(stream);
      }
      return String(id);
    },
    async read(stream, afterId) {
      usable();
      // A subscription still finding its start: this read must cover everything up to it.
      await watched.get(stream)?.starting;
      await started();
      const { rows } = await query<{ expires_at: string }>(
        'SELECT expires_at FROM paydrop_streams WHERE stream = $1',
        [stream],
      );
      const row = rows[0];
      if (!row || (Number(row.expires_at) <= now() && !watched.has(stream))) return [];
      return readAfter(stream, parseEventId(afterId));
    },
    subscribe(stream, deliver) {
      usable();
      const listener: Listener = { deliver, last: 0, ready: false };
      let entry = watched.get(stream);
      if (!entry) {
        entry = { listeners: new Set(), starting: undefined, pulling: false, again: false };
        watched.set(stream, entry);
      }
      entry.listeners.add(listener);
      startListeners(stream, entry);
      const mine = entry;
      return () => {
        if (!mine.listeners.delete(listener) || mine.listeners.size > 0) return;
        if (watched.get(stream) === mine) watched.delete(stream);
      };
    },
    async commit(given, how) {
      usable();
      const writes = checkWrites(given);
      if (writes.length === 0) return true;
      // The writes as paydrop_commit reads them: values as their stored text, times whole.
      const streams = new Set<string>();
      const plan = writes.map((write, index) => {
        const where = writePlace(index, write.op);
        switch (write.op) {
          case 'set':
          case 'add':
            return {
              op: write.op,
              key: write.key,
              value: encodeValue(where, write.value),
              ttlMs: checkMs(where, 'ttlMs', write.ttlMs),
            };
          case 'expect':
            return { op: write.op, key: write.key, value: encodeValue(where, write.value) };
          case 'take':
            return { ...write, windowMs: checkMs(where, 'windowMs', write.windowMs) };
          case 'append':
            streams.add(write.stream);
            return { op: write.op, stream: write.stream, value: encodeValue(where, write.value) };
          case 'schedule':
            return {
              op: write.op,
              queue: write.queue,
              key: write.key,
              value: encodeValue(where, write.value),
              dueAt: Math.floor(write.dueAt),
            };
          default:
            return write;
        }
      });
      // A subscription here still finding its start: these appends come after it, in its order.
      for (const stream of streams) await watched.get(stream)?.starting;
      await started();
      const text = JSON.stringify(plan);
      for (let attempt = 1; ; attempt++) {
        try {
          // Not flushed (CommitOptions): synchronous_commit off for this transaction only
          // (set_config's `true`); PostgreSQL reads it when the statement's transaction commits.
          await query(how?.flush === false ? UNFLUSHED_COMMIT : COMMIT, [
            text,
            now(),
            maxEvents,
            streamTtlMs,
          ]);
          break;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (code === ADD_FOUND) return false;
          // Two commits writing the same rows in opposite orders: PostgreSQL ends one of them
          // (deadlock), wholly rolled back, so it is tried again rather than answered 503.
          if (code === DEADLOCK && attempt < COMMIT_ATTEMPTS) continue;
          throw error;
        }
      }
      wrote();
      // Committed: this instance's listeners hear it now, without waiting for the notification.
      for (const stream of streams) if (watched.has(stream)) void pull(stream);
      return true;
    },
    async getMany(given) {
      usable();
      const keys = checkKeys(given);
      if (keys.length === 0) return [];
      await started();
      const { rows } = await query<{ key: string; value: string }>(
        'SELECT key, value FROM paydrop_values WHERE key = ANY($1::text[]) AND expires_at > $2',
        [keys, now()],
      );
      return valuesInKeyOrder(keys, rows);
    },
    async page(list, options) {
      usable();
      const { limit, after } = checkPage(list, options);
      await started();
      // Along the index (list, score DESC, key DESC), joined to the live values: entries whose
      // value is gone are skipped here (and dropped with the value: delete, sweep).
      const { rows } = after
        ? await query<{ key: string; score: number; value: string }>(
            `SELECT entry.key, entry.score, item.value
             FROM paydrop_list_entries AS entry
             JOIN paydrop_values AS item ON item.key = entry.key AND item.expires_at > $2
             WHERE entry.list = $1 AND (entry.score, entry.key) < ($4, $5 COLLATE "C")
             ORDER BY entry.score DESC, entry.key DESC
             LIMIT $3`,
            [list, now(), limit, after.score, after.key],
          )
        : await query<{ key: string; score: number; value: string }>(
            `SELECT entry.key, entry.score, item.value
             FROM paydrop_list_entries AS entry
             JOIN paydrop_values AS item ON item.key = entry.key AND item.expires_at > $2
             WHERE entry.list = $1
             ORDER BY entry.score DESC, entry.key DESC
             LIMIT $3`,
            [list, now(), limit],
          );
      return rows.map(
        (row): PageEntry => ({
          key: row.key,
          score: Number(row.score),
          value: decodeValue(row.value),
        }),
      );
    },
    async schedule(queue, key, value, dueAt) {
      usable();
      checkTime('store.schedule', 'dueAt', dueAt);
      const text = encodeValue('store.schedule', value);
      await query(
        `INSERT INTO paydrop_jobs (queue, key, value, due_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (queue, key) DO UPDATE
           SET value = excluded.value, due_at = excluded.due_at, owner = '', leased_until = 0`,
        [queue, key, text, Math.floor(dueAt)],
      );
    },
    async claim(queue, owner, time, limit, leaseMs) {
      usable();
      checkTime('store.claim', 'now', time);
      const ms = checkMs('store.claim', 'leaseMs', leaseMs);
      const count = Math.floor(limit);
      if (!(count > 0)) return [];
      // FOR UPDATE SKIP LOCKED: instances claiming at once each lock different due rows instead
      // of queueing behind one another's (the pattern of pg-boss, graphile-worker and River). A
      // row another claim has just leased fails the recheck of the WHERE once its lock is free,
      // so no job is claimed twice; the lease is the row's leased_until, so a job whose owner
      // died is due again once it has passed.
      const { rows } = await query<{
        key: string;
        value: string;
        due_at: string;
        attempts: number;
      }>(
        `WITH due AS (
           SELECT key FROM paydrop_jobs
           WHERE queue = $1 AND due_at <= $2 AND leased_until <= $2
           ORDER BY due_at, key
           LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         UPDATE paydrop_jobs AS job
         SET attempts = job.attempts + 1, owner = $4, leased_until = $5
         FROM due WHERE job.queue = $1 AND job.key = due.key
         RETURNING job.key, job.value, job.due_at, job.attempts - 1 AS attempts`,
        [queue, Math.floor(time), count, owner, Math.floor(time) + ms],
      );
      return rows
        .map(
          (row): ScheduledJob => ({
            key: row.key,
            value: decodeValue(row.value),
            dueAt: Number(row.due_at),
            attempts: Number(row.attempts),
          }),
        )
        .sort((a, b) => a.dueAt - b.dueAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async finish(queue, key) {
      await query('DELETE FROM paydrop_jobs WHERE queue = $1 AND key = $2', [queue, key]);
    },
    async pending(queue) {
      const { rows } = await query<{ count: string }>(
        'SELECT count(*) AS count FROM paydrop_jobs WHERE queue = $1',
        [queue],
      );
      return Number(rows[0]?.count ?? 0);
    },
    async lease(name, owner, ttlMs) {
      usable();
      const ms = checkMs('store.lease', 'ttlMs', ttlMs);
      await started();
      const time = now();
      // Taken when free, expired or already ours; the unique name decides a race.
      const result = await query(
        `INSERT INTO paydrop_leases (name, owner, until) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE paydrop_leases.owner = excluded.owner OR paydrop_leases.until <= $4`,
        [name, owner, time + ms, time],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async release(name, owner) {
      await query('DELETE FROM paydrop_leases WHERE name = $1 AND owner = $2', [name, owner]);
    },
    async clear() {
      usable();
      await ready();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const table of [
          'paydrop_values',
          'paydrop_streams',
          'paydrop_events',
          'paydrop_jobs',
          'paydrop_leases',
          'paydrop_list_entries',
        ])
          await client.query(`DELETE FROM ${table}`);
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        client.release(true);
        throw error;
      }
      // Streams count from 1 again.
      for (const entry of watched.values())
        for (const listener of entry.listeners) listener.last = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      watched.clear();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeat) clearInterval(heartbeat);
      const client = listenerClient;
      listenerClient = undefined;
      const ending: Array<Promise<unknown>> = [];
      if (client) {
        client.removeAllListeners('end');
        ending.push(client.end().catch(() => {}));
      }
      // Start-up in flight still finishes with the pool it began on.
      await starting?.catch(() => {});
      await listening?.catch(() => {});
      if (owned) ending.push(pool.end().catch(() => {}));
      await Promise.all(ending);
    },
  };
  return withOutages(store, 'The PostgreSQL store is unavailable', isOutage);
}
