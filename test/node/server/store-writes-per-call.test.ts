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
  startCompanion,
  startPayment,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const WRITES = new Set([
  'set',
  'add',
  'delete',
  'append',
  'schedule',
  'finish',
  'commit',
  'claim',
  'lease',
  'release',
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
        calls.push(name);
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
  // /session reads; it writes nothing.
  expect(afterSession.writes).toEqual([]);
  // /initiate: the guards taken before the provider is called (a slot of the per-address budget,
  // the order's lock, a slot of the order's daily budget: other instances must see them before
  // the provider is asked), then everything else in one commit, the lock's release included.
  // (On main's code: 8 writes, each its own transaction: add, add, add, set, set, set, schedule,
  // delete.)
  expect(afterInitiate.writes).toEqual(['commit', 'add', 'commit', 'commit']);
  // A PENDING payment's status: read, not written.
  expect(afterStatus.writes).toEqual([]);
  // The payment, its order's list, its checkout's list and its reconciliation job all came
  // from that one commit.
  expect(await sqlite.pending('payments')).toBe(1);
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
  const writes = counted.take().writes;
  console.info('store writes of a card /finalize (SQLite)', writes);
  // 1: finalize sent (and the card's record kept 30 days), before the provider is asked, so a
  // lost answer never lets the card be charged twice; 2: the provider's answer; 3: the confirmed
  // status with the reporting lock; 4: the order's first success (its exactly-once guard, which
  // the merchant's hook is told of); 5: the outcome, the link it paid and its event, with the
  // lock's release.
  expect(writes).toEqual(['commit', 'commit', 'commit', 'commit', 'commit']);
});
