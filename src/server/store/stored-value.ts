/**
 * How the durable stores (SQLite, Redis) keep a value and check what they are given: values go
 * to text as JSON, so only what JSON can carry is accepted, and a bad time-to-live is a clear
 * error rather than a key that never expires (or a Redis error far from its cause).
 */

/** The text a value is kept as; `undefined` (a key set to nothing) is the empty text. */
export function encodeValue(where: string, value: unknown): string {
  if (value === undefined) return '';
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${where}: the value cannot be stored as JSON`, { cause: error });
  }
  if (text === undefined) throw new TypeError(`${where}: the value cannot be stored as JSON`);
  return text;
}

export function decodeValue(text: string): unknown {
  return text === '' ? undefined : JSON.parse(text);
}

/** A time-to-live or lease in whole milliseconds, at least 1. */
export function checkMs(where: string, name: string, ms: unknown): number {
  if (typeof ms !== 'number' || !(ms > 0) || Number.isNaN(ms))
    throw new TypeError(`${where}: ${name} must be a positive number of milliseconds`);
  // Redis takes whole milliseconds; past ~285,000 years is "for ever" all the same.
  return Math.min(Math.ceil(ms), 2 ** 53 - 1);
}

export function checkName(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`${where}: ${name} must be a non-empty string`);
  return value;
}

export function checkTime(where: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`${where}: ${name} must be a finite epoch time in ms`);
  return value;
}

/** Event ids are increasing integers within a stream (what `Last-Event-ID` carries back). */
export function parseEventId(afterId: string | undefined): number {
  if (afterId === undefined) return 0;
  const after = Number(afterId);
  return Number.isSafeInteger(after) && after > 0 ? after : 0;
}

/** `getMany`'s answer from rows of stored (key, value) text: the values in the keys' order. */
export function valuesInKeyOrder(
  keys: readonly string[],
  rows: readonly { readonly key: string; readonly value: string }[],
): unknown[] {
  const found = new Map(rows.map((row) => [row.key, row.value]));
  return keys.map((key) => {
    const text = found.get(key);
    return text === undefined ? undefined : decodeValue(text);
  });
}
