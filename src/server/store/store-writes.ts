/**
 * The arguments of the batch calls (`commit`, `getMany`, `page`), checked once for every store:
 * a bad write is a TypeError that names the call, the write's place and op, and the field, before
 * anything is written (a commit never half-applies because its fifth write was malformed).
 */
import type { StoreWrite } from './contract';
import { checkMs, checkName, checkTime } from './stored-value';

const OPS = [
  'set',
  'add',
  'delete',
  'append',
  'schedule',
  'finish',
  'index',
  'expect',
  'take',
  'give',
] as const;

/** Where a write's error is said to come from, e.g. `store.commit: writes[2] (add)`. */
export function writePlace(index: number, op: string): string {
  return `store.commit: writes[${index}] (${op})`;
}

/**
 * `writes` as given, each checked: names non-empty strings, times-to-live positive, times and
 * scores finite. Values are not looked at here; a durable store checks them as it encodes them.
 */
export function checkWrites(writes: unknown): readonly StoreWrite[] {
  if (!Array.isArray(writes))
    throw new TypeError('store.commit: writes must be an array of writes, e.g. [{ op: "set", … }]');
  writes.forEach((write: unknown, index) => {
    if (typeof write !== 'object' || write === null)
      throw new TypeError(`store.commit: writes[${index}] must be an object with an op`);
    const op = (write as { op?: unknown }).op;
    if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op))
      throw new TypeError(`store.commit: writes[${index}].op must be one of ${OPS.join(', ')}`);
    const where = writePlace(index, op);
    const fields = write as Record<string, unknown>;
    switch (op) {
      case 'set':
      case 'add':
        checkName(where, 'key', fields.key);
        checkMs(where, 'ttlMs', fields.ttlMs);
        break;
      case 'delete':
      case 'expect':
        checkName(where, 'key', fields.key);
        break;
      case 'take':
        checkName(where, 'key', fields.key);
        checkName(where, 'id', fields.id);
        if (typeof fields.limit !== 'number' || !Number.isInteger(fields.limit) || fields.limit < 1)
          throw new TypeError(`${where}: limit must be a whole number of at least 1`);
        checkTime(where, 'at', fields.at);
        checkMs(where, 'windowMs', fields.windowMs);
        if (fields.whenFull !== 'fail' && fields.whenFull !== 'skip')
          throw new TypeError(`${where}: whenFull must be 'fail' or 'skip'`);
        break;
      case 'give':
        checkName(where, 'key', fields.key);
        checkName(where, 'id', fields.id);
        break;
      case 'append':
        checkName(where, 'stream', fields.stream);
        break;
      case 'schedule':
        checkName(where, 'queue', fields.queue);
        checkName(where, 'key', fields.key);
        checkTime(where, 'dueAt', fields.dueAt);
        break;
      case 'finish':
        checkName(where, 'queue', fields.queue);
        checkName(where, 'key', fields.key);
        break;
      case 'index':
        checkName(where, 'list', fields.list);
        checkName(where, 'key', fields.key);
        if (typeof fields.score !== 'number' || !Number.isFinite(fields.score))
          throw new TypeError(`${where}: score must be a finite number`);
        break;
    }
  });
  return writes as readonly StoreWrite[];
}

/** `getMany`'s keys: an array of non-empty strings. */
export function checkKeys(keys: unknown): readonly string[] {
  if (!Array.isArray(keys)) throw new TypeError('store.getMany: keys must be an array of keys');
  keys.forEach((key: unknown, index) => {
    checkName('store.getMany', `keys[${index}]`, key);
  });
  return keys as readonly string[];
}

/** The most entries one page may ask for: a page is a screenful, not an export. */
export const MAX_PAGE_LIMIT = 1000;

/** `page`'s arguments: a list name, a limit of 1 to MAX_PAGE_LIMIT, and a cursor when given. */
export function checkPage(
  list: unknown,
  options: unknown,
): { limit: number; after: { score: number; key: string } | undefined } {
  checkName('store.page', 'list', list);
  if (typeof options !== 'object' || options === null)
    throw new TypeError('store.page: options must be { limit, after? }');
  const { limit, after } = options as { limit?: unknown; after?: unknown };
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new TypeError(`store.page: limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`);
  if (after === undefined) return { limit, after: undefined };
  if (typeof after !== 'object' || after === null)
    throw new TypeError('store.page: after must be { score, key } from the previous page');
  const { score, key } = after as { score?: unknown; key?: unknown };
  if (typeof score !== 'number' || !Number.isFinite(score))
    throw new TypeError('store.page: after.score must be a finite number');
  checkName('store.page', 'after.key', key);
  return { limit, after: { score, key: key as string } };
}

/** Whether the entry (score, key) comes after `after` in a page's order (score, then key, down). */
export function isAfter(
  score: number,
  key: string,
  after: { score: number; key: string },
): boolean {
  return score < after.score || (score === after.score && key < after.key);
}
