/**
 * A store that cannot be reached says so with one error, which the companion answers as 503
 * `unavailable` with Retry-After (errors.ts) instead of `internal` after a long wait (issue 20,
 * item 6). The Redis and SQLite stores throw it for their outages; a store of your own can too.
 */

/**
 * The store is unreachable or cannot write for now (Redis down or timing out, a SQLite file
 * locked or its disk full): the request may succeed if tried again shortly.
 * @example throw new StoreUnavailableError('Redis did not answer within 2000 ms', { cause: error });
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError' as const;
}

/**
 * Told by name, not class: the stores (paydrop/server/redis, /sqlite) are bundles of their own,
 * each with its own copy of this module.
 */
export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof Error && error.name === 'StoreUnavailableError';
}

/**
 * `store` with every failure its driver calls an outage (`isOutage`) thrown as a
 * StoreUnavailableError that names `what` and keeps the driver's error as its cause; other
 * failures (bad arguments, bugs) pass as they are. Every method is wrapped, sync or async, so a
 * method added to the store later is covered too.
 */
export function withOutages<Store extends object>(
  store: Store,
  what: string,
  isOutage: (error: unknown) => boolean,
): Store {
  const convert = (error: unknown): unknown =>
    isOutage(error)
      ? new StoreUnavailableError(`${what}: ${(error as Error).message}`, { cause: error })
      : error;
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(store)) {
    if (typeof member !== 'function') {
      wrapped[name] = member;
      continue;
    }
    wrapped[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = member.apply(store, args);
      } catch (error) {
        throw convert(error);
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw convert(error);
          })
        : result;
    };
  }
  return wrapped as Store;
}
