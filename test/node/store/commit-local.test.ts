/**
 * The batch calls (commit, getMany, page) on the stores of one process: memory, and SQLite on a
 * real file in a temp folder (issue 24 item 3, issue 25 item 2). Redis and PostgreSQL are proved
 * by the shared contract in store-commit.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import {
  type CheckoutStore,
  createMemoryStore,
  type StoredEvent,
  type StoreWrite,
} from '../../../src/server/store/store';

const folder = mkdtempSync(join(tmpdir(), 'paydrop-commit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

const kinds: Array<[string, (now: () => number) => CheckoutStore]> = [
  ['memory', (now) => createMemoryStore({ now })],
  ['SQLite', (now) => createSqliteStore({ path: join(folder, `store-${++files}.db`), now })],
];

describe.each(kinds)('%s store: commit, getMany, page', (_name, create) => {
  let time = 1_000_000;
  const now = () => time;
  let store: CheckoutStore;
  const open = () => {
    store = create(now);
    return store;
  };
  afterEach(async () => {
    await store.close();
  });

  it('writes nothing at all when an add finds its key, not even the writes before it', async () => {
    open();
    await store.set('taken', 'first', 60_000);
    const heard: StoredEvent[] = [];
    store.subscribe('events:R1', (event) => heard.push(event));
    const writes: StoreWrite[] = [
      { op: 'set', key: 'payment:R1', value: { amount: 5 }, ttlMs: 60_000 },
      { op: 'append', stream: 'events:R1', value: { status: 'paid' } },
      { op: 'schedule', queue: 'confirm', key: 'R1', value: { tries: 0 }, dueAt: time },
      { op: 'index', list: 'links', key: 'payment:R1', score: 1 },
      { op: 'add', key: 'taken', value: 'second', ttlMs: 60_000 },
    ];
    expect(await store.commit(writes)).toBe(false);
    expect(await store.getMany(['payment:R1', 'taken'])).toEqual([undefined, 'first']);
    expect(await store.read('events:R1')).toEqual([]);
    expect(await store.pending('confirm')).toBe(0);
    expect(await store.page('links', { limit: 10 })).toEqual([]);
    expect(heard).toEqual([]);

    // The same writes once the key is free: all of them, in order.
    await store.delete('taken');
    expect(await store.commit(writes)).toBe(true);
    expect(await store.getMany(['payment:R1', 'taken'])).toEqual([{ amount: 5 }, 'second']);
    expect((await store.read('events:R1')).map((event) => event.value)).toEqual([
      { status: 'paid' },
    ]);
    expect(await store.pending('confirm')).toBe(1);
    expect(await store.page('links', { limit: 10 })).toEqual([
      { key: 'payment:R1', score: 1, value: { amount: 5 } },
    ]);
  });

  it('sees the writes before an add in the same commit, and counts an expired key as absent', async () => {
    open();
    expect(
      await store.commit([
        { op: 'set', key: 'k', value: 1, ttlMs: 60_000 },
        { op: 'add', key: 'k', value: 2, ttlMs: 60_000 },
      ]),
    ).toBe(false);
    expect(await store.getMany(['k'])).toEqual([undefined]);
    expect(
      await store.commit([
        { op: 'add', key: 'once', value: 'a', ttlMs: 1000 },
        { op: 'delete', key: 'once' },
        { op: 'add', key: 'once', value: 'b', ttlMs: 1000 },
      ]),
    ).toBe(true);
    expect(await store.getMany(['once'])).toEqual(['b']);
    time += 1000;
    expect(await store.commit([{ op: 'add', key: 'once', value: 'c', ttlMs: 1000 }])).toBe(true);
    expect(await store.getMany(['once'])).toEqual(['c']);
    expect(await store.commit([])).toBe(true);
  });

  it('tells subscribers of the appends of a commit in order (a commit refused by an add: none)', async () => {
    open();
    const heard: StoredEvent[] = [];
    store.subscribe('events:R2', (event) => heard.push(event));
    await store.append('events:R2', 'zero');
    await store.commit([
      { op: 'append', stream: 'events:R2', value: 'one' },
      { op: 'append', stream: 'events:R2', value: 'two' },
      { op: 'set', key: 'after-appends', value: 'written', ttlMs: 60_000 },
    ]);
    // The append comes before the add that refuses the commit: heard then, it would be a lie.
    await store.commit([
      { op: 'append', stream: 'events:R2', value: 'never' },
      { op: 'add', key: 'after-appends', value: 'again', ttlMs: 60_000 },
    ]);
    expect(heard).toEqual([
      { id: '1', value: 'zero' },
      { id: '2', value: 'one' },
      { id: '3', value: 'two' },
    ]);
    expect((await store.read('events:R2', '1')).map((event) => event.value)).toEqual([
      'one',
      'two',
    ]);
  });

  it('reads several keys in their order, undefined where absent or expired', async () => {
    open();
    await store.set('a', { n: 1 }, 60_000);
    await store.set('short', 'gone soon', 10);
    await store.set('c', [3], 60_000);
    time += 10;
    expect(await store.getMany(['c', 'missing', 'a', 'short', 'a'])).toEqual([
      [3],
      undefined,
      { n: 1 },
      undefined,
      { n: 1 },
    ]);
    expect(await store.getMany([])).toEqual([]);
    // Past a few keys SQLite takes another statement: the same answers, in order.
    const many = Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? 'a' : `none-${n}`));
    expect(await store.getMany(many)).toEqual(
      many.map((key) => (key === 'a' ? { n: 1 } : undefined)),
    );
  });

  it('pages through 105 entries by 20, equal scores too, with none repeated or missed', async () => {
    open();
    const writes: StoreWrite[] = [];
    for (let n = 0; n < 105; n++) {
      const key = `link:${String(n).padStart(3, '0')}`;
      writes.push({ op: 'set', key, value: { n }, ttlMs: 60_000 });
      // Eleven entries share each score: a page boundary falls inside a tie.
      writes.push({ op: 'index', list: 'links', key, score: Math.floor(n / 11) });
    }
    expect(await store.commit(writes)).toBe(true);
    const seen: Array<{ key: string; score: number }> = [];
    const sizes: number[] = [];
    let after: { score: number; key: string } | undefined;
    for (;;) {
      const page = await store.page('links', { limit: 20, ...(after ? { after } : {}) });
      sizes.push(page.length);
      if (page.length === 0) break;
      for (const entry of page) {
        expect(entry.value).toEqual({ n: Number(entry.key.slice(5)) });
        seen.push({ key: entry.key, score: entry.score });
      }
      const last = page.at(-1) as { score: number; key: string };
      after = { score: last.score, key: last.key };
    }
    expect(sizes).toEqual([20, 20, 20, 20, 20, 5, 0]);
    const expected = Array.from({ length: 105 }, (_, n) => ({
      key: `link:${String(104 - n).padStart(3, '0')}`,
      score: Math.floor((104 - n) / 11),
    }));
    expect(seen).toEqual(expected);
  });

  it('skips entries whose value is gone, and moves an entry when indexed again', async () => {
    open();
    for (const [key, score] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      await store.commit([
        { op: 'set', key, value: key.toUpperCase(), ttlMs: key === 'b' ? 10 : 60_000 },
        { op: 'index', list: 'letters', key, score },
      ]);
    await store.delete('c');
    time += 10;
    expect(await store.page('letters', { limit: 1 })).toEqual([{ key: 'd', score: 4, value: 'D' }]);
    // c and b are gone: the page reads past them to fill itself.
    expect(await store.page('letters', { limit: 1, after: { score: 4, key: 'd' } })).toEqual([
      { key: 'a', score: 1, value: 'A' },
    ]);
    await store.commit([{ op: 'index', list: 'letters', key: 'a', score: 9 }]);
    expect((await store.page('letters', { limit: 10 })).map((entry) => entry.key)).toEqual([
      'a',
      'd',
    ]);
    expect(await store.page('other', { limit: 10 })).toEqual([]);
  });

  it('refuses bad arguments with a TypeError naming the op and the field', async () => {
    open();
    const refusals: Array<[() => Promise<unknown>, string]> = [
      [() => store.commit('set' as never), 'store.commit: writes must be an array'],
      [() => store.commit([null as never]), 'store.commit: writes[0] must be an object'],
      [
        () => store.commit([{ op: 'put', key: 'k' } as never]),
        'store.commit: writes[0].op must be one of set, add, delete, append, schedule, finish, index',
      ],
      [
        () => store.commit([{ op: 'set', key: '', value: 1, ttlMs: 1 }]),
        'store.commit: writes[0] (set): key must be a non-empty string',
      ],
      [
        () =>
          store.commit([
            { op: 'delete', key: 'k' },
            { op: 'add', key: 'k', value: 1, ttlMs: 0 },
          ]),
        'store.commit: writes[1] (add): ttlMs must be a positive number of milliseconds',
      ],
      [
        () => store.commit([{ op: 'append', stream: 7 as never, value: 1 }]),
        'store.commit: writes[0] (append): stream must be a non-empty string',
      ],
      [
        () => store.commit([{ op: 'schedule', queue: 'q', key: 'k', value: 1, dueAt: Number.NaN }]),
        'store.commit: writes[0] (schedule): dueAt must be a finite epoch time in ms',
      ],
      [
        () => store.commit([{ op: 'finish', queue: '', key: 'k' }]),
        'store.commit: writes[0] (finish): queue must be a non-empty string',
      ],
      [
        () => store.commit([{ op: 'index', list: 'l', key: 'k', score: Infinity }]),
        'store.commit: writes[0] (index): score must be a finite number',
      ],
      [() => store.getMany('a' as never), 'store.getMany: keys must be an array'],
      [() => store.getMany(['a', 3 as never]), 'store.getMany: keys[1] must be a non-empty string'],
      [() => store.page('', { limit: 1 }), 'store.page: list must be a non-empty string'],
      [() => store.page('l', { limit: 0 }), 'store.page: limit must be a whole number from 1'],
      [
        () => store.page('l', { limit: 5, after: { score: 1, key: '' } }),
        'store.page: after.key must be a non-empty string',
      ],
      [
        () => store.page('l', { limit: 5, after: { score: Number.NaN, key: 'k' } }),
        'store.page: after.score must be a finite number',
      ],
    ];
    for (const [call, message] of refusals) {
      const error = await call().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error, message).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(message);
    }
    // None of the refused commits wrote anything.
    expect(await store.getMany(['k'])).toEqual([undefined]);
  });
});

describe('SQLite store: the batch calls on the file', () => {
  it('keeps a list across a reopen, and refuses a value JSON cannot carry before writing', async () => {
    const path = join(folder, 'reopen.db');
    const first = createSqliteStore({ path });
    await first.commit([
      { op: 'set', key: 'link:1', value: { alias: 'one' }, ttlMs: 60_000 },
      { op: 'index', list: 'links', key: 'link:1', score: 5 },
    ]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      first.commit([
        { op: 'set', key: 'link:2', value: 2, ttlMs: 60_000 },
        { op: 'set', key: 'link:3', value: cyclic, ttlMs: 60_000 },
      ]),
    ).rejects.toThrow(
      new TypeError('store.commit: writes[1] (set): the value cannot be stored as JSON'),
    );
    await first.close();
    const second = createSqliteStore({ path });
    expect(await second.page('links', { limit: 5 })).toEqual([
      { key: 'link:1', score: 5, value: { alias: 'one' } },
    ]);
    expect(await second.getMany(['link:2'])).toEqual([undefined]);
    await second.close();
  });
});
