/**
 * The store, typed (issue 24 item 3, CONVENTIONS 22): each kind of record is declared once, with
 * the key it lives at, the type of its value and how long it is kept; reading one checks what
 * came back (a durable store's value is data from disk or another process, not to be trusted as
 * a type), and writing one builds a `StoreWrite` for the call's single `commit` (issue 25 item 2).
 * Call sites name kinds and ids; no key strings, no casts.
 */
import type { CheckoutStore, CommitOptions, StoreWrite } from './store';

/** A kind of record: where a value of it lives, what it is, and how long it is kept. */
export interface RecordKind<Id, Value> {
  /** The key prefix, unique among kinds; also what an error about a bad value names. */
  readonly name: string;
  readonly ttlMs: number;
  key(id: Id): string;
  /** The value read back, checked: the value itself, or undefined when it is not a `Value`. */
  check(value: unknown): Value | undefined;
}

/**
 * Declares a kind. `key` defaults to `${name}:${id}` for string ids; `check` narrows what is read
 * back (see the checks below).
 */
export function recordKind<Value, Id = string>(declaration: {
  readonly name: string;
  readonly ttlMs: number;
  readonly check: (value: unknown) => Value | undefined;
  readonly key?: (id: Id) => string;
}): RecordKind<Id, Value> {
  const { name, ttlMs, check } = declaration;
  const key = declaration.key ?? ((id: Id) => `${name}:${String(id)}`);
  return { name, ttlMs, key, check };
}

/** A value read back that is not of its kind: the store holds something this paydrop never wrote. */
export class StoredRecordError extends Error {
  override readonly name = 'StoredRecordError' as const;
}

function checked<Id, Value>(kind: RecordKind<Id, Value>, key: string, value: unknown) {
  if (value === undefined) return undefined;
  const record = kind.check(value);
  if (record === undefined)
    throw new StoredRecordError(
      `paydrop: the store holds a value at ${key} that is not a ${kind.name} record; was it written by another program or a newer paydrop?`,
    );
  return record;
}

/** One read of a `getMany`: a kind and the id of the record wanted. */
// biome-ignore lint/suspicious/noExplicitAny: a read of any kind; its Value is inferred per place.
export type RecordRead = readonly [RecordKind<any, any>, unknown];
/** What a `getMany` answers: each read's value, or undefined, in order. */
export type RecordsRead<Reads extends readonly RecordRead[]> = {
  -readonly [Place in keyof Reads]: Reads[Place] extends readonly [
    RecordKind<infer _Id, infer Value>,
    unknown,
  ]
    ? Value | undefined
    : never;
};

export function createRecords(store: CheckoutStore) {
  return {
    /** The record of `kind` at `id`, checked; undefined when absent or expired. */
    async get<Id, Value>(kind: RecordKind<Id, Value>, id: Id): Promise<Value | undefined> {
      const key = kind.key(id);
      return checked(kind, key, await store.get(key));
    },
    /** Several records in one round trip (the store's getMany), each checked, in order. */
    async getMany<const Reads extends readonly RecordRead[]>(
      reads: Reads,
    ): Promise<RecordsRead<Reads>> {
      const keys = reads.map(([kind, id]) => kind.key(id));
      const values = await store.getMany(keys);
      return reads.map(([kind], place) =>
        checked(kind, keys[place] as string, values[place]),
      ) as RecordsRead<Reads>;
    },
    /** Writes `writes` all or nothing; false when one of its adds found its record present. */
    commit(writes: readonly StoreWrite[], options?: CommitOptions): Promise<boolean> {
      return store.commit(writes, options);
    },
    /** The store itself, for what is not a record: streams, queues, leases, lists. */
    store,
  };
}

export type Records = ReturnType<typeof createRecords>;

/** Sets the record (kept for the kind's time, or `ttlMs`). */
export function put<Id, Value>(
  kind: RecordKind<Id, Value>,
  id: Id,
  value: Value,
  ttlMs: number = kind.ttlMs,
): StoreWrite {
  return { op: 'set', key: kind.key(id), value, ttlMs };
}

/** Sets the record only if absent: the commit writes nothing and answers false if present. */
export function putNew<Id, Value>(
  kind: RecordKind<Id, Value>,
  id: Id,
  value: Value,
  ttlMs: number = kind.ttlMs,
): StoreWrite {
  return { op: 'add', key: kind.key(id), value, ttlMs };
}

/** A guard for the commit: the record is still `value` (undefined: absent), as the call read it. */
export function stillHolds<Id, Value>(
  kind: RecordKind<Id, Value>,
  id: Id,
  value: Value | undefined,
): StoreWrite {
  return { op: 'expect', key: kind.key(id), value };
}

export function remove<Id, Value>(kind: RecordKind<Id, Value>, id: Id): StoreWrite {
  return { op: 'delete', key: kind.key(id) };
}

/** Lists the record in `list` with `score` (the store's `page` reads it back, highest first). */
export function listed<Id, Value>(
  kind: RecordKind<Id, Value>,
  id: Id,
  list: string,
  score: number,
): StoreWrite {
  return { op: 'index', list, key: kind.key(id), score };
}

// The checks: small and strict, one per shape a kind holds.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export const checkTrue = (value: unknown): true | undefined => (value === true ? true : undefined);
export const checkString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
export const checkNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
export function checkOneOf<const Options extends readonly string[]>(options: Options) {
  return (value: unknown): Options[number] | undefined =>
    typeof value === 'string' && options.includes(value) ? value : undefined;
}
export function checkStrings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}
/** An object with these fields of these JS types (null allowed where the type says `|null`). */
export function checkFields<Value>(
  fields: Record<
    string,
    'string' | 'number' | 'boolean' | 'object' | 'string|null' | 'object|null'
  >,
) {
  return (value: unknown): Value | undefined => {
    if (!isObject(value)) return undefined;
    for (const [field, type] of Object.entries(fields)) {
      const found = value[field];
      const [wanted, nullable] = type.split('|') as [string, string | undefined];
      if (nullable && found === null) continue;
      if (wanted === 'object' ? !isObject(found) : typeof found !== wanted) return undefined;
    }
    return value as Value;
  };
}
