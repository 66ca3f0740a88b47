// A companion on a Node that aborts better-sqlite3 12 at a random garbage collection refuses to
// start instead, naming the fix (src/server/store/sqlite/driver-check.ts).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  checkDriver,
  isNodeApiDriver,
  nodeAbortsOldDriver,
} from '../../../src/server/store/sqlite/driver-check';

class Release12 {}
class Release13 {
  explain(): void {}
}

describe('better-sqlite3 and the Node it runs on', () => {
  it('knows which Nodes abort release 12 (24.19 on, and later majors)', () => {
    for (const version of ['v20.19.0', 'v22.12.0', 'v24.0.0', 'v24.18.9'])
      expect(nodeAbortsOldDriver(version), version).toBe(false);
    for (const version of ['v24.19.0', 'v24.21.0', '25.0.0', 'v26.3.0'])
      expect(nodeAbortsOldDriver(version), version).toBe(true);
  });

  it('tells release 13 from 12 by what it has', () => {
    expect(isNodeApiDriver(Release12)).toBe(false);
    expect(isNodeApiDriver(Release13)).toBe(true);
  });

  it('refuses release 12 on Node 24.19, naming the fix, and lets every other pair start', () => {
    expect(() => checkDriver(Release12, 'v24.21.0')).toThrow(/install better-sqlite3@\^13/);
    expect(() => checkDriver(Release13, 'v24.21.0')).not.toThrow();
    expect(() => checkDriver(Release12, 'v20.19.0')).not.toThrow();
    expect(() => checkDriver(Release12, 'v24.18.0')).not.toThrow();
  });

  it('passes the driver this run loaded on the Node it runs on', () => {
    expect(() => checkDriver(Database)).not.toThrow();
  });
});
