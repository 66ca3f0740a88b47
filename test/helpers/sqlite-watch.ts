/**
 * What a SQLite store's commits really do, watched where better-sqlite3 runs them (a disk sync
 * cannot be seen from SQL): the transactions it ends (`COMMIT`), and for each the sync level its
 * connection is at as the COMMIT runs, read from the connection itself. That level is what
 * SQLite obeys, whatever the store believes it set: `PRAGMA synchronous = …` takes effect when
 * it is compiled, not when a prepared copy of it is run, which a watch of the settings made
 * could not see. Also: statements made to fail (`failSqlite`). Both spy on better-sqlite3's
 * prototypes, so the file's `afterEach` must call `vi.restoreAllMocks()`.
 */
import Database from 'better-sqlite3';
import { vi } from 'vitest';

/** SQLite's sync levels, by the number `PRAGMA synchronous` answers. */
const LEVELS = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;
export type SyncLevel = (typeof LEVELS)[number];

export interface SqliteWatch {
  /** `COMMIT`s run: transactions ended. */
  readonly commits: number;
  /** The sync level of each of those commits, in order: FULL syncs the log, NORMAL does not. */
  readonly commitLevels: readonly SyncLevel[];
}

/** better-sqlite3's Statement prototype: every statement's `run` is its `run`. */
function statementPrototype(): { run: (...args: unknown[]) => unknown } {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  return prototype;
}

export function watchSqlite(): SqliteWatch {
  const seen = { commits: 0, commitLevels: [] as SyncLevel[] };
  const Statement = statementPrototype();
  const run = Statement.run;
  vi.spyOn(Statement, 'run').mockImplementation(function (
    this: { source: string; database: Database.Database },
    ...args: unknown[]
  ) {
    if (this.source === 'COMMIT') {
      seen.commits++;
      const level = this.database.pragma('synchronous', { simple: true }) as number;
      seen.commitLevels.push(LEVELS[level] ?? 'OFF');
    }
    return run.apply(this, args);
  });
  return seen;
}

/**
 * Every statement run from now on whose SQL starts with `sqlStart` fails with SQLite's error
 * `code` (e.g. SQLITE_BUSY: another process holding the file past the busy timeout), as
 * better-sqlite3 throws it. Answers how many have failed so far.
 */
export function failSqlite(sqlStart: string, code: string): { readonly failures: number } {
  const failed = { failures: 0 };
  const Statement = statementPrototype();
  const run = Statement.run;
  vi.spyOn(Statement, 'run').mockImplementation(function (
    this: { source: string },
    ...args: unknown[]
  ) {
    if (!this.source.startsWith(sqlStart)) return run.apply(this, args);
    failed.failures++;
    throw Object.assign(new Error(`${code}: made to fail by the test`), { code });
  });
  return failed;
}
