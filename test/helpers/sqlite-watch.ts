/**
 * What a SQLite store's commits really do, watched where better-sqlite3 runs them (a disk sync
 * cannot be seen from SQL): the transactions it ends (`COMMIT`), and for each the sync level its
 * connection is at as the COMMIT runs, read from the connection itself. That level is what
 * SQLite obeys, whatever the store believes it set: `PRAGMA synchronous = …` takes effect when
 * it is compiled, not when a prepared copy of it is run, which a watch of the settings made
 * could not see. Spies on better-sqlite3's prototypes, so the file's `afterEach` must call
 * `vi.restoreAllMocks()`.
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

export function watchSqlite(): SqliteWatch {
  const seen = { commits: 0, commitLevels: [] as SyncLevel[] };
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as {
    run: (...args: unknown[]) => unknown;
  };
  probe.close();
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
