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
  | { readonly op: 'index'; readonly list: string; readonly key: string; readonly score: number }
  /**
   * A guard, writing nothing: the commit fails (nothing written, answer false) unless `key` holds
   * `value` now, compared as stored (JSON text); `undefined` expects the key absent. What a call
   * read and is about to write over is still what it read (optimistic concurrency). A store
   * shared by instances sees a write of the key still landing (PostgreSQL waits for it).
   */
  | { readonly op: 'expect'; readonly key: string; readonly value: unknown }
  /**
   * A place in a sliding window of `limit` per `windowMs` (issue 25 item 2: a rate counter that
   * rides in the call's one commit). The key holds the window: a list of `[end, id]` (epoch ms,
   * as `at` counts them; see `WindowEntry`). Entries ended by `at` are dropped; an entry with
   * this `id` still in the window means it is taken already (nothing changes); else, with
   * `limit` entries left, the window is full: `whenFull: 'fail'` fails the commit, `'skip'`
   * leaves it be; else `[at + windowMs, id]` is added and the key kept for `windowMs`.
   */
  | {
      readonly op: 'take';
      readonly key: string;
      readonly id: string;
      readonly limit: number;
      readonly at: number;
      readonly windowMs: number;
      readonly whenFull: 'fail' | 'skip';
    }
  /** Gives back the place `id` took in the window at `key` (nothing when it holds none). */
  | { readonly op: 'give'; readonly key: string; readonly id: string };

/** One place taken in a window (`take`): when it ends (epoch ms) and who took it. */
export type WindowEntry = readonly [end: number, id: string];

/** An entry of a list, as `page` returns it. */
export interface PageEntry {
  readonly key: string;
  readonly score: number;
  readonly value: unknown;
}

/** How a `commit` is made. */
export interface CommitOptions {
  /**
   * `false`: the commit is seen by every instance at once and survives the process being killed,
   * as any commit, but need not be flushed to the disk before the answer: a power cut (or, on
   * PostgreSQL, the database server going down) may undo it. The next flushed commit flushes it
   * too. Only for writes whose loss cannot lose money or an outcome: an initiation's guards (the
   * order's lock, its budgets), which protect a provider call whose answer nobody has yet seen.
   * SQLite at `durability: 'full'` skips a sync (synchronous = NORMAL for that commit);
   * PostgreSQL commits it with `synchronous_commit = off`. Redis and the memory store are flushed
   * as their configuration says for every commit alike. Default true.
   */
  readonly flush?: boolean | undefined;
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
  commit(writes: readonly StoreWrite[], options?: CommitOptions): Promise<boolean>;
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
