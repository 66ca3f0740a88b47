/**
 * The store's batch calls (issue 25, item 2: one transaction per call; issue 24, item 3: links
 * as records listed with pagination), one contract for every store as store-contract.test.ts
 * runs its own: memory, SQLite (a real file in a temp folder), Redis (a real redis-server) and
 * PostgreSQL (a real server). `commit` is all or nothing, in order, an `add` that finds its key
 * undoing it all; `getMany` reads several values at once; `page` walks a list newest first.
 * On Redis and PostgreSQL, shared by several instances, also: competing commits from two
 * instances, a subscriber on another instance, and a commit while the server is down.
 */
import { expect, it } from 'vitest';
import type {
  CheckoutStore,
  PageEntry,
  StoredEvent,
  StoreWrite,
} from '../../../src/server/store/store';
import { eachStore } from '../../helpers/each-store';

const HOUR = 3_600_000;

/** What page order means: score down, then key down. */
function pageOrder(a: { score: number; key: string }, b: { score: number; key: string }): number {
  return b.score - a.score || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);
}

/** Every entry of `list`, page after page of `limit`. */
async function pageAll(store: CheckoutStore, list: string, limit: number) {
  const pages: PageEntry[][] = [];
  let after: { score: number; key: string } | undefined;
  for (;;) {
    const page = await store.page(list, after ? { limit, after } : { limit });
    if (page.length === 0) return pages;
    pages.push(page);
    const last = page[page.length - 1] as PageEntry;
    after = { score: last.score, key: last.key };
    if (pages.length > 1000) throw new Error('page never ends');
  }
}

