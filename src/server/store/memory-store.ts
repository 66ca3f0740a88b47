/**
 * The memory store: the contract (contract.ts) kept in this process, for one instance and for
 * tests. Refused under production where work must outlive a restart (see options).
 */
import type { CheckoutStore, PageEntry, ScheduledJob, StoredEvent } from './contract';
import { afterGive, afterTake } from './store-window';
import { checkKeys, checkPage, checkWrites, isAfter } from './store-writes';

export interface MemoryStoreOptions {
  readonly now?: () => number;
  /** Events kept per stream (oldest dropped first). Default 100. */
  readonly maxEventsPerStream?: number;
  /** How long an idle stream is kept, in ms. Default 24 hours. */
  readonly streamTtlMs?: number;
}

/** A job of the memory store's queue; `seq` changes with every schedule or claim. */
interface MemoryJob {
  value: unknown;
  dueAt: number;
  attempts: number;
  owner: string;
  leasedUntil: number;
  seq: number;
}

/** A place in one of a queue's heaps; stale once its job's `seq` has moved on. */
interface HeapEntry {
  readonly at: number;
  readonly seq: number;
  readonly key: string;
}

/** A binary min-heap of entries by time, then by age (seq), so that equal times keep order. */
class EntryHeap {
  readonly items: HeapEntry[] = [];
  private before(a: HeapEntry, b: HeapEntry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
  get size(): number {
    return this.items.length;
  }
  peek(): HeapEntry | undefined {
    return this.items[0];
  }
  push(entry: HeapEntry): void {
    const items = this.items;
    let index = items.push(entry) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent] as HeapEntry;
      if (!this.before(entry, above)) break;
      items[index] = above;
      index = parent;
    }
    items[index] = entry;
  }
  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && this.before(items[right] as HeapEntry, items[left] as HeapEntry)
          ? right
          : left;
      if (!this.before(items[child] as HeapEntry, last)) break;
      items[index] = items[child] as HeapEntry;
      index = child;
    }
    items[index] = last;
    return top;
  }
  clear(): void {
    this.items.length = 0;
  }
}

/**
 * One queue of the memory store. Jobs by key, and two heaps so that a claim costs O(k log n) for
 * k jobs rather than a scan of every job: jobs waiting for their time by due time, and leased
 * jobs by the end of their lease (back to the first heap once it has run out). A schedule, claim
 * or finish leaves the job's old heap entry behind, stale (its seq no longer the job's): skipped
 * when met, and dropped when the heaps grow past twice the jobs.
 */
class MemoryQueue {
  readonly jobs = new Map<string, MemoryJob>();
  private readonly waiting = new EntryHeap();
  private readonly leased = new EntryHeap();
  private seq = 0;

  schedule(key: string, value: unknown, dueAt: number): void {
    const attempts = this.jobs.get(key)?.attempts ?? 0;
    const job: MemoryJob = { value, dueAt, attempts, owner: '', leasedUntil: 0, seq: ++this.seq };
    this.jobs.set(key, job);
    this.waiting.push({ at: dueAt, seq: job.seq, key });
    this.compact();
  }

  claim(owner: string, time: number, limit: number, leaseMs: number): ScheduledJob[] {
    // Leases run out: their jobs wait again, by due time.
    for (let top = this.leased.peek(); top && top.at <= time; top = this.leased.peek()) {
      this.leased.pop();
      const job = this.jobs.get(top.key);
      if (job?.seq === top.seq) this.waiting.push({ at: job.dueAt, seq: job.seq, key: top.key });
    }
    const claimed: ScheduledJob[] = [];
    // Due but still leased at `time`: only when claims come with a clock that went back.
    const later: HeapEntry[] = [];
    while (claimed.length < limit) {
      const top = this.waiting.peek();
      if (!top || top.at > time) break;
      this.waiting.pop();
      const job = this.jobs.get(top.key);
      if (job?.seq !== top.seq) continue;
      if (job.leasedUntil > time) {
        later.push(top);
        continue;
      }
      claimed.push({ key: top.key, value: job.value, dueAt: job.dueAt, attempts: job.attempts });
      job.attempts += 1;
      job.owner = owner;
      job.leasedUntil = time + leaseMs;
      job.seq = ++this.seq;
      this.leased.push({ at: job.leasedUntil, seq: job.seq, key: top.key });
    }
    for (const entry of later) this.waiting.push(entry);
    return claimed;
  }

  finish(key: string): void {
    this.jobs.delete(key);
    this.compact();
  }

  /** Drops stale entries once they outnumber the jobs, so the heaps stay within 2n. */
  private compact(): void {
    if (this.waiting.size + this.leased.size <= 2 * this.jobs.size + 64) return;
    this.waiting.clear();
    this.leased.clear();
    for (const [key, job] of this.jobs) {
      if (job.leasedUntil > 0 && job.owner !== '')
        this.leased.push({ at: job.leasedUntil, seq: job.seq, key });
      else this.waiting.push({ at: job.dueAt, seq: job.seq, key });
    }
  }
}

