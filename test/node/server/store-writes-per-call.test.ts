/**
 * How often each companion call writes the store (issue 25 item 2: one transaction per call), on
 * a real SQLite file: the store is wrapped in a proxy that counts every call by name. On SQLite
 * every single write call is a transaction of its own (and an fsync with durability 'full'), and
 * a `commit` is one, so the writes counted are the file's transactions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { CheckoutStore } from '../../../src/server';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import {
  type CompanionRig,
  companionCall as call,
  control,
  startCompanion,
  startPayment,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

// A call's own writes. The job picker's claims (and sweeps' leases) are left out: they run on the
// picker's timer, not the call's, and land inside a call when the machine is slow.
const WRITES = new Set([
  'set',
  'add',
  'delete',
  'append',
  'schedule',
  'finish',
  'commit',
  'commit, unflushed',
]);
const READS = new Set(['get', 'getMany', 'read', 'page', 'pending']);

/** `store` with every call counted by name; `take` answers the counts since the last take. */
function counting(store: CheckoutStore) {
  let calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver);
      if (typeof member !== 'function' || typeof name !== 'string') return member;
      return (...args: unknown[]) => {
        // A commit not synced to the disk (CommitOptions.flush false) is named as such.
        const unflushed = (args[1] as { flush?: boolean } | undefined)?.flush === false;
        calls.push(name === 'commit' && unflushed ? 'commit, unflushed' : name);
        return member.apply(target, args);
      };
    },
  });
  return {
    store: proxy,
    take() {
      const taken = calls;
      calls = [];
      return {
        writes: taken.filter((name) => WRITES.has(name)),
        reads: taken.filter((name) => READS.has(name)),
      };
    },
  };
}

const folder = mkdtempSync(join(tmpdir(), 'paydrop-writes-'));
let rig: CompanionRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('writes the SQLite file once per /session, /initiate and /status after the lock', async () => {
  const sqlite = createSqliteStore({ path: join(folder, 'checkout.db') });
  const counted = counting(sqlite);
  rig = await startCompanion({ store: counted.store });
  counted.take();

  const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:w1' } });
  expect(session.status, session.text).toBe(200);
  const afterSession = counted.take();

  const initiated = await call(rig, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(initiated.status, initiated.text).toBe(200);
  const afterInitiate = counted.take();

  const status = await call(rig, 'GET', '/status', { token: initiated.body.token });
  expect(status.status, status.text).toBe(200);
  const afterStatus = counted.take();

  console.info('store calls per companion call (SQLite)', {
    session: afterSession,
    initiate: afterInitiate,
    status: afterStatus,
  });
  // /session reads, once (the order's first success and its payments); it writes nothing.
  expect(afterSession).toEqual({ writes: [], reads: ['getMany'] });
  // /initiate: one commit before the provider is asked, of everything other instances must see
  // first (the order's lock; a place in the order's daily budget and, with a known address, in
  // its hourly one: counted by the store's `take` inside the commit); then one commit of
  // everything after (the payment, its lists, its reconciliation job, the lock's release).
  // (On main's code: 8 writes, each its own transaction: add, add, add, set, set, set, schedule,
  // delete; before this change 4: commit, add, commit, commit.) The first is not synced to the
  // disk: what it guards is lost with it, unseen; the second, synced, makes both durable. So a
  // start waits for one sync, not two.
  expect(afterInitiate.writes).toEqual(['commit, unflushed', 'commit']);
  // One read: the order's and the checkout's lists under the lock (what is settled first, and
  // what the payment is added to). Before: get, get, get, getMany (the order's list twice).
  expect(afterInitiate.reads).toEqual(['getMany']);
  // A PENDING payment's status: read, not written.
  expect(afterStatus.writes).toEqual([]);
  // The payment, its order's list, its checkout's list and its reconciliation job all came
  // from that one commit.
  expect(await sqlite.pending('payments')).toBe(1);
});

it('writes a card /initiate as one commit before the provider and one after, from a known address', async () => {
  const sqlite = createSqliteStore({ path: join(folder, 'card.db') });
  const counted = counting(sqlite);
  rig = await startCompanion({ store: counted.store, clientAddress: () => '198.51.100.7' });
  const session = await call(rig, 'POST', '/session', { body: { order: 'order-usd:w3' } });
  expect(session.status, session.text).toBe(200);
  counted.take();
  const initiated = await call(rig, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'Card', card: testCard('4242424242424242') },
  });
  expect(initiated.status, initiated.text).toBe(200);
  const calls = counted.take();
  console.info('store calls of a card /initiate (SQLite)', calls);
  // 1: the address's place, the order's lock, the order's day and the card's three attempt
  // windows, not synced; 2: the payment with who attempted it, its job and the lock's release.
  expect(calls.writes).toEqual(['commit, unflushed', 'commit']);
  // The decline windows (a card is refused once they are full), then the lists under the lock.
  expect(calls.reads).toEqual(['getMany', 'getMany']);
  const windows = await sqlite.getMany([
    'limit:payments:address:198.51.100.7',
    'limit:payments:order:order-usd:w3',
    'limit:card-attempts:order:order-usd:w3',
    'limit:card-attempts:address:198.51.100.7',
  ]);
  expect(windows.map((window) => (window as unknown[] | undefined)?.length)).toEqual([1, 1, 1, 1]);
});

