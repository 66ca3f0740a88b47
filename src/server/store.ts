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

/** The default store: one process, no timers (expiry is checked on access). */
export function createMemoryStore(
  options: MemoryStoreOptions = {},
): CheckoutStore & { readonly size: () => number } {
  const now = options.now ?? Date.now;
  const maxEvents = options.maxEventsPerStream ?? 100;
  const streamTtlMs = options.streamTtlMs ?? 24 * 3600 * 1000;
  const values = new Map<string, { value: unknown; expiresAt: number }>();
  const streams = new Map<string, { next: number; events: StoredEvent[]; expiresAt: number }>();
  const listeners = new Map<string, Set<(event: StoredEvent) => void>>();
  const queues = new Map<
    string,
    Map<
      string,
      { value: unknown; dueAt: number; attempts: number; owner: string; leasedUntil: number }
    >
  >();
  const leases = new Map<string, { owner: string; until: number }>();

  function queue(name: string) {
    let jobs = queues.get(name);
    if (!jobs) {
      jobs = new Map();
      queues.set(name, jobs);
    }
    return jobs;
  }

  function sweep(): void {
    const time = now();
    for (const [key, entry] of values) if (entry.expiresAt <= time) values.delete(key);
    for (const [key, stream] of streams)
      if (stream.expiresAt <= time && !listeners.has(key)) streams.delete(key);
  }
  let writes = 0;
  function maybeSweep(): void {
    // An occasional sweep keeps memory bounded without a timer to leak.
    if (++writes % 256 === 0) sweep();
  }

  function live(key: string) {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  }

  return {
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
      const jobs = queue(name);
      const attempts = jobs.get(key)?.attempts ?? 0;
      jobs.set(key, { value, dueAt, attempts, owner: '', leasedUntil: 0 });
    },
    async claim(name, owner, time, limit, leaseMs) {
      const claimed: ScheduledJob[] = [];
      const due = [...(queues.get(name) ?? [])]
        .filter(([, job]) => job.dueAt <= time && job.leasedUntil <= time)
        .sort((a, b) => a[1].dueAt - b[1].dueAt)
        .slice(0, Math.max(0, limit));
      for (const [key, job] of due) {
        claimed.push({ key, value: job.value, dueAt: job.dueAt, attempts: job.attempts });
        job.attempts += 1;
        job.owner = owner;
        job.leasedUntil = time + leaseMs;
      }
      return claimed;
    },
    async finish(name, key) {
      queues.get(name)?.delete(key);
    },
    async pending(name) {
      return queues.get(name)?.size ?? 0;
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
}
