/**
 * better-sqlite3 before release 13 subclasses Node's ObjectWrap, whose destructor, from Node
 * 24.19 on, checks for a live environment: when the garbage collector finalizes a statement
 * outside one, the process aborts ("Assertion failed: (env) != nullptr", Statement::~Statement).
 * Release 13 is built on Node-API and does not. A companion that would die at some random
 * collection, mid-payment, refuses to start instead, naming the fix.
 */

/** True when this Node aborts on better-sqlite3 12's statement finalizer. */
export function nodeAbortsOldDriver(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 19);
}

/**
 * Whether the loaded better-sqlite3 is release 13 or later. Its version is not exported, so it
 * is told by what it has: `Database.prototype.explain` arrived with 13.
 */
export function isNodeApiDriver(database: { prototype: object }): boolean {
  return 'explain' in database.prototype;
}

/** Throws, naming the fix, when this Node and this better-sqlite3 would abort together. */
export function checkDriver(
  database: { prototype: object },
  nodeVersion: string = process.version,
): void {
  if (nodeAbortsOldDriver(nodeVersion) && !isNodeApiDriver(database)) {
    throw new Error(
      `paydrop/server/sqlite: better-sqlite3 before 13 aborts Node ${nodeVersion} when it garbage-collects a statement; install better-sqlite3@^13 (npm i better-sqlite3@^13)`,
    );
  }
}