eachStore('commit', (harness) => {
  const open = harness.open;
  const { clock } = harness;

  it('applies every kind of write, in order, and answers true', async () => {
    const store = open();
    await store.set('stale', 'old', HOUR);
    await store.schedule('confirm', 'done-job', { step: 0 }, 50);
    const committed = await store.commit([
      { op: 'set', key: 'payment:R1', value: { orderId: 'o1' }, ttlMs: HOUR },
      { op: 'add', key: 'once:R1', value: 1, ttlMs: HOUR },
      { op: 'set', key: 'payment:R1', value: { orderId: 'o1', status: 'PENDING' }, ttlMs: HOUR },
      { op: 'delete', key: 'stale' },
      { op: 'append', stream: 'events:R1', value: { status: 'PENDING' } },
      { op: 'append', stream: 'events:R1', value: { status: 'SUCCESSFUL' } },
      { op: 'schedule', queue: 'confirm', key: 'R1', value: { reference: 'R1' }, dueAt: 100 },
      { op: 'finish', queue: 'confirm', key: 'done-job' },
      { op: 'index', list: 'links', key: 'payment:R1', score: 7 },
    ]);
    expect(committed).toBe(true);
    expect(await store.get('payment:R1')).toEqual({ orderId: 'o1', status: 'PENDING' });
    expect(await store.get('once:R1')).toBe(1);
    expect(await store.get('stale')).toBeUndefined();
    expect(await store.read('events:R1')).toEqual([
      { id: '1', value: { status: 'PENDING' } },
      { id: '2', value: { status: 'SUCCESSFUL' } },
    ]);
    // A single append after them counts on.
    expect(await store.append('events:R1', 'third')).toBe('3');
    expect(await store.pending('confirm')).toBe(1);
    expect(await store.claim('confirm', 'a', 100, 10, 1000)).toEqual([
      { key: 'R1', value: { reference: 'R1' }, dueAt: 100, attempts: 0 },
    ]);
    expect(await store.page('links', { limit: 10 })).toEqual([
      { key: 'payment:R1', score: 7, value: { orderId: 'o1', status: 'PENDING' } },
    ]);
  });

  it('writes nothing at all, and answers false, when an add finds its key', async () => {
    const store = open();
    await store.set('taken', 'first', HOUR);
    const heard: StoredEvent[] = [];
    const unsubscribe = store.subscribe('events:R2', (event) => heard.push(event));
    // As /events does: what is appended after this read, the subscriber hears.
    await store.read('events:R2');
    const refused = await store.commit([
      { op: 'set', key: 'before', value: 1, ttlMs: HOUR },
      { op: 'append', stream: 'events:R2', value: 'aborted' },
      { op: 'schedule', queue: 'confirm', key: 'R2', value: 1, dueAt: 0 },
      { op: 'index', list: 'links', key: 'before', score: 1 },
      { op: 'add', key: 'taken', value: 'second', ttlMs: HOUR },
      { op: 'set', key: 'after', value: 2, ttlMs: HOUR },
    ]);
    expect(refused).toBe(false);
    expect(await store.getMany(['taken', 'before', 'after'])).toEqual([
      'first',
      undefined,
      undefined,
    ]);
    expect(await store.read('events:R2')).toEqual([]);
    expect(await store.pending('confirm')).toBe(0);
    expect(await store.page('links', { limit: 10 })).toEqual([]);
    // A key set earlier in the same commit is present for an add after it.
    expect(
      await store.commit([
        { op: 'set', key: 'fresh', value: 1, ttlMs: HOUR },
        { op: 'add', key: 'fresh', value: 2, ttlMs: HOUR },
      ]),
    ).toBe(false);
    expect(await store.get('fresh')).toBeUndefined();
    // A key deleted earlier in the same commit is absent for an add after it.
    expect(
      await store.commit([
        { op: 'delete', key: 'taken' },
        { op: 'add', key: 'taken', value: 'second', ttlMs: HOUR },
      ]),
    ).toBe(true);
    expect(await store.get('taken')).toBe('second');
    expect(heard).toEqual([]);
    // The stream counts from 1: the aborted append took no id. And 'kept' is the first event
    // told: an aborted append told late would have come before it.
    await store.commit([{ op: 'append', stream: 'events:R2', value: 'kept' }]);
    await expect.poll(() => heard).toEqual([{ id: '1', value: 'kept' }]);
    unsubscribe();
  });

  it('expects a value, or its absence, and writes nothing when the key holds another', async () => {
    const store = open();
    await store.set('payments', ['R1'], HOUR);
    expect(
      await store.commit([
        { op: 'expect', key: 'payments', value: ['R1'] },
        { op: 'set', key: 'payments', value: ['R1', 'R2'], ttlMs: HOUR },
        { op: 'set', key: 'payment:R2', value: 2, ttlMs: HOUR },
      ]),
    ).toBe(true);
    // What a second caller read before the first wrote is stale now: nothing of it is written.
    expect(
      await store.commit([
        { op: 'set', key: 'payment:R3', value: 3, ttlMs: HOUR },
        { op: 'expect', key: 'payments', value: ['R1'] },
        { op: 'set', key: 'payments', value: ['R1', 'R3'], ttlMs: HOUR },
      ]),
    ).toBe(false);
    expect(await store.getMany(['payments', 'payment:R3'])).toEqual([['R1', 'R2'], undefined]);
    // undefined expects the key absent; a key written earlier in the commit is what it holds.
    const absent: StoreWrite[] = [
      { op: 'expect', key: 'outcome:R1', value: undefined },
      { op: 'set', key: 'reporting:R1', value: true, ttlMs: HOUR },
    ];
    expect(await store.commit(absent)).toBe(true);
    await store.set('outcome:R1', 'SUCCESSFUL', HOUR);
    await store.delete('reporting:R1');
    expect(await store.commit(absent)).toBe(false);
    expect(await store.get('reporting:R1')).toBeUndefined();
    expect(
      await store.commit([
        { op: 'set', key: 'fresh', value: { n: 5 }, ttlMs: HOUR },
        { op: 'expect', key: 'fresh', value: { n: 5 } },
        { op: 'delete', key: 'outcome:R1' },
        { op: 'expect', key: 'outcome:R1', value: undefined },
      ]),
    ).toBe(true);
  });

  it('takes places in a sliding window up to its limit, once per id, and gives them back', async () => {
    const store = open();
    const take = (id: string, at: number, whenFull: 'fail' | 'skip' = 'fail'): StoreWrite => ({
      op: 'take',
      key: 'limit:w',
      id,
      limit: 2,
      at,
      windowMs: HOUR,
      whenFull,
    });
    const start = 1_764_000_000_000;
    expect(await store.commit([take('a', start)])).toBe(true);
    // The same id again is the place it has: not counted twice, not refused.
    expect(await store.commit([take('a', start + 1)])).toBe(true);
    expect(await store.commit([take('b', start + 2)])).toBe(true);
    expect(await store.get('limit:w')).toEqual([
      [start + HOUR, 'a'],
      [start + 2 + HOUR, 'b'],
    ]);
    // Full: 'fail' undoes the whole commit, 'skip' leaves the window and writes the rest.
    expect(
      await store.commit([
        { op: 'set', key: 'with-it', value: 1, ttlMs: HOUR },
        take('c', start + 3),
      ]),
    ).toBe(false);
    expect(await store.get('with-it')).toBeUndefined();
    expect(
      await store.commit([
        take('c', start + 3, 'skip'),
        { op: 'set', key: 'with-it', value: 2, ttlMs: HOUR },
      ]),
    ).toBe(true);
    expect(await store.getMany(['with-it', 'limit:w'])).toEqual([
      2,
      [
        [start + HOUR, 'a'],
        [start + 2 + HOUR, 'b'],
      ],
    ]);
    // A place ends a window after it was taken: the window slides, it does not reset.
    expect(await store.commit([take('c', start + HOUR)])).toBe(true);
    expect(await store.commit([take('d', start + HOUR + 1)])).toBe(false);
    expect(await store.get('limit:w')).toEqual([
      [start + 2 + HOUR, 'b'],
      [start + 2 * HOUR, 'c'],
    ]);
    // Given back: the place is free again; an id holding none changes nothing.
    expect(
      await store.commit([
        { op: 'give', key: 'limit:w', id: 'b' },
        { op: 'give', key: 'limit:w', id: 'nobody' },
      ]),
    ).toBe(true);
    expect(await store.commit([take('d', start + HOUR + 1)])).toBe(true);
    await store.commit([
      { op: 'give', key: 'limit:w', id: 'c' },
      { op: 'give', key: 'limit:w', id: 'd' },
      { op: 'give', key: 'nowhere', id: 'd' },
    ]);
    expect(await store.getMany(['limit:w', 'nowhere'])).toEqual([undefined, undefined]);
  });

  it('keeps a window for its window only, then takes places in it afresh', async () => {
    const store = open();
    const at = clock.monotonic();
    const take: StoreWrite = {
      op: 'take',
      key: 'limit:brief',
      id: 'a',
      limit: 1,
      at,
      windowMs: 40,
      whenFull: 'fail',
    };
    expect(await store.commit([take])).toBe(true);
    // Memory, SQLite and PostgreSQL keep time by the fake clock; Redis by its own, so poll.
    await clock.advance(120);
    await expect.poll(() => store.get('limit:brief')).toBeUndefined();
    // Empty again: a place is free, though the window was full of 'a' when it was last kept.
    expect(await store.commit([{ ...take, id: 'b', at: at + 120, windowMs: HOUR }])).toBe(true);
    expect(await store.get('limit:brief')).toEqual([[at + 120 + HOUR, 'b']]);
  });

  it('counts an expired key as absent for add', async () => {
    const store = open();
    await store.set('short', 'old', 40);
    await clock.advance(120);
    await expect.poll(() => store.get('short')).toBeUndefined();
    expect(
      await store.commit([
        { op: 'add', key: 'short', value: 'new', ttlMs: HOUR },
        { op: 'set', key: 'with-it', value: true, ttlMs: HOUR },
      ]),
    ).toBe(true);
    expect(await store.getMany(['short', 'with-it'])).toEqual(['new', true]);
    // And a key added by a commit expires as a single add's does.
    expect(await store.commit([{ op: 'add', key: 'brief', value: 1, ttlMs: 40 }])).toBe(true);
    expect(await store.commit([{ op: 'add', key: 'brief', value: 2, ttlMs: 40 }])).toBe(false);
    await clock.advance(120);
    await expect.poll(() => store.get('brief')).toBeUndefined();
    expect(await store.commit([{ op: 'add', key: 'brief', value: 3, ttlMs: HOUR }])).toBe(true);
  });

  it('tells subscribers of committed appends, in order, after the commit', async () => {
    const store = open();
    const writer = harness.shared ? open() : store;
    await store.append('events:R3', 'before');
    const heard: StoredEvent[] = [];
    const unsubscribe = store.subscribe('events:R3', (event) => heard.push(event));
    // As /events does: what is appended after this read, the subscriber hears.
    await store.read('events:R3');
    await writer.commit([
      { op: 'append', stream: 'events:R3', value: 'a' },
      { op: 'set', key: 'payment:R3', value: 'paid', ttlMs: HOUR },
      { op: 'append', stream: 'events:R3', value: 'b' },
      { op: 'append', stream: 'events:R4', value: 'elsewhere' },
    ]);
    await writer.commit([{ op: 'append', stream: 'events:R3', value: 'c' }]);
    await expect
      .poll(() => heard)
      .toEqual([
        { id: '2', value: 'a' },
        { id: '3', value: 'b' },
        { id: '4', value: 'c' },
      ]);
    unsubscribe();
  });

  it('answers a commit and an append, and tells the other subscribers, when one subscriber throws', async () => {
    const store = open();
    const heard: unknown[] = [];
    // A subscriber of the merchant's own making that fails: its failure is its own.
    const failing = store.subscribe('events:R9', () => {
      throw new Error('a subscriber fails');
    });
    const listening = store.subscribe('events:R9', (event) => heard.push(event.value));
    await store.read('events:R9');
    expect(await store.commit([{ op: 'append', stream: 'events:R9', value: 'committed' }])).toBe(
      true,
    );
    expect(await store.append('events:R9', 'appended')).toBe('2');
    await expect.poll(() => heard).toEqual(['committed', 'appended']);
    failing();
    listening();
  });

  it('schedules and finishes jobs as the single calls do', async () => {
    const store = open();
    await store.commit([{ op: 'schedule', queue: 'q', key: 'P1', value: { step: 1 }, dueAt: 100 }]);
    expect(await store.claim('q', 'a', 100, 1, 10_000)).toEqual([
      { key: 'P1', value: { step: 1 }, dueAt: 100, attempts: 0 },
    ]);
    // Replacing keeps the attempt count and ends the lease.
    await store.commit([{ op: 'schedule', queue: 'q', key: 'P1', value: { step: 2 }, dueAt: 200 }]);
    expect(await store.claim('q', 'b', 150, 1, 10_000)).toEqual([]);
    expect(await store.claim('q', 'b', 200, 1, 10_000)).toEqual([
      { key: 'P1', value: { step: 2 }, dueAt: 200, attempts: 1 },
    ]);
    await store.commit([
      { op: 'schedule', queue: 'other', key: 'P1', value: 'separate', dueAt: 0 },
      { op: 'finish', queue: 'q', key: 'P1' },
      { op: 'finish', queue: 'q', key: 'never-there' },
    ]);
    expect(await store.pending('q')).toBe(0);
    expect(await store.pending('other')).toBe(1);
  });

  it('indexes a key in a list, and moves it when indexed again', async () => {
    const store = open();
    await store.commit([
      { op: 'set', key: 'link:a', value: 'A', ttlMs: HOUR },
      { op: 'set', key: 'link:b', value: 'B', ttlMs: HOUR },
      { op: 'set', key: 'link:c', value: 'C', ttlMs: HOUR },
      { op: 'index', list: 'links', key: 'link:a', score: 10 },
      { op: 'index', list: 'links', key: 'link:b', score: 20 },
      { op: 'index', list: 'links', key: 'link:c', score: 20 },
      { op: 'index', list: 'other', key: 'link:a', score: 1 },
    ]);
    const keys = async (list: string) =>
      (await store.page(list, { limit: 10 })).map((entry) => `${entry.key}@${entry.score}`);
    expect(await keys('links')).toEqual(['link:c@20', 'link:b@20', 'link:a@10']);
    await store.commit([{ op: 'index', list: 'links', key: 'link:a', score: 30.5 }]);
    expect(await keys('links')).toEqual(['link:a@30.5', 'link:c@20', 'link:b@20']);
    expect(await keys('other')).toEqual(['link:a@1']);
    expect(await store.page('nothing-here', { limit: 10 })).toEqual([]);
  });

  it('pages on from a cursor whose entry was indexed again since, above or below it', async () => {
    const store = open();
    for (const [index, name] of ['a', 'b', 'c', 'd', 'e'].entries())
      await store.commit([
        { op: 'set', key: name, value: name, ttlMs: HOUR },
        { op: 'index', list: 'l', key: name, score: index + 1 },
      ]);
    const names = (page: PageEntry[]) => page.map((entry) => entry.key);
    expect(names(await store.page('l', { limit: 2 }))).toEqual(['e', 'd']);
    // d moves to the top: the next page still starts after where d was.
    await store.commit([{ op: 'index', list: 'l', key: 'd', score: 100 }]);
    expect(names(await store.page('l', { limit: 2, after: { score: 4, key: 'd' } }))).toEqual([
      'c',
      'b',
    ]);
    // b moves below the cursor: it comes again, in its new place.
    await store.commit([{ op: 'index', list: 'l', key: 'b', score: 0.5 }]);
    expect(names(await store.page('l', { limit: 5, after: { score: 2, key: 'b' } }))).toEqual([
      'a',
      'b',
    ]);
    expect(names(await store.page('l', { limit: 10 }))).toEqual(['d', 'e', 'c', 'a', 'b']);
  });

  it('pages through 105 entries, 20 at a time, none twice and none missed, ties by key', async () => {
    const store = open();
    const entries = Array.from({ length: 105 }, (_, index) => ({
      // Seven entries per score: pages end in the middle of a tie.
      key: `link:${String((index * 37) % 105).padStart(3, '0')}`,
      score: 1_700_000_000_000 + Math.floor(index / 7),
    }));
    for (const entry of entries)
      await store.commit([
        { op: 'set', key: entry.key, value: { id: entry.key }, ttlMs: HOUR },
        { op: 'index', list: 'links', key: entry.key, score: entry.score },
      ]);
    const pages = await pageAll(store, 'links', 20);
    expect(pages.map((page) => page.length)).toEqual([20, 20, 20, 20, 20, 5]);
    const expected = [...entries].sort(pageOrder);
    expect(pages.flat()).toEqual(expected.map((entry) => ({ ...entry, value: { id: entry.key } })));
  });

  it('skips entries whose value is gone, and pages on past a cursor whose entry went', async () => {
    const store = open();
    for (let index = 0; index < 10; index++)
      await store.commit([
        { op: 'set', key: `k${index}`, value: index, ttlMs: index === 3 ? 40 : HOUR },
        { op: 'index', list: 'l', key: `k${index}`, score: index },
      ]);
    const first = await store.page('l', { limit: 4 });
    expect(first.map((entry) => entry.key)).toEqual(['k9', 'k8', 'k7', 'k6']);
    await store.delete('k6');
    await store.commit([{ op: 'delete', key: 'k5' }]);
    await clock.advance(120);
    await expect.poll(() => store.get('k3')).toBeUndefined();
    // After k6 (now gone): k5 deleted and k3 expired are skipped.
    const second = await store.page('l', { limit: 3, after: { score: 6, key: 'k6' } });
    expect(second).toEqual([
      { key: 'k4', score: 4, value: 4 },
      { key: 'k2', score: 2, value: 2 },
      { key: 'k1', score: 1, value: 1 },
    ]);
    // A cursor between entries (its key never indexed) works as well.
    expect(
      (await store.page('l', { limit: 2, after: { score: 8, key: 'k8zz' } })).map((e) => e.key),
    ).toEqual(['k8', 'k7']);
    expect((await store.page('l', { limit: 10 })).map((entry) => entry.key)).toEqual([
      'k9',
      'k8',
      'k7',
      'k4',
      'k2',
      'k1',
      'k0',
    ]);
  });

  it('reads several values at once, in the keys order', async () => {
    const store = open();
    await store.commit([
      { op: 'set', key: 'a', value: { n: 1 }, ttlMs: HOUR },
      { op: 'set', key: 'b', value: 'two', ttlMs: HOUR },
      { op: 'set', key: 'gone-soon', value: 3, ttlMs: 40 },
    ]);
    await clock.advance(120);
    await expect.poll(() => store.get('gone-soon')).toBeUndefined();
    expect(await store.getMany(['b', 'missing', 'a', 'gone-soon', 'a'])).toEqual([
      'two',
      undefined,
      { n: 1 },
      undefined,
      { n: 1 },
    ]);
    expect(await store.getMany([])).toEqual([]);
  });

  it('refuses bad writes with a TypeError naming the write and field, writing nothing', async () => {
    const store = open();
    const bad: Array<[unknown, RegExp]> = [
      [{ op: 'set', key: 'k', value: 1, ttlMs: 0 }, /writes\[1\] \(set\).*ttlMs/],
      [{ op: 'add', key: '', value: 1, ttlMs: 1000 }, /writes\[1\] \(add\).*key/],
      [{ op: 'append', stream: 7, value: 1 }, /writes\[1\] \(append\).*stream/],
      [
        { op: 'schedule', queue: 'q', key: 'j', value: 1, dueAt: Number.NaN },
        /\(schedule\).*dueAt/,
      ],
      [{ op: 'finish', queue: 'q' }, /writes\[1\] \(finish\).*key/],
      [{ op: 'index', list: 'l', key: 'k', score: Number.POSITIVE_INFINITY }, /\(index\).*score/],
      [
        { op: 'take', key: 'k', id: 'a', limit: 0, at: 1, windowMs: 1000, whenFull: 'fail' },
        /writes\[1\] \(take\).*limit/,
      ],
      [
        { op: 'take', key: 'k', id: 'a', limit: 1, at: 1, windowMs: 1000, whenFull: 'wait' },
        /writes\[1\] \(take\).*whenFull/,
      ],
      [{ op: 'give', key: 'k' }, /writes\[1\] \(give\).*id/],
      [{ op: 'increment', key: 'k' }, /writes\[1\]\.op must be one of/],
      [null, /writes\[1\] must be an object/],
    ];
    for (const [write, message] of bad) {
      const writes = [{ op: 'set', key: 'first', value: 1, ttlMs: HOUR }, write];
      const failure = await store.commit(writes as StoreWrite[]).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TypeError);
      expect(String(failure)).toMatch(/^TypeError: store\.commit: /);
      expect(String(failure)).toMatch(message);
    }
    await expect(store.commit('set' as never)).rejects.toThrow(/writes must be an array/);
    await expect(store.getMany('a' as never)).rejects.toThrow(TypeError);
    await expect(store.page('l', { limit: 0 })).rejects.toThrow(/store\.page: limit/);
    await expect(
      store.page('l', { limit: 5, after: { score: Number.NaN, key: 'k' } }),
    ).rejects.toThrow(/store\.page: after\.score/);
    expect(await store.get('first')).toBeUndefined();
  });

  it('makes an unflushed commit like any other: all or nothing, seen by another instance at once', async () => {
    const [store, other] = [open(), harness.shared ? open() : undefined];
    const at = clock.monotonic();
    const guards = (id: string) => [
      { op: 'take', key: 'window:o1', id, limit: 2, at, windowMs: HOUR, whenFull: 'fail' } as const,
      { op: 'add', key: 'lock:o1', value: id, ttlMs: HOUR } as const,
    ];
    expect(await store.commit(guards('a'), { flush: false })).toBe(true);
    // Another instance sees the lock at once, and its own guards fail on it, writing nothing.
    const second = other ?? store;
    expect(await second.get('lock:o1')).toBe('a');
    expect(await second.commit(guards('b'), { flush: false })).toBe(false);
    expect(await store.get('window:o1')).toEqual([[at + HOUR, 'a']]);
    // The call's closing commit, flushed, releases it; the next call takes it afresh.
    expect(
      await second.commit([
        { op: 'delete', key: 'lock:o1' },
        { op: 'set', key: 'payment:R1', value: { orderId: 'o1' }, ttlMs: HOUR },
      ]),
    ).toBe(true);
    expect(await store.commit(guards('c'), { flush: false })).toBe(true);
    expect(await store.getMany(['lock:o1', 'payment:R1'])).toEqual(['c', { orderId: 'o1' }]);
  });

  it('takes an empty commit as done', async () => {
    const store = open();
    expect(await store.commit([])).toBe(true);
    expect(await store.getMany([])).toEqual([]);
  });

  it('lets exactly one of two instances committing the same add win; the loser wrote nothing', async (context) => {
    if (!harness.outage) return context.skip();
    const [a, b] = [open(), open()];
    const attempt = (store: CheckoutStore, who: string, round: number) =>
      store.commit([
        { op: 'set', key: `side:${round}:${who}`, value: who, ttlMs: HOUR },
        { op: 'append', stream: `events:${round}:${who}`, value: who },
        { op: 'index', list: `race:${round}`, key: `side:${round}:${who}`, score: 1 },
        { op: 'add', key: `order:${round}`, value: who, ttlMs: HOUR },
        { op: 'schedule', queue: `jobs:${round}`, key: who, value: who, dueAt: 0 },
      ]);
    for (let round = 0; round < 20; round++) {
      const [first, second] = await Promise.all([attempt(a, 'a', round), attempt(b, 'b', round)]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      const winner = first ? 'a' : 'b';
      const loser = first ? 'b' : 'a';
      expect(await a.get(`order:${round}`)).toBe(winner);
      expect(await b.getMany([`side:${round}:${winner}`, `side:${round}:${loser}`])).toEqual([
        winner,
        undefined,
      ]);
      expect(await a.read(`events:${round}:${loser}`)).toEqual([]);
      expect((await b.read(`events:${round}:${winner}`)).map((event) => event.value)).toEqual([
        winner,
      ]);
      expect((await a.page(`race:${round}`, { limit: 5 })).map((entry) => entry.key)).toEqual([
        `side:${round}:${winner}`,
      ]);
      expect(await b.pending(`jobs:${round}`)).toBe(1);
    }
  });

  it('lets two instances taking places in one window together count exactly its limit', async (context) => {
    if (!harness.outage) return context.skip();
    const [a, b] = [open(), open()];
    const at = clock.monotonic();
    const take = (store: CheckoutStore, id: string) =>
      store.commit([
        { op: 'take', key: 'limit:shared', id, limit: 5, at, windowMs: HOUR, whenFull: 'fail' },
        { op: 'set', key: `attempt:${id}`, value: id, ttlMs: HOUR },
      ]);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => take(index % 2 ? a : b, `id-${index}`)),
    );
    expect(answers.filter(Boolean)).toHaveLength(5);
    const window = (await a.get('limit:shared')) as Array<[number, string]>;
    const winners = answers.flatMap((taken, index) => (taken ? [`id-${index}`] : []));
    expect(window.map(([, id]) => id).sort()).toEqual(winners.sort());
    expect(
      (await b.getMany(answers.map((_, index) => `attempt:id-${index}`))).filter(Boolean),
    ).toHaveLength(5);
  });

  it('has an expect wait for a write of its key in flight, and see what it wrote', async (context) => {
    if (!harness.inFlight) return context.skip();
    const store = open();
    // An outcome being written (with its lock let go) while another reporter takes the lock
    // and expects no outcome: it must not report a second time.
    const writing = await harness.inFlight('outcome:R9', '"SUCCESSFUL"');
    const second = store.commit([
      { op: 'add', key: 'reporting:R9', value: true, ttlMs: HOUR },
      { op: 'expect', key: 'outcome:R9', value: undefined },
    ]);
    // The commit waits for the write in flight (a plain read would pass it, seeing no outcome).
    await expect.poll(() => writing.blocked(), { interval: 20 }).toBe(1);
    await writing.land();
    expect(await second).toBe(false);
    expect(await store.getMany(['reporting:R9', 'outcome:R9'])).toEqual([undefined, 'SUCCESSFUL']);
  });

  it('commits two instances writing the same keys in opposite orders, both wholly', async (context) => {
    if (!harness.outage) return context.skip();
    const [a, b] = [open(), open()];
    const writes = (who: string, keys: string[]): StoreWrite[] =>
      keys.map((key) => ({ op: 'set', key, value: who, ttlMs: HOUR }));
    for (let round = 0; round < 3; round++) {
      // Many keys, so that the two transactions overlap and meet in the middle.
      const keys = Array.from({ length: 200 }, (_, index) => `key:${round}:${index}`);
      const answers = await Promise.all([
        a.commit(writes('a', keys)),
        b.commit(writes('b', [...keys].reverse())),
      ]);
      expect(answers).toEqual([true, true]);
      // One commit came wholly after the other: every key holds the same writer's value.
      const values = await a.getMany(keys);
      expect(new Set(values).size).toBe(1);
    }
  });

  it('wakes a subscriber on another instance with a committed append, never an aborted one', async (context) => {
    if (!harness.outage) return context.skip();
    const [holder, writer] = [open(), open()];
    await writer.set('taken', 1, HOUR);
    const heard: StoredEvent[] = [];
    const unsubscribe = holder.subscribe('events:R7', (event) => heard.push(event));
    await holder.read('events:R7');
    expect(
      await writer.commit([
        { op: 'append', stream: 'events:R7', value: 'aborted' },
        { op: 'add', key: 'taken', value: 2, ttlMs: HOUR },
      ]),
    ).toBe(false);
    expect(
      await writer.commit([
        { op: 'append', stream: 'events:R7', value: { status: 'SUCCESSFUL' } },
        { op: 'set', key: 'payment:R7', value: 'paid', ttlMs: HOUR },
      ]),
    ).toBe(true);
    await expect.poll(() => heard).toEqual([{ id: '1', value: { status: 'SUCCESSFUL' } }]);
    // One more append, heard next: nothing else was told in between, nor twice.
    await writer.append('events:R7', 'witness');
    await expect.poll(() => heard.length).toBe(2);
    expect(heard).toEqual([
      { id: '1', value: { status: 'SUCCESSFUL' } },
      { id: '2', value: 'witness' },
    ]);
    unsubscribe();
  });

  it('fails a commit while the server is down with StoreUnavailableError, and it never lands', async (context) => {
    const outage = harness.outage;
    if (!outage) return context.skip();
    const store = open(outage.open);
    await store.set('before', 'kept', HOUR);
    await outage.down();
    try {
      const failure = await store
        .commit([
          { op: 'set', key: 'during', value: 'lost', ttlMs: HOUR },
          { op: 'append', stream: 'events:R8', value: 'lost' },
          { op: 'add', key: 'once:R8', value: 1, ttlMs: HOUR },
        ])
        .catch((error: unknown) => error);
      expect((failure as Error).name).toBe('StoreUnavailableError');
    } finally {
      await outage.up();
    }
    await expect
      .poll(
        async () =>
          store.get('probe').then(
            () => 'up',
            () => 'down',
          ),
        {
          timeout: 15_000,
          interval: 200,
        },
      )
      .toBe('up');
    // A command queued while the server was down would be replayed on reconnection ahead of
    // any sent after it: the probe that answered above went after it, so no wait is needed.
    expect(await store.getMany(['during', 'once:R8'])).toEqual([undefined, undefined]);
    expect(await store.read('events:R8')).toEqual([]);
    // And the store commits again.
    expect(await store.commit([{ op: 'add', key: 'once:R8', value: 2, ttlMs: HOUR }])).toBe(true);
  });
});
