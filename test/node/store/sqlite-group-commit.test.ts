/**
 * The SQLite store's group commit (issue 25): the commits asked for in one turn of the event loop
 * are written in one transaction, one savepoint each, with one sync. On a real SQLite file; the
 * transactions are counted where better-sqlite3 runs its statements (BEGIN, COMMIT, SAVEPOINT).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import type { StoreWrite } from '../../../src/server/store/store';
import { StoreUnavailableError } from '../../../src/server/store/store-unavailable';
import { failSqlite, watchSqlite } from '../../helpers/sqlite-watch';

const HOUR = 3_600_000;
const folder = mkdtempSync(join(tmpdir(), 'paydrop-group-commit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
let files = 0;
const path = () => join(folder, `checkout-${++files}.db`);

const order = (id: number): StoreWrite[] => [
  { op: 'add', key: `lock:${id % 5}`, value: id, ttlMs: HOUR },
  { op: 'set', key: `payment:${id}`, value: { id }, ttlMs: HOUR },
  { op: 'append', stream: 'events', value: id },
];

it('writes the commits asked for together in one transaction; one refused by its guard is undone alone', async () => {
  const store = createSqliteStore({ path: path() });
  try {
    const seen = watchSqlite();
    // Ten commits at once on five locks: the first of each lock wins, the second finds it taken.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, id) => store.commit(order(id))),
    );
    expect(answers).toEqual([true, true, true, true, true, false, false, false, false, false]);
    expect(seen.commits).toBe(1);
    expect(
      await store.getMany(['lock:0', 'lock:4', 'payment:4', 'payment:5', 'payment:9']),
    ).toEqual([0, 4, { id: 4 }, undefined, undefined]);
    // The winners' appends, in the order asked; none of the refused ones'.
    expect((await store.read('events')).map((event) => event.value)).toEqual([0, 1, 2, 3, 4]);
  } finally {
    await store.close();
  }
});

it('tells a subscriber of each committed append after the batch, in order', async () => {
  const store = createSqliteStore({ path: path() });
  try {
    const heard: unknown[] = [];
    store.subscribe('events', (event) => heard.push(event.value));
    const pending = Promise.all([
      store.commit(order(0)),
      store.commit(order(5)),
      store.commit(order(1)),
    ]);
    expect(heard).toEqual([]);
    expect(await pending).toEqual([true, false, true]);
    expect(heard).toEqual([0, 1]);
  } finally {
    await store.close();
  }
});

it('syncs a batch unless every commit in it is unflushed', async () => {
  const store = createSqliteStore({ path: path() });
  try {
    const seen = watchSqlite();
    await Promise.all([
      store.commit(order(0), { flush: false }),
      store.commit(order(1), { flush: false }),
    ]);
    await Promise.all([store.commit(order(2), { flush: false }), store.commit(order(3))]);
    expect(seen.commitLevels).toEqual(['NORMAL', 'FULL']);
  } finally {
    await store.close();
  }
});

it('fails every commit of a batch that cannot be written, and tells no subscriber', async () => {
  const file = path();
  const store = createSqliteStore({ path: file, busyTimeoutMs: 50 });
  const other = new Database(file);
  try {
    const heard: unknown[] = [];
    store.subscribe('events', (event) => heard.push(event.value));
    // Another process holds the write lock past the store's busy timeout.
    other.exec('BEGIN EXCLUSIVE');
    const answers = await Promise.allSettled([store.commit(order(0)), store.commit(order(1))]);
    expect(answers).toEqual([
      { status: 'rejected', reason: expect.any(StoreUnavailableError) },
      { status: 'rejected', reason: expect.any(StoreUnavailableError) },
    ]);
    other.exec('ROLLBACK');
    expect(heard).toEqual([]);
    expect(await store.getMany(['payment:0', 'payment:1'])).toEqual([undefined, undefined]);
    // Once the lock is gone, the same commits go through.
    expect(await Promise.all([store.commit(order(0)), store.commit(order(1))])).toEqual([
      true,
      true,
    ]);
    expect(heard).toEqual([0, 1]);
  } finally {
    other.close();
    await store.close();
  }
});

it('writes the commits asked for before close(), and refuses those after', async () => {
  const file = path();
  const store = createSqliteStore({ path: file });
  const asked = store.commit(order(7));
  await store.close();
  expect(await asked).toBe(true);
  await expect(store.commit(order(8))).rejects.toThrow(/closed/);
  const again = createSqliteStore({ path: file });
  try {
    expect(await again.get('payment:7')).toEqual({ id: 7 });
  } finally {
    await again.close();
  }
});

it('is not held back by a test’s fake timers', async () => {
  vi.useFakeTimers();
  const store = createSqliteStore({ path: path() });
  try {
    expect(await store.commit(order(1))).toBe(true);
    expect(await store.get('payment:1')).toEqual({ id: 1 });
  } finally {
    await store.close();
  }
});

it('keeps a commit, and the process, when the sweep of expired rows after it fails', async () => {
  const store = createSqliteStore({ path: path() });
  try {
    // The sweep that follows every 256th write finds the file busy (another process holding it
    // past the busy timeout).
    const sweeps = failSqlite('DELETE FROM store_values WHERE expires_at', 'SQLITE_BUSY');
    const heard: unknown[] = [];
    store.subscribe('events', (event) => heard.push(event.value));
    const paid = (id: number): StoreWrite[] => [
      { op: 'set', key: `payment:${id}`, value: { id }, ttlMs: HOUR },
      { op: 'append', stream: 'events', value: id },
    ];
    for (let id = 0; id < 256; id++) expect(await store.commit(paid(id))).toBe(true);
    // The 256th commit was followed by the sweep, which failed: the commit stands, and was told.
    expect(sweeps.failures).toBe(1);
    expect(heard).toHaveLength(256);
    expect(await store.getMany(['payment:255'])).toEqual([{ id: 255 }]);
    // A write outside the group commit, when the sweep after it fails, is not failed either.
    for (let index = 0; index < 256; index++) await store.set(`key:${index}`, index, HOUR);
    expect(sweeps.failures).toBe(2);
    expect(await store.get('key:255')).toBe(255);
  } finally {
    await store.close();
  }
});
