/**
 * Where the companion keeps what must outlive one request: which webhooks and outcomes it has
 * already handled, each payment's order, and each payment's stream of status events for the
 * browsers watching it. In memory by default; a merchant running several instances supplies a
 * shared implementation (Redis and the like map onto these few calls directly).
 */
export interface StoredEvent {
  /** Increasing within its stream; what a reconnecting browser sends as Last-Event-ID. */
  readonly id: string;
  readonly value: unknown;
}

/** A unit of work due later (CONVENTIONS 19: durable work is data, not timers). */
export interface ScheduledJob {
  readonly key: string;
  readonly value: unknown;
  /** Epoch ms of the next attempt. */
  readonly dueAt: number;
  /** How many times this job was claimed before; 0 on its first claim. */
  readonly attempts: number;
}

/** One operation of a `commit`. */
export type StoreWrite =
  | { readonly op: 'set'; readonly key: string; readonly value: unknown; readonly ttlMs: number }
  | { readonly op: 'add'; readonly key: string; readonly value: unknown; readonly ttlMs: number }
  | { readonly op: 'delete'; readonly key: string }
  | { readonly op: 'append'; readonly stream: string; readonly value: unknown }
  | {
      readonly op: 'schedule';
      readonly queue: string;
      readonly key: string;
      readonly value: unknown;
      readonly dueAt: number;
    }
  | { readonly op: 'finish'; readonly queue: string; readonly key: string }
  | { readonly op: 'index'; readonly list: string; readonly key: string; readonly score: number };

/** An entry of a list, as `page` returns it. */
export interface PageEntry {
  readonly key: string;
  readonly score: number;
  readonly value: unknown;
}

export interface CheckoutStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** Sets only when absent; true when this call set it: the basis of exactly-once. */
  add(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Appends to a stream and tells its subscribers; returns the new event's id. */
  append(stream: string, value: unknown): Promise<string>;
  /** The stream's events after `afterId` (all of them without one). */
  read(stream: string, afterId?: string): Promise<StoredEvent[]>;
  /** Calls `listener` for every event appended from now on; returns the unsubscribe. */
  subscribe(stream: string, listener: (event: StoredEvent) => void): () => void;

  /**
   * Everything one call writes, all or nothing: one transaction on SQLite and PostgreSQL, one
   * script on Redis. Applied in order. When an `add` finds its key present, nothing is written
   * and the answer is false. Subscribers hear the appends only once they are committed.
   */
  commit(writes: readonly StoreWrite[]): Promise<boolean>;
  /** Several values in one round trip, in the keys' order (undefined where absent or expired). */
  getMany(keys: readonly string[]): Promise<unknown[]>;
  /**
   * A list's entries, highest score first (ties: key descending), each with its value: at most
   * `limit`, after the entry `after` when given (a cursor from the previous page). Entries whose
   * value is gone (deleted or expired) are skipped and may be dropped from the list.
   */
  page(
    list: string,
    options: {
      readonly limit: number;
      readonly after?: { readonly score: number; readonly key: string };
    },
  ): Promise<PageEntry[]>;

  /**
   * Puts a job in `queue` (or replaces the one with the same key): its value and its next attempt
   * time. Replacing keeps the attempt count and ends any lease on it.
   */
  schedule(queue: string, key: string, value: unknown, dueAt: number): Promise<void>;
  /**
   * Up to `limit` jobs of `queue` due at `now`, each leased to `owner` for `leaseMs`: until the
   * lease ends, or the job is scheduled again or finished, no other claim returns it. A job whose
   * owner died comes back once its lease has run out. Attempts count up with every claim.
   */
  claim(
    queue: string,
    owner: string,
    now: number,
    limit: number,
    leaseMs: number,
  ): Promise<ScheduledJob[]>;
  /** Removes a job: its work is done. */
  finish(queue: string, key: string): Promise<void>;
  /** How many jobs `queue` holds, due or not. */
  pending(queue: string): Promise<number>;
  /**
   * A named lease for work one instance at a time should do (a reconciliation sweep): true when
   * `owner` holds it now, taken or renewed for `ttlMs`.
   */
  lease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives a lease back early, if `owner` holds it. */
  release(name: string, owner: string): Promise<void>;
  /** Forgets everything (the demo's reset). */
  clear(): Promise<void>;
  /** Lets go of connections and listeners; the store is not used after. */
  close(): Promise<void>;
}

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
      const stream = streams.get(name) ?? { next: 1, events: [], expiresAt: 0 };
      streams.set(name, stream);
      const event: StoredEvent = { id: String(stream.next++), value };
      stream.events.push(event);
      if (stream.events.length > maxEvents) stream.events.shift();
      stream.expiresAt = now() + streamTtlMs;
      for (const listener of listeners.get(name) ?? []) listener(event);
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
    },
    async close() {
      listeners.clear();
    },
    size: () => values.size + streams.size + listeners.size,
  };
  memoryStores.add(store);
  return store;
}
