/**
 * What a SQLite store asks better-sqlite3 for, watched where better-sqlite3 runs it (a disk sync
 * cannot be seen from SQL): the transactions it ends (`COMMIT`) and the sync settings it makes
 * (`PRAGMA synchronous`, whether through `pragma()` or a prepared statement), from the call on, in
 * order. Spies on better-sqlite3's prototypes, so
 * the file's `afterEach` must call `vi.restoreAllMocks()`.
 */
import Database from 'better-sqlite3';
import { vi } from 'vitest';

export interface SqliteWatch {
  /** `COMMIT`s run: transactions ended. */
  readonly commits: number;
  /** `synchronous = …` settings made, in order. */
  readonly syncSettings: readonly string[];
}

export function watchSqlite(): SqliteWatch {
  const seen = { commits: 0, syncSettings: [] as string[] };
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as {
    run: (...args: unknown[]) => unknown;
  };
  probe.close();
  const run = Statement.run;
  vi.spyOn(Statement, 'run').mockImplementation(function (
    this: { source: string },
    ...args: unknown[]
  ) {
    if (this.source === 'COMMIT') seen.commits++;
    // The store prepares its sync settings once and runs them.
    const setting = /^PRAGMA (synchronous\b.*)$/i.exec(this.source);
    if (setting?.[1]) seen.syncSettings.push(setting[1]);
    return run.apply(this, args);
  });
  const pragma = Database.prototype.pragma;
  vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
    this: Database.Database,
    source: string,
    options?: Database.PragmaOptions,
  ) {
    if (/^synchronous\b/i.test(source)) seen.syncSettings.push(source);
    return pragma.call(this, source, options);
  });
  return seen;
}