it('writes an outcome reported as two commits: before the merchant’s hook, and after it', async () => {
  const sqlite = createSqliteStore({ path: join(folder, 'outcome.db') });
  const counted = counting(sqlite);
  rig = await startCompanion({ store: counted.store });
  await rig.sandbox.request('POST', '/__sandbox/config', { webhookUrl: null });
  const { payment, token } = await startPayment(rig, 'order-ngn:w4', 'PayByTransfer');
  await control(rig, 'POST', `/__sandbox/payments/${payment.reference}/transfer`);
  counted.take();
  const status = await call(rig, 'GET', '/status', { token });
  expect(status.body.status).toBe('SUCCESSFUL');
  const calls = counted.take();
  console.info('store calls of reporting an outcome (SQLite)', calls);
  // 1: the confirmed status, the reporting lock (taken only while no outcome is reported: an
  // `expect` of the same commit) and the order's first success; 2: the outcome with its event
  // and the lock's release. Before: 3 commits (the first success on its own) and a read of the
  // outcome again under the lock.
  expect(calls.writes).toEqual(['commit', 'commit']);
  // What /status knows; the outcome, the payment and who attempted it; the order's first success.
  expect(calls.reads).toEqual(['getMany', 'getMany', 'get']);
  expect(rig.paymentOutcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
});

it('writes a card finalize as: the mark before the provider is asked, then its answer and outcome', async () => {
  const sqlite = createSqliteStore({ path: join(folder, 'finalize.db') });
  const counted = counting(sqlite);
  // No webhooks: only the finalize call's own writes are counted.
  rig = await startCompanion({ store: counted.store });
  await rig.sandbox.request('POST', '/__sandbox/config', { webhookUrl: null });
  const { token } = await startPayment(rig, 'order-usd:w2', 'Card', {
    card: testCard('4242424242424242'),
  });
  const auth = await call(rig, 'POST', '/authenticate', { token });
  expect(auth.body).toEqual({ authenticationRequired: false, challengeUrl: null });
  counted.take();
  const finalized = await call(rig, 'POST', '/finalize', { token });
  expect(finalized.status, finalized.text).toBe(200);
  expect(finalized.body.status).toBe('SUCCESSFUL');
  const calls = counted.take();
  console.info('store calls of a card /finalize (SQLite)', calls);
  // 1: finalize sent (and the card's record kept 30 days), before the provider is asked, so a
  // lost answer never lets the card be charged twice; 2: the provider's answer with the
  // confirmed status, the reporting lock and the order's first success (its exactly-once guard,
  // which the merchant's hook is told of); 3: the outcome, the link it paid and its event, with
  // the lock's release. (Before: 5 commits, the answer and the first success on their own.)
  expect(calls.writes).toEqual(['commit', 'commit', 'commit']);
  // What finalize looks at first, in one read; the outcome, the payment and who attempted it;
  // the order's first success.
  expect(calls.reads).toEqual(['getMany', 'getMany', 'get']);
});

it('writes a hosted card page’s opening as one commit before the provider and one after, the bank’s return as one', async () => {
  const sqlite = createSqliteStore({ path: join(folder, 'page.db') });
  const counted = counting(sqlite);
  rig = await startCompanion({ store: counted.store, cardEntry: 'hosted' });
  await rig.sandbox.request('POST', '/__sandbox/config', { webhookUrl: null });
  const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:w5' } });
  counted.take();
  const page = await call(rig, 'POST', '/card-page', { token: session.body.token, body: {} });
  expect(page.status, page.text).toBe(200);
  const opening = counted.take();
  console.info('store calls of opening the hosted card page (SQLite)', opening);
  // 1: the order's lock and the card's attempt places, before the provider makes the page;
  // 2: the page remembered, with the lock's release. (Before: 3 writes and a delete.) The
  // first is not synced, as an /initiate's.
  expect(opening.writes).toEqual(['commit, unflushed', 'commit']);

  const { payment } = await startPayment(rig, 'order-gbp:w6', 'PayByAccount');
  counted.take();
  const back = await call(rig, 'GET', `/return?reference=${payment.reference}`);
  expect(back.status).toBe(200);
  // The return and its confirmation job in one commit (before: a commit and a schedule).
  expect(counted.take().writes).toEqual(['commit']);
});
