/**
 * One contract for every CheckoutStore: memory, SQLite (a real file in a temp folder), Redis
 * (a real redis-server on a free loopback port) and PostgreSQL (a real server, initdb in a temp
 * folder, on a free loopback port). Where a store can be opened twice on the same data (two
 * SQLite connections to one file, two Redis clients, two PostgreSQL pools), the second store
 * object plays another instance of the companion.
 */
import { expect, it } from 'vitest';
import type { CheckoutStore, StoredEvent } from '../../../src/server/store/store';
import { eachStore } from '../../helpers/each-store';

eachStore('contract', (harness) => {
  const open = harness.open;
  const { clock } = harness;

  it('keeps values of every JSON shape, and deletes them', async () => {
    const store = open();
    const values = [{ reference: 'R1', amount: { minor: 250_050 } }, 'text', 42, true, null, [1]];
    for (const [index, value] of values.entries()) await store.set(`k${index}`, value, 60_000);
    for (const [index, value] of values.entries())
      expect(await store.get(`k${index}`)).toEqual(value);
    expect(await store.get('missing')).toBeUndefined();
    await store.delete('k0');
    expect(await store.get('k0')).toBeUndefined();
    await store.set('k1', 'replaced', 60_000);
    expect(await store.get('k1')).toBe('replaced');
  });

  it('forgets a value once its time is up, and add may take the key again', async () => {
    const store = open();
    // Redis counts the time itself: 2 s, so that a loaded machine still reads the value back
    // before it expires (40 ms did not, once, beside a second copy of the suite).
    await store.set('short', 'v', 2000);
    expect(await store.add('short-add', 1, 2000)).toBe(true);
    expect(await store.add('short-add', 2, 2000)).toBe(false);
    expect(await store.get('short')).toBe('v');
    await clock.advance(2100);
    await expect.poll(() => store.get('short')).toBeUndefined();
    await expect.poll(() => store.get('short-add')).toBeUndefined();
    expect(await store.add('short-add', 3, 60_000)).toBe(true);
    expect(await store.get('short-add')).toBe(3);
  });

  it('adds exactly once under concurrency, across instances', async () => {
    const stores = harness.shared ? [open(), open()] : [open()];
    const attempts = Array.from({ length: 40 }, (_, index) =>
      stores[index % stores.length]?.add('once', index, 60_000),
    );
    const wins = (await Promise.all(attempts)).filter(Boolean);
    expect(wins).toHaveLength(1);
    // And per key, over many keys at once.
    const keys = Array.from({ length: 50 }, (_, index) => `order:${index}`);
    const results = await Promise.all(
      keys.flatMap((key) => stores.concat(stores).map((store) => store.add(key, 1, 60_000))),
    );
    expect(results.filter(Boolean)).toHaveLength(keys.length);
  });

  it('numbers events 1, 2, 3 and replays what came after a Last-Event-ID', async () => {
    const store = open();
    const ids = [];
    for (const status of ['PENDING', 'SUCCESSFUL', 'DONE'])
      ids.push(await store.append('events:R1', { status }));
    expect(ids).toEqual(['1', '2', '3']);
    expect(await store.read('events:R1')).toEqual([
      { id: '1', value: { status: 'PENDING' } },
      { id: '2', value: { status: 'SUCCESSFUL' } },
      { id: '3', value: { status: 'DONE' } },
    ]);
    expect((await store.read('events:R1', '1')).map((event) => event.id)).toEqual(['2', '3']);
    expect(await store.read('events:R1', '3')).toEqual([]);
    // A browser's junk Last-Event-ID replays everything rather than failing.
    expect(await store.read('events:R1', 'junk')).toHaveLength(3);
    expect(await store.read('events:unknown')).toEqual([]);
    expect(await store.append('events:R2', 'other')).toBe('1');
  });

  it('tells subscribers of every event appended after subscribing, until they leave', async () => {
    const store = open();
    await store.append('events:R1', 'before');
    const heard: StoredEvent[] = [];
    const unsubscribe = store.subscribe('events:R1', (event) => heard.push(event));
    const other: StoredEvent[] = [];
    const unsubscribeOther = store.subscribe('events:R2', (event) => other.push(event));
    // Subscribe then read, as /events does: the read returns once the subscriptions know where
    // "from now on" starts, so nothing appended after it can fall between them.
    expect((await store.read('events:R1')).map((event) => event.value)).toEqual(['before']);
    expect(await store.read('events:R2')).toEqual([]);
    await store.append('events:R1', 'a');
    await store.append('events:R1', 'b');
    await expect.poll(() => heard.map((event) => event.value)).toEqual(['a', 'b']);
    expect(heard.map((event) => event.id)).toEqual(['2', '3']);
    unsubscribe();
    // A witness subscribed now hears 'after': by then the subscriber that left would have too.
    const witnessed: StoredEvent[] = [];
    const unsubscribeWitness = store.subscribe('events:R1', (event) => witnessed.push(event));
    await store.read('events:R1');
    await store.append('events:R1', 'after');
    await expect.poll(() => witnessed.map((event) => event.value)).toContain('after');
    unsubscribeWitness();
    expect(heard).toHaveLength(2);
    expect(other).toEqual([]);
    unsubscribeOther();
  });

  it('subscribe then read misses nothing appended in between (the /events pattern)', async () => {
    const store = open();
    const writer = harness.shared ? open() : store;
    const seen = new Map<string, unknown>();
    const unsubscribe = store.subscribe('events:R9', (event) => seen.set(event.id, event.value));
    const appending = Promise.all(
      Array.from({ length: 20 }, (_, index) => writer.append('events:R9', index)),
    );
    for (const event of await store.read('events:R9')) seen.set(event.id, event.value);
    await appending;
    await expect.poll(() => seen.size).toBe(20);
    unsubscribe();
  });

  it('shares values, streams, jobs and leases between instances', async (context) => {
    if (!harness.shared) return context.skip();
    const [a, b] = [open(), open()];
    await a.set('payment:R1', { orderId: 'o1' }, 60_000);
    expect(await b.get('payment:R1')).toEqual({ orderId: 'o1' });
    await a.append('events:R1', 'x');
    expect(await b.append('events:R1', 'y')).toBe('2');
    expect((await a.read('events:R1')).map((event) => event.value)).toEqual(['x', 'y']);
    await a.schedule('confirm', 'R1', { reference: 'R1' }, 1000);
    expect(await b.pending('confirm')).toBe(1);
    expect(await a.lease('sweep', 'a', 60_000)).toBe(true);
    expect(await b.lease('sweep', 'b', 60_000)).toBe(false);
  });

  it('wakes the instance holding the stream when another appends', async (context) => {
    if (!harness.shared) return context.skip();
    const [holder, receiver] = [open(), open()];
    const heard: StoredEvent[] = [];
    const unsubscribe = holder.subscribe('events:R5', (event) => heard.push(event));
    expect(await holder.read('events:R5')).toEqual([]);
    await receiver.append('events:R5', { status: 'SUCCESSFUL' });
    // No store polls for appends (PostgreSQL's heartbeat reads nothing): only the wake-up
    // brings this event, so a generous wait on a loaded machine cannot hide a missing one.
    await expect.poll(() => heard).toEqual([{ id: '1', value: { status: 'SUCCESSFUL' } }]);
    for (let index = 0; index < 10; index++) await receiver.append('events:R5', index);
    await expect.poll(() => heard.length).toBe(11);
    expect(heard.map((event) => Number(event.id))).toEqual(
      Array.from({ length: 11 }, (_, index) => index + 1),
    );
    unsubscribe();
  });

  it('claims each due job for one owner, even with two owners racing', async () => {
    const stores = harness.shared ? [open(), open()] : [open()];
    const [first] = stores as [CheckoutStore];
    const now = 1_000_000;
    for (let index = 0; index < 30; index++)
      await first.schedule('confirm', `R${index}`, { reference: `R${index}` }, now - index);
    await first.schedule('confirm', 'later', { reference: 'later' }, now + 60_000);
    expect(await first.pending('confirm')).toBe(31);
    expect(await first.claim('confirm', 'x', now - 1000, 10, 5000)).toEqual([]);
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (stores[index % stores.length] as CheckoutStore).claim(
          'confirm',
          `owner-${index % 2}`,
          now,
          5,
          5000,
        ),
      ),
    );
    const keys = claims.flat().map((job) => job.key);
    expect(keys).toHaveLength(30);
    expect(new Set(keys).size).toBe(30);
    expect(claims.flat().every((job) => job.attempts === 0)).toBe(true);
    const job = claims.flat().find((claimed) => claimed.key === 'R3');
    expect(job).toEqual({ key: 'R3', value: { reference: 'R3' }, dueAt: now - 3, attempts: 0 });
    // Leased: nobody else gets them until the lease runs out.
    expect(await first.claim('confirm', 'owner-2', now + 4999, 100, 5000)).toEqual([]);
    const again = await first.claim('confirm', 'owner-2', now + 5000, 100, 5000);
    expect(again).toHaveLength(30);
    expect(again.every((claimed) => claimed.attempts === 1)).toBe(true);
    expect(await first.pending('confirm')).toBe(31);
  });

  it('reschedules (keeping attempts, ending the lease) and finishes jobs', async () => {
    const store = open();
    await store.schedule('reconcile', 'P1', { step: 1 }, 100);
    expect(await store.claim('reconcile', 'a', 100, 1, 10_000)).toEqual([
      { key: 'P1', value: { step: 1 }, dueAt: 100, attempts: 0 },
    ]);
    await store.schedule('reconcile', 'P1', { step: 2 }, 200);
    expect(await store.claim('reconcile', 'b', 150, 1, 10_000)).toEqual([]);
    expect(await store.claim('reconcile', 'b', 200, 1, 10_000)).toEqual([
      { key: 'P1', value: { step: 2 }, dueAt: 200, attempts: 1 },
    ]);
    await store.schedule('other', 'P1', 'separate queue', 100);
    await store.finish('reconcile', 'P1');
    await store.finish('reconcile', 'never-there');
    expect(await store.pending('reconcile')).toBe(0);
    expect(await store.claim('reconcile', 'b', 1e15, 10, 10_000)).toEqual([]);
    expect(await store.pending('other')).toBe(1);
    expect(await store.claim('other', 'b', 100, 0, 10_000)).toEqual([]);
  });

  it('holds a named lease for one owner at a time', async () => {
    const stores = harness.shared ? [open(), open()] : [open(), undefined];
    const a = stores[0] as CheckoutStore;
    const b = stores[1] ?? a;
    expect(await a.lease('sweep', 'a', 60_000)).toBe(true);
    expect(await b.lease('sweep', 'b', 60_000)).toBe(false);
    expect(await a.lease('sweep', 'a', 60_000)).toBe(true);
    await b.release('sweep', 'b');
    expect(await b.lease('sweep', 'b', 60_000)).toBe(false);
    await a.release('sweep', 'a');
    expect(await b.lease('sweep', 'b', 40)).toBe(true);
    await clock.advance(120);
    await expect.poll(() => a.lease('sweep', 'a', 60_000)).toBe(true);
    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 ? a : b).lease('race', `o${index}`, 60_000),
      ),
    );
    expect(racing.filter(Boolean)).toHaveLength(1);
  });

  it('clears everything', async () => {
    const store = open();
    await store.set('k', 1, 60_000);
    await store.append('events:R1', 1);
    await store.schedule('q', 'j', 1, 0);
    await store.lease('l', 'a', 60_000);
    await store.clear();
    expect(await store.get('k')).toBeUndefined();
    expect(await store.read('events:R1')).toEqual([]);
    expect(await store.pending('q')).toBe(0);
    expect(await store.lease('l', 'b', 60_000)).toBe(true);
  });

  it('closes once, twice harmlessly, and hears nothing after', async () => {
    const store = harness.open();
    const heard: StoredEvent[] = [];
    store.subscribe('events:R1', (event) => heard.push(event));
    await store.close();
    await store.close();
    const writer = open();
    // A witness on another store object hears 'late' as the closed one would have: then the
    // closed one has been told, if it still listened.
    const witness = harness.shared ? open() : writer;
    const witnessed: StoredEvent[] = [];
    witness.subscribe('events:R1', (event) => witnessed.push(event));
    await witness.read('events:R1');
    await writer.append('events:R1', 'late');
    await expect.poll(() => witnessed.map((event) => event.value)).toContain('late');
    expect(heard).toEqual([]);
  });
});
