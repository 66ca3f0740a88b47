/**
 * The durable store for one instance: a SQLite file on the merchant's own disk through
 * better-sqlite3, nothing else to install or run. WAL mode, so readers never wait for the writer
 * and a commit is one append to the log; every logical step (an add, an append with its trim, a
 * claim of several jobs) is one transaction, so a process killed at any point leaves each step
 * done or not done, never half.
 *
 * One server: the data is shared by every connection to the file, so several processes on one
 * machine (Node's cluster, PM2) see each other's values, jobs and leases, and the locks keep
 * claims exclusive. `subscribe` hears appends through this store object at once, and those of
 * other processes within `pollMs` (it watches the file's data_version while anyone listens).
 * Several machines need the Redis store: SQLite's locks do not hold over network file systems.
 */
import { mkdirSync, statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { CheckoutStore, PageEntry, ScheduledJob, StoredEvent, StoreWrite } from '../store';
import { withOutages } from '../store-unavailable';
import { afterGive, afterTake } from '../store-window';
import { checkKeys, checkPage, checkWrites, writePlace } from '../store-writes';
import {
  checkMs,
  checkTime,
  decodeValue,
  encodeValue,
  parseEventId,
  valuesInKeyOrder,
} from '../stored-value';
import { checkDriver } from './driver-check';
import { migrate } from './migrations';

/**
 * The event loop's next turn, after the I/O it has ready (the commits of a batch come from
 * several requests' callbacks): the process's own setImmediate, taken when this module loads,
 * so a test's fake timers installed later do not hold the store's commits back.
 */
const nextTurn = globalThis.setImmediate;

export interface SqliteStoreOptions {
  /**
   * The database file, created with its folder when missing (e.g. `.paydrop/checkout.db`).
   * `:memory:` gives a private database that lasts as long as the store (tests only).
   */
  readonly path: string;
  /**
   * `full` (default): every commit is synced to the disk, so a committed step survives the process
   * being killed and a power cut alike (about 0.2–1 ms a write on this project's machine), but for
   * a commit made with `flush: false` (an initiation's guards; see CommitOptions). `normal`
   * syncs less often: a killed process still loses nothing committed, but a power cut may undo the
   * last steps before it (the file stays consistent) — an outcome reported again, say.
   */
  readonly durability?: 'normal' | 'full' | undefined;
  /** How long to wait for another process's write lock before failing, in ms. Default 5000. */
  readonly busyTimeoutMs?: number | undefined;
  /** Events kept per stream (oldest dropped first). Default 100. */
  readonly maxEventsPerStream?: number | undefined;
  /** How long an idle stream is kept, in ms. Default 24 hours. */
  readonly streamTtlMs?: number | undefined;
  /**
   * How often, while someone is subscribed, to look for events appended by other processes on the
   * same file, in ms. Default 100.
   */
  readonly pollMs?: number | undefined;
  /** The clock used for expiry and leases (tests). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * The write-ahead log is cut back to this size after each checkpoint, in bytes, so a burst of
   * writes (or a long read holding checkpoints back) does not leave it at its largest for ever.
   * Checkpoints run every 1,000 pages (about 4 MB) written. Default 64 MB.
   */
  readonly maxWalBytes?: number | undefined;
  /**
   * Free disk space wanted where the file lives, in bytes: below it, a warning at start-up says
   * how much there is and how much is wanted (a full disk fails every write: the companion then
   * answers 503). Default 256 MB.
   */
  readonly minFreeDiskBytes?: number | undefined;
  /** Where that warning goes. Default console. */
  readonly logger?: { warn(message: string, details?: Record<string, unknown>): void } | undefined;
}

const WHERE = 'createSqliteStore';
const MAX_WAL_BYTES = 64 * 1024 * 1024;
const MIN_FREE_DISK_BYTES = 256 * 1024 * 1024;
/** Pages written between automatic checkpoints (SQLite's default, set so it is not left to chance). */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

/**
 * SQLite's failures that mean "not now" rather than a bug: locked past the busy timeout, the
 * disk full or failing, the file unopenable or read-only. The companion answers them 503.
 */
function isOutage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|PROTOCOL|NOLFS)/.test(code)
  );
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value).toLocaleString('en')} ${units[unit]}`;
}

/** A warning at start-up when the file's disk has less free space than `wanted`. */
function checkHeadroom(
  path: string,
  wanted: number,
  logger: NonNullable<SqliteStoreOptions['logger']>,
): void {
  let free: number;
  try {
    const stats = statfsSync(dirname(resolve(path)));
    free = stats.bavail * stats.bsize;
  } catch {
    return; // No statfs on this platform or file system: nothing to say.
  }
  if (free >= wanted) return;
  logger.warn(
    `paydrop: the disk holding ${path} has ${formatBytes(free)} free; the SQLite store wants at least ${formatBytes(wanted)} (its write-ahead log grows up to maxWalBytes between checkpoints, the database with every payment, and a full disk fails every payment with 503). Free some space, or set minFreeDiskBytes.`,
    { path, freeBytes: free, minFreeDiskBytes: wanted },
  );
}
/** Writes between sweeps of expired rows (expiry is also checked on every read). */
const SWEEP_EVERY = 256;
/** Up to this many keys, getMany binds them as parameters (see fewKeys). */
const FEW_KEYS = 16;
/** Appends remembered for other processes' subscribers (they look every `pollMs`). */
const APPENDS_KEPT = 10_000;

interface Listener {
  readonly deliver: (event: StoredEvent) => void;
  /** The id of the last event this listener heard. */
  last: number;
}

function checkOptions(options: SqliteStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${WHERE}: pass { path }, e.g. { path: '.paydrop/checkout.db' }`);
  if (typeof options.path !== 'string' || options.path.trim() === '')
    throw new TypeError(
      `${WHERE}: path must be the database file's path, e.g. '.paydrop/checkout.db'`,
    );
  if (options.durability !== undefined && !['normal', 'full'].includes(options.durability))
    throw new TypeError(`${WHERE}: durability must be 'normal' or 'full'`);
  for (const name of [
    'busyTimeoutMs',
    'maxEventsPerStream',
    'streamTtlMs',
    'pollMs',
    'maxWalBytes',
    'minFreeDiskBytes',
  ] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new TypeError(`${WHERE}: ${name} must be a positive integer`);
  }
  if (options.logger !== undefined && typeof options.logger?.warn !== 'function')
    throw new TypeError(`${WHERE}: logger must have a warn(message) method`);
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new TypeError(`${WHERE}: now must be a function returning epoch ms`);
}