/** An entry of a memory list: its key and score, kept in page order. */
interface ListEntry {
  readonly key: string;
  readonly score: number;
}

/**
 * One list of the memory store: its entries sorted in page order (score, then key, both down),
 * and each key's score, so that an index and a page each cost a binary search, not a sort.
 */
class MemoryList {
  readonly sorted: ListEntry[] = [];
  private readonly scores = new Map<string, number>();

  /** The position of the first entry that comes after (score, key), or of (score, key) itself. */
  private position(score: number, key: string): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const entry = this.sorted[middle] as ListEntry;
      if (entry.score > score || (entry.score === score && entry.key > key)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  put(key: string, score: number): void {
    this.remove(key);
    this.sorted.splice(this.position(score, key), 0, { key, score });
    this.scores.set(key, score);
  }

  remove(key: string): void {
    const old = this.scores.get(key);
    if (old === undefined) return;
    this.sorted.splice(this.position(old, key), 1);
    this.scores.delete(key);
  }

  /** Entries from the first after `after` (from the top without one). */
  *from(after: { score: number; key: string } | undefined): Generator<ListEntry> {
    let index = 0;
    if (after) {
      index = this.position(after.score, after.key);
      const at = this.sorted[index];
      if (at && !isAfter(at.score, at.key, after)) index++;
    }
    for (; index < this.sorted.length; index++) yield this.sorted[index] as ListEntry;
  }
}

/** Entries looked at for expiry per write: the whole store in n / SWEEP_STEP writes. */
const SWEEP_STEP = 4;

/** The default store: one process, no timers (expiry is checked on access). */
/** The stores createMemoryStore made: serverless refuses them in production (options.ts). */
const memoryStores = new WeakSet<object>();

/** True for a store createMemoryStore made (and not one wrapped around it). */
export function isMemoryStore(store: CheckoutStore): boolean {
  return memoryStores.has(store);
}

export function createMemoryStore(
  options: MemoryStoreOptions = {},
): CheckoutStore & { readonly size: () => number } {
  const now = options.now ?? Date.now;
  const maxEvents = options.maxEventsPerStream ?? 100;
  const streamTtlMs = options.streamTtlMs ?? 24 * 3600 * 1000;
  const values = new Map<string, { value: unknown; expiresAt: number }>();
  const streams = new Map<string, { next: number; events: StoredEvent[]; expiresAt: number }>();
  const listeners = new Map<string, Set<(event: StoredEvent) => void>>();
  const queues = new Map<string, MemoryQueue>();
  const leases = new Map<string, { owner: string; until: number }>();
  const lists = new Map<string, MemoryList>();

  function queue(name: string): MemoryQueue {
    let jobs = queues.get(name);
    if (!jobs) {
      jobs = new MemoryQueue();
      queues.set(name, jobs);
    }
    return jobs;
  }

  // Expiry is swept a few entries per write, resuming where the last write stopped (a Map's
  // iterator survives deletes and sees what is added), so no single write pays for the whole
  // store and memory stays bounded without a timer to leak.
  let valueCursor: Iterator<[string, { value: unknown; expiresAt: number }]> | undefined;
  let streamCursor:
    | Iterator<[string, { next: number; events: StoredEvent[]; expiresAt: number }]>
    | undefined;
  function maybeSweep(): void {
    const time = now();
    for (let step = 0; step < SWEEP_STEP; step++) {
      valueCursor ??= values.entries();
      const next = valueCursor.next();
      if (next.done) {
        valueCursor = undefined;
        break;
      }
      const [key, entry] = next.value;
      if (entry.expiresAt <= time) values.delete(key);
    }
    streamCursor ??= streams.entries();
    const next = streamCursor.next();
    if (next.done) streamCursor = undefined;
    else {
      const [key, stream] = next.value;
      if (stream.expiresAt <= time && !listeners.has(key)) streams.delete(key);
    }
  }

  function list(name: string): MemoryList {
    let entries = lists.get(name);
    if (!entries) {
      entries = new MemoryList();
      lists.set(name, entries);
    }
    return entries;
  }

  /** Appends to a stream without telling anyone yet; the caller delivers the event after. */
  function appendQuietly(name: string, value: unknown): StoredEvent {
    const stream = streams.get(name) ?? { next: 1, events: [], expiresAt: 0 };
    streams.set(name, stream);
    const event: StoredEvent = { id: String(stream.next++), value };
    stream.events.push(event);
    if (stream.events.length > maxEvents) stream.events.shift();
    stream.expiresAt = now() + streamTtlMs;
    return event;
  }

  function deliver(name: string, event: StoredEvent): void {
    for (const listener of listeners.get(name) ?? [])
      try {
        listener(event);
      } catch {
        // A listener's failure is its own: the others still hear the event, and the write
        // that made it, committed, is not failed (as on the durable stores).
      }
  }

  /** Two values the same as a durable store compares them: as their JSON text. */
  function sameValue(held: unknown, expected: unknown): boolean {
    return held === expected || JSON.stringify(held) === JSON.stringify(expected);
  }

  function live(key: string) {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  }

  const store: CheckoutStore & { readonly size: () => number } = {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      values.set(key, { value, expiresAt: now() + ttlMs });
      maybeSweep();
    },
    async add(key, value, ttlMs) {
      if (live(key)) return false;
      values.set(key, { value, expiresAt: now() + ttlMs });
      maybeSweep();
      return true;
    },
    async delete(key) {
      values.delete(key);
    },
    async append(name, value) {
      const event = appendQuietly(name, value);
      deliver(name, event);
      maybeSweep();
      return event.id;
    },
    async read(name, afterId) {
      const events = streams.get(name)?.events ?? [];
      if (afterId === undefined) return events.slice();
      const after = Number(afterId);
      return Number.isFinite(after)
        ? events.filter((event) => Number(event.id) > after)
        : events.slice();
    },
    async commit(given) {
      const writes = checkWrites(given);
      const time = now();
      // The values first, staged against the values as the writes before each would leave them:
      // a guard that fails (an add finding its key, an expect not met, a full window) means
      // nothing at all is written.
      const staged = new Map<string, { value: unknown; expiresAt: number } | undefined>();
      const current = (key: string) => (staged.has(key) ? staged.get(key) : live(key));
      for (const write of writes) {
        switch (write.op) {
          case 'set':
          case 'add':
            if (write.op === 'add' && current(write.key)) return false;
            staged.set(write.key, { value: write.value, expiresAt: time + write.ttlMs });
            break;
          case 'delete':
            staged.set(write.key, undefined);
            break;
          case 'expect':
            if (!sameValue(current(write.key)?.value, write.value)) return false;
            break;
          case 'take': {
            const next = afterTake(current(write.key)?.value, write);
            if (next === 'full') return false;
            if (next !== 'same')
              staged.set(write.key, { value: next, expiresAt: time + Math.ceil(write.windowMs) });
            break;
          }
          case 'give': {
            const entry = current(write.key);
            const next = afterGive(entry?.value, write.id);
            if (next !== 'same')
              staged.set(
                write.key,
                next.length > 0 && entry ? { value: next, expiresAt: entry.expiresAt } : undefined,
              );
            break;
          }
        }
      }
      for (const [key, entry] of staged) {
        if (entry) values.set(key, entry);
        else values.delete(key);
      }
      const appended: Array<[string, StoredEvent]> = [];
      for (const write of writes) {
        switch (write.op) {
          case 'append':
            appended.push([write.stream, appendQuietly(write.stream, write.value)]);
            break;
          case 'schedule':
            queue(write.queue).schedule(write.key, write.value, write.dueAt);
            break;
          case 'finish':
            queues.get(write.queue)?.finish(write.key);
            break;
          case 'index':
            list(write.list).put(write.key, write.score);
            break;
        }
      }
      // Committed: now the listeners hear the appends, in order.
      for (const [name, event] of appended) deliver(name, event);
      if (writes.length > 0) maybeSweep();
      return true;
    },
    async getMany(keys) {
      return checkKeys(keys).map((key) => live(key)?.value);
    },
    async page(name, options) {
      const { limit, after } = checkPage(name, options);
      const entries = lists.get(name);
      if (!entries) return [];
      const found: PageEntry[] = [];
      const gone: string[] = [];
      for (const entry of entries.from(after)) {
        const value = live(entry.key);
        if (value === undefined) gone.push(entry.key);
        else found.push({ key: entry.key, score: entry.score, value: value.value });
        if (found.length === limit) break;
      }
      for (const key of gone) entries.remove(key);
      return found;
    },
    subscribe(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(name);
      };
    },
    async schedule(name, key, value, dueAt) {
      queue(name).schedule(key, value, dueAt);
    },
    async claim(name, owner, time, limit, leaseMs) {
      return queues.get(name)?.claim(owner, time, Math.max(0, Math.floor(limit)), leaseMs) ?? [];
    },
    async finish(name, key) {
      queues.get(name)?.finish(key);
    },
    async pending(name) {
      return queues.get(name)?.jobs.size ?? 0;
    },
    async lease(name, owner, ttlMs) {
      const time = now();
      const held = leases.get(name);
      if (held && held.owner !== owner && held.until > time) return false;
      leases.set(name, { owner, until: time + ttlMs });
      return true;
    },
    async release(name, owner) {
      if (leases.get(name)?.owner === owner) leases.delete(name);
    },
    async clear() {
      values.clear();
      streams.clear();
      queues.clear();
      leases.clear();
      lists.clear();
    },
    async close() {
      listeners.clear();
    },
    size: () => values.size + streams.size + listeners.size,
  };
  memoryStores.add(store);
  return store;
}
