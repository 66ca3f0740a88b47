/**
 * The `take` and `give` writes of a commit (contract.ts), worked out on a window's stored value
 * by the stores that run JavaScript inside their transaction (memory, SQLite); the Redis script
 * and the PostgreSQL function do the same in their own language. A window is a JSON list of
 * `[end, id]`; anything else found at its key counts as an empty window.
 */
import type { StoreWrite, WindowEntry } from './contract';

/** The window's entries still running at `at` (all of them when `at` is undefined). */
export function windowEntries(value: unknown, at?: number): WindowEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is WindowEntry =>
      Array.isArray(entry) &&
      entry.length === 2 &&
      typeof entry[0] === 'number' &&
      typeof entry[1] === 'string' &&
      (at === undefined || entry[0] > at),
  );
}

/**
 * What a `take` leaves at its key: the new window to keep (for `windowMs`), `'same'` when
 * nothing changes (taken already, or full and skipped), `'full'` when the commit must fail.
 */
export function afterTake(
  value: unknown,
  write: Extract<StoreWrite, { op: 'take' }>,
): WindowEntry[] | 'same' | 'full' {
  const entries = windowEntries(value, write.at);
  if (entries.some(([, id]) => id === write.id)) return 'same';
  if (entries.length >= write.limit) return write.whenFull === 'fail' ? 'full' : 'same';
  return [...entries, [write.at + write.windowMs, write.id]];
}

/** What a `give` leaves: the window without `id`'s place (empty: delete the key), or `'same'`. */
export function afterGive(value: unknown, id: string): WindowEntry[] | 'same' {
  const entries = windowEntries(value);
  const kept = entries.filter(([, taken]) => taken !== id);
  return kept.length === entries.length ? 'same' : kept;
}