function open(path: string, busyTimeoutMs: number): Database.Database {
  if (path !== ':memory:') {
    const file = resolve(path);
    try {
      if (statSync(file, { throwIfNoEntry: false })?.isDirectory())
        throw new Error(`${path} is a directory; give the path of a file inside it`);
      mkdirSync(dirname(file), { recursive: true });
    } catch (error) {
      throw new Error(`${WHERE}: cannot use ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  try {
    return new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw new Error(`${WHERE}: cannot open ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * `createSqliteStore(path)` is short for `createSqliteStore({ path })`.
 *
 * @example
 * import { createCheckoutHandler } from 'paydrop/server';
 * import { createSqliteStore } from 'paydrop/server/sqlite';
 *
 * const checkout = createCheckoutHandler({
 *   // …
 *   store: createSqliteStore({ path: '.paydrop/checkout.db' }),
 * });
 */
export function createSqliteStore(options: SqliteStoreOptions | string): CheckoutStore {
  if (typeof options === 'string') return createSqliteStore({ path: options });
  checkOptions(options);
  checkDriver(Database);
  const now = options.now ?? Date.now;
  const maxEvents = options.maxEventsPerStream ?? 100;
  const streamTtlMs = options.streamTtlMs ?? 24 * 3600 * 1000;
  const pollMs = options.pollMs ?? 100;
  const db = open(options.path, options.busyTimeoutMs ?? 5000);
  const durability = options.durability === 'normal' ? 'NORMAL' : 'FULL';
  try {
    // WAL: readers never block the writer, and a commit is an append, not a rewrite.
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
    // The log is checkpointed every WAL_AUTOCHECKPOINT_PAGES and cut back to maxWalBytes after.
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${options.maxWalBytes ?? MAX_WAL_BYTES}`);
    db.pragma(`synchronous = ${durability}`);
    migrate(db, options.path);
  } catch (error) {
    db.close();
    if (error instanceof Error && error.message.startsWith(WHERE)) throw error;
    throw new Error(`${WHERE}: ${options.path} is not a usable database: ${String(error)}`, {
      cause: error,
    });
  }

  if (options.path !== ':memory:')
    checkHeadroom(
      options.path,
      options.minFreeDiskBytes ?? MIN_FREE_DISK_BYTES,
      options.logger ?? { warn: (message) => console.warn(message) },
    );

  const sql = {
    get: db.prepare('SELECT value FROM store_values WHERE key = ? AND expires_at > ?').pluck(),
    // Read every pollMs while anyone listens: prepared once too.
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    set: db.prepare(
      `INSERT INTO store_values (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    ),
    // One statement: inserted when absent, or replacing a row that has expired; else nothing.
    add: db.prepare(
      `INSERT INTO store_values (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE store_values.expires_at <= ?`,
    ),
    delete: db.prepare('DELETE FROM store_values WHERE key = ?'),
    // A window a place was given back in: its value changes, its expiry stays.
    setValue: db.prepare('UPDATE store_values SET value = ? WHERE key = ?'),
    stream: db.prepare('SELECT last_id, expires_at FROM store_streams WHERE stream = ?'),
    upsertStream: db.prepare(
      `INSERT INTO store_streams (stream, last_id, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET last_id = excluded.last_id, expires_at = excluded.expires_at`,
    ),
    insertEvent: db.prepare('INSERT INTO store_events (stream, id, value) VALUES (?, ?, ?)'),
    noteAppend: db.prepare('INSERT INTO store_appends (stream, id) VALUES (?, ?)'),
    appendsAfter: db.prepare('SELECT seq, stream FROM store_appends WHERE seq > ? ORDER BY seq'),
    lastAppend: db.prepare('SELECT coalesce(max(seq), 0) FROM store_appends').pluck(),
    trimEvents: db.prepare('DELETE FROM store_events WHERE stream = ? AND id <= ?'),
    read: db.prepare('SELECT id, value FROM store_events WHERE stream = ? AND id > ? ORDER BY id'),
    schedule: db.prepare(
      `INSERT INTO store_jobs (queue, key, value, due_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (queue, key) DO UPDATE SET value = excluded.value, due_at = excluded.due_at,
         owner = '', leased_until = 0`,
    ),
    due: db.prepare(
      `SELECT key, value, due_at AS dueAt, attempts FROM store_jobs
       WHERE queue = ? AND due_at <= ? AND leased_until <= ? ORDER BY due_at, key LIMIT ?`,
    ),
    leaseJob: db.prepare(
      `UPDATE store_jobs SET attempts = attempts + 1, owner = ?, leased_until = ?
       WHERE queue = ? AND key = ?`,
    ),
    finish: db.prepare('DELETE FROM store_jobs WHERE queue = ? AND key = ?'),
    pending: db.prepare('SELECT count(*) FROM store_jobs WHERE queue = ?').pluck(),
    lease: db.prepare(
      `INSERT INTO store_leases (name, owner, until) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
       WHERE store_leases.owner = excluded.owner OR store_leases.until <= ?`,
    ),
    release: db.prepare('DELETE FROM store_leases WHERE name = ? AND owner = ?'),
    // Every key of the call in one statement, the keys passed as one JSON array.
    getMany: db.prepare(
      `SELECT key, value FROM store_values
       WHERE key IN (SELECT value FROM json_each(?)) AND expires_at > ?`,
    ),
    index: db.prepare(
      `INSERT INTO store_lists (list, score, key) VALUES (?, ?, ?)
       ON CONFLICT (list, key) DO UPDATE SET score = excluded.score`,
    ),
    // A page walks the primary key (list, score, key) backwards from the cursor; the value comes
    // along, or NULL when it is gone (then skipped, and its entry dropped).
    pageFirst: db.prepare(
      `SELECT l.key, l.score, v.value, v.expires_at AS expiresAt FROM store_lists l
       LEFT JOIN store_values v ON v.key = l.key
       WHERE l.list = ? ORDER BY l.score DESC, l.key DESC LIMIT ?`,
    ),
    pageAfter: db.prepare(
      `SELECT l.key, l.score, v.value, v.expires_at AS expiresAt FROM store_lists l
       LEFT JOIN store_values v ON v.key = l.key
       WHERE l.list = ? AND (l.score < ? OR (l.score = ? AND l.key < ?))
       ORDER BY l.score DESC, l.key DESC LIMIT ?`,
    ),
    unindex: db.prepare('DELETE FROM store_lists WHERE list = ? AND key = ?'),
  };

  // A few keys (what a call reads together) bind as parameters, one prepared statement per
  // count: cheaper than a JSON array through json_each, the way for any number past that.
  const fewKeyStatements: Database.Statement[] = [];
  function fewKeys(count: number): Database.Statement {
    let statement = fewKeyStatements[count];
    if (!statement) {
      statement = db.prepare(
        `SELECT key, value FROM store_values
         WHERE key IN (${Array(count).fill('?').join(', ')}) AND expires_at > ?`,
      );
      fewKeyStatements[count] = statement;
    }
    return statement;
  }

  const listeners = new Map<string, Set<Listener>>();
  let closed = false;
  let poller: ReturnType<typeof setInterval> | undefined;
  let dataVersion = 0;
  let seenAppend = 0;
  let writes = 0;

  function usable(): void {
    if (closed) throw new Error(`${WHERE}: the store is closed`);
  }

  const sweep = db.transaction((time: number) => {
    db.prepare('DELETE FROM store_values WHERE expires_at <= ?').run(time);
    db.prepare('DELETE FROM store_leases WHERE until <= ?').run(time);
    const expired = db
      .prepare('SELECT stream FROM store_streams WHERE expires_at <= ?')
      .pluck()
      .all(time) as string[];
    db.prepare('DELETE FROM store_appends WHERE seq <= ?').run(
      (sql.lastAppend.get() as number) - APPENDS_KEPT,
    );
    for (const stream of expired) {
      // A stream someone is listening to is kept, as in memory.
      if (listeners.has(stream)) continue;
      db.prepare('DELETE FROM store_events WHERE stream = ?').run(stream);
      db.prepare('DELETE FROM store_streams WHERE stream = ?').run(stream);
    }
  });
  /**
   * Counts a write, and sweeps after every SWEEP_EVERY. A sweep that fails (the file locked by
   * another process past the busy timeout, the disk full) never fails the write it follows: that
   * write is committed, and the group commit calls this between settling its commits, from a
   * callback of the event loop, where a throw would leave the rest unanswered and end the
   * process. Reads check expiry themselves; the next sweep catches up.
   */
  function wrote(): void {
    if (++writes % SWEEP_EVERY !== 0) return;
    try {
      sweep(now());
    } catch {
      // Left for the next sweep.
    }
  }

  /** The rows of one append; inside a transaction (the append's own, or a commit's). */
  function appendRows(stream: string, text: string, time: number): number {
    const row = sql.stream.get(stream) as { last_id: number } | undefined;
    // Ids keep counting past an idle stream's expiry, so a browser's Last-Event-ID stays behind.
    const id = (row?.last_id ?? 0) + 1;
    sql.upsertStream.run(stream, id, time + streamTtlMs);
    sql.insertEvent.run(stream, id, text);
    sql.noteAppend.run(stream, id);
    sql.trimEvents.run(stream, id - maxEvents);
    return id;
  }
  const append = db.transaction(appendRows);

  /** A commit's write with its value already encoded (so a bad value fails before the BEGIN). */
  type EncodedWrite = StoreWrite & { readonly text: string };
  /**
   * Thrown inside a commit's transaction when a guard fails (an add finds its key, an expect is
   * not met, a window is full): rolls the whole commit back.
   */
  const KEY_PRESENT = Symbol('key present');
  const commitWrites = (writes: readonly EncodedWrite[], time: number) => {
    const appended: Array<{ stream: string; id: number; text: string }> = [];
    for (const write of writes) {
      switch (write.op) {
        case 'set':
          sql.set.run(write.key, write.text, time + write.ttlMs);
          break;
        case 'add':
          if (sql.add.run(write.key, write.text, time + write.ttlMs, time).changes === 0)
            throw KEY_PRESENT;
          break;
        case 'delete':
          sql.delete.run(write.key);
          break;
        case 'expect': {
          const held = sql.get.get(write.key, time) as string | undefined;
          if ((held ?? '') !== write.text) throw KEY_PRESENT;
          break;
        }
        case 'take': {
          const held = sql.get.get(write.key, time) as string | undefined;
          const next = afterTake(held === undefined ? undefined : decodeValue(held), write);
          if (next === 'full') throw KEY_PRESENT;
          if (next !== 'same')
            sql.set.run(write.key, JSON.stringify(next), time + Math.ceil(write.windowMs));
          break;
        }
        case 'give': {
          const held = sql.get.get(write.key, time) as string | undefined;
          const next = afterGive(held === undefined ? undefined : decodeValue(held), write.id);
          if (next === 'same') break;
          if (next.length > 0) sql.setValue.run(JSON.stringify(next), write.key);
          else sql.delete.run(write.key);
          break;
        }
        case 'append':
          appended.push({
            stream: write.stream,
            id: appendRows(write.stream, write.text, time),
            text: write.text,
          });
          break;
        case 'schedule':
          sql.schedule.run(write.queue, write.key, write.text, Math.floor(write.dueAt));
          break;
        case 'finish':
          sql.finish.run(write.queue, write.key);
          break;
        case 'index':
          sql.index.run(write.list, write.score, write.key);
          break;
      }
    }
    return appended;
  };
  /** One commit's writes as a savepoint of its own inside a batch: undone alone when refused. */
  const commit = db.transaction(commitWrites);

  /**
   * Group commit (issue 25): the commits asked for in one turn of the event loop are written
   * together, in the order asked, in one transaction, each in a savepoint of its own, so one
   * refused by its guard is undone alone; one sync covers them all (none when every one of them
   * is unflushed). Under load a start's commit shares its sync and its locks with others:
   * 0.42-0.59x to 0.64-0.71x the bare proxy's starts per second in bench/checkout-starts.ts
   * (session 12). A caller still sees its commit done, or refused, before it goes on; a read
   * meanwhile sees the store as another instance would, without the commit in flight.
   */
  interface Queued {
    readonly writes: readonly EncodedWrite[];
    readonly unsynced: boolean;
    readonly resolve: (committed: boolean) => void;
    readonly reject: (error: unknown) => void;
    outcome?:
      | { appended: Array<{ stream: string; id: number; text: string }> }
      | { error: unknown };
  }
  let queued: Queued[] = [];
  /**
   * The connection's sync level, set with `exec`: `PRAGMA synchronous = …` takes effect when it
   * is compiled, so a statement prepared once would set its level at `prepare` (the last one
   * prepared winning) and not when run. `exec` compiles it every time, ~1 µs; `db.pragma()`
   * also reads its answer's columns, ~16 µs.
   */
  function setSync(level: 'NORMAL' | 'FULL'): void {
    db.exec(`PRAGMA synchronous = ${level}`);
  }
  const batch = db.transaction((items: readonly Queued[]) => {
    if (items.length === 1) {
      const [item] = items as [Queued];
      item.outcome = { appended: commitWrites(item.writes, now()) };
      return;
    }
    for (const item of items) {
      try {
        item.outcome = { appended: commit(item.writes, now()) };
      } catch (error) {
        item.outcome = { error };
      }
    }
  });
  function runQueued(): void {
    const items = queued;
    if (items.length === 0) return;
    queued = [];
    // Unflushed (CommitOptions) only when all of them are: this batch skips the sync; the next
    // synced one syncs the log with it in, as the log is one file written in order.
    const unsynced = durability === 'FULL' && items.every((item) => item.unsynced);
    if (unsynced) setSync('NORMAL');
    try {
      batch.immediate(items);
    } catch (error) {
      // A lone commit refused by its guard (a batch of several undoes only the refused one's
      // savepoint), or the batch failing as a whole (a lock held too long, a full disk): rolled
      // back, whatever each of them had done, so each ends as the batch did.
      for (const item of items) item.outcome = { error };
    } finally {
      if (unsynced) setSync('FULL');
    }
    for (const item of items) {
      const outcome = item.outcome;
      if (!outcome || 'error' in outcome) {
        const error = outcome?.error;
        if (error === KEY_PRESENT) item.resolve(false);
        else item.reject(error);
        continue;
      }
      wrote();
      // After the commit, in order: a listener never hears of an event that could still roll back.
      for (const { stream, id, text } of outcome.appended) {
        const event: StoredEvent = { id: String(id), value: decodeValue(text) };
        for (const listener of listeners.get(stream) ?? []) hear(listener, event);
      }
      item.resolve(true);
    }
  }

  const claim = db.transaction(
    (queue: string, owner: string, time: number, limit: number, leaseMs: number) => {
      const due = sql.due.all(queue, time, time, limit) as Array<{
        key: string;
        value: string;
        dueAt: number;
        attempts: number;
      }>;
      for (const job of due) sql.leaseJob.run(owner, time + leaseMs, queue, job.key);
      return due;
    },
  );

  function readAfter(stream: string, after: number): StoredEvent[] {
    const rows = sql.read.all(stream, after) as Array<{ id: number; value: string }>;
    return rows.map((event) => ({ id: String(event.id), value: decodeValue(event.value) }));
  }

  function hear(listener: Listener, event: StoredEvent): void {
    const id = Number(event.id);
    if (id <= listener.last) return;
    listener.last = id;
    try {
      listener.deliver(event);
    } catch {
      // A listener's failure is its own: the others still hear the event, and the commit that
      // made it (settled from an event loop callback, see runQueued) is still answered.
    }
  }

  /** Another process committed: tell this one's subscribers what it appended to their streams. */
  function lookForAppends(): void {
    if (closed) return;
    try {
      // data_version changes only when another connection commits: one cheap call when idle.
      const version = sql.dataVersion.get() as number;
      if (version === dataVersion) return;
      dataVersion = version;
      const appends = sql.appendsAfter.all(seenAppend) as Array<{ seq: number; stream: string }>;
      // Rows swept before this process saw them: look at every stream listened to.
      const missed = appends.length > 0 && (appends[0]?.seq ?? 0) > seenAppend + 1;
      seenAppend = appends.at(-1)?.seq ?? seenAppend;
      const grown = missed ? [...listeners.keys()] : new Set(appends.map((row) => row.stream));
      for (const stream of grown) {
        const set = listeners.get(stream);
        if (!set) continue;
        const from = Math.min(...[...set].map((listener) => listener.last));
        for (const event of readAfter(stream, from))
          for (const listener of set) hear(listener, event);
      }
    } catch {
      // The file is busy or gone for a moment: look again at the next tick.
    }
  }

  function watch(): void {
    if (poller || closed) return;
    dataVersion = sql.dataVersion.get() as number;
    seenAppend = sql.lastAppend.get() as number;
    poller = setInterval(lookForAppends, pollMs);
    // Watching must not keep a process alive on its own.
    poller.unref?.();
  }

  function unwatch(): void {
    if (poller && listeners.size === 0) {
      clearInterval(poller);
      poller = undefined;
    }
  }

  const dropEntries = db.transaction((list: string, keys: readonly string[]) => {
    for (const key of keys) sql.unindex.run(list, key);
  });

  const clear = db.transaction(() => {
    for (const table of [
      'store_values',
      'store_streams',
      'store_events',
      'store_jobs',
      'store_leases',
      'store_appends',
      'store_lists',
    ])
      db.prepare(`DELETE FROM ${table}`).run();
  });

  const store: CheckoutStore = {
    async get(key) {
      usable();
      const text = sql.get.get(key, now()) as string | undefined;
      return text === undefined ? undefined : decodeValue(text);
    },
    async set(key, value, ttlMs) {
      usable();
      const ms = checkMs('store.set', 'ttlMs', ttlMs);
      sql.set.run(key, encodeValue('store.set', value), now() + ms);
      wrote();
    },
    async add(key, value, ttlMs) {
      usable();
      const ms = checkMs('store.add', 'ttlMs', ttlMs);
      const time = now();
      const added = sql.add.run(key, encodeValue('store.add', value), time + ms, time).changes > 0;
      wrote();
      return added;
    },
    async delete(key) {
      usable();
      sql.delete.run(key);
    },
    async append(stream, value) {
      usable();
      const text = encodeValue('store.append', value);
      const id = String(append.immediate(stream, text, now()));
      wrote();
      // After the commit: a listener never hears of an event that could still roll back.
      const event: StoredEvent = { id, value: decodeValue(text) };
      for (const listener of listeners.get(stream) ?? []) hear(listener, event);
      return id;
    },
    async read(stream, afterId) {
      usable();
      const row = sql.stream.get(stream) as { expires_at: number } | undefined;
      if (!row || (row.expires_at <= now() && !listeners.has(stream))) return [];
      return readAfter(stream, parseEventId(afterId));
    },
    async commit(given, how) {
      usable();
      const writes = checkWrites(given).map((write, index): EncodedWrite => {
        const where = writePlace(index, write.op);
        const value = 'value' in write ? write.value : undefined;
        const text = 'value' in write ? encodeValue(where, value) : '';
        return 'ttlMs' in write
          ? { ...write, ttlMs: checkMs(where, 'ttlMs', write.ttlMs), text }
          : { ...write, text };
      });
      if (writes.length === 0) return true;
      return new Promise<boolean>((resolve, reject) => {
        queued.push({ writes, unsynced: how?.flush === false, resolve, reject });
        if (queued.length === 1) nextTurn(runQueued);
      });
    },
    async getMany(given) {
      usable();
      const keys = checkKeys(given);
      if (keys.length === 0) return [];
      const rows = (
        keys.length <= FEW_KEYS
          ? fewKeys(keys.length).all(...keys, now())
          : sql.getMany.all(JSON.stringify(keys), now())
      ) as Array<{ key: string; value: string }>;
      return valuesInKeyOrder(keys, rows);
    },
    async page(list, options) {
      usable();
      const { limit, after } = checkPage(list, options);
      const time = now();
      const entries: PageEntry[] = [];
      const gone: string[] = [];
      let cursor = after;
      // Entries whose value is gone do not count towards the page: read on past them.
      while (entries.length < limit) {
        const want = limit - entries.length;
        const rows = (
          cursor
            ? sql.pageAfter.all(list, cursor.score, cursor.score, cursor.key, want)
            : sql.pageFirst.all(list, want)
        ) as Array<{ key: string; score: number; value: string | null; expiresAt: number | null }>;
        for (const row of rows) {
          if (row.value === null || (row.expiresAt ?? 0) <= time) gone.push(row.key);
          else entries.push({ key: row.key, score: row.score, value: decodeValue(row.value) });
        }
        const last = rows.at(-1);
        if (!last || rows.length < want) break;
        cursor = { score: last.score, key: last.key };
      }
      if (gone.length > 0) dropEntries(list, gone);
      return entries;
    },
    subscribe(stream, deliver) {
      usable();
      watch();
      // Synchronous: nothing can be appended between this and the caller's next read.
      const row = sql.stream.get(stream) as { last_id: number } | undefined;
      const listener: Listener = { deliver, last: row?.last_id ?? 0 };
      const set = listeners.get(stream) ?? new Set();
      listeners.set(stream, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(stream) === set) listeners.delete(stream);
        unwatch();
      };
    },
    async schedule(queue, key, value, dueAt) {
      usable();
      checkTime('store.schedule', 'dueAt', dueAt);
      sql.schedule.run(queue, key, encodeValue('store.schedule', value), Math.floor(dueAt));
    },
    async claim(queue, owner, time, limit, leaseMs) {
      usable();
      checkTime('store.claim', 'now', time);
      const ms = checkMs('store.claim', 'leaseMs', leaseMs);
      const count = Math.floor(limit);
      if (!(count > 0)) return [];
      return claim.immediate(queue, owner, time, count, ms).map(
        (job): ScheduledJob => ({
          key: job.key,
          value: decodeValue(job.value),
          dueAt: job.dueAt,
          attempts: job.attempts,
        }),
      );
    },
    async finish(queue, key) {
      usable();
      sql.finish.run(queue, key);
    },
    async pending(queue) {
      usable();
      return sql.pending.get(queue) as number;
    },
    async lease(name, owner, ttlMs) {
      usable();
      const ms = checkMs('store.lease', 'ttlMs', ttlMs);
      const time = now();
      return sql.lease.run(name, owner, time + ms, time).changes > 0;
    },
    async release(name, owner) {
      usable();
      sql.release.run(name, owner);
    },
    async clear() {
      usable();
      clear.immediate();
      // Streams count from 1 again.
      for (const set of listeners.values()) for (const listener of set) listener.last = 0;
    },
    async close() {
      if (closed) return;
      // Commits asked for before the close are written, not dropped.
      runQueued();
      closed = true;
      listeners.clear();
      unwatch();
      db.close();
    },
  };
  return withOutages(store, 'The SQLite store cannot read or write', isOutage);
}
