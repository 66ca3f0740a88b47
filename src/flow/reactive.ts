/**
 * The model's state cells and one change notification: the smallest thing that does the job.
 *
 * The checkout used @preact/signals-core, whose fine-grained dependency graph it never needed:
 * the dialog redraws its whole (small) tree whenever anything in the model moves. Those 1.3 KB
 * gzipped were paid by every customer, and the script-tag bundle has a 15 KB budget that must
 * also hold the bank's popup. So: cells with `.value` and `.peek()` as signals have, derived
 * values computed on read, `batch` to tell once for several changes, and `subscribe`.
 */

export interface ReadonlyCell<T> {
  readonly value: T;
  peek(): T;
}

export interface Cell<T> extends ReadonlyCell<T> {
  value: T;
}

export function createScope() {
  const listeners = new Set<() => void>();
  let depth = 0;
  let changed = false;

  function tell(): void {
    if (depth > 0) {
      changed = true;
      return;
    }
    changed = false;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        // One listener's bug must not become the change's: it is reported, the rest still hear.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  return {
    cell<T>(initial: T): Cell<T> {
      let current = initial;
      return {
        get value() {
          return current;
        },
        set value(next: T) {
          if (Object.is(next, current)) return;
          current = next;
          tell();
        },
        peek: () => current,
      };
    },

    /** A value derived from cells, computed afresh on every read (each is a few comparisons). */
    derived<T>(compute: () => T): ReadonlyCell<T> {
      return {
        get value() {
          return compute();
        },
        peek: compute,
      };
    },

    /** Several changes, one notification at the end. */
    batch(run: () => void): void {
      depth++;
      try {
        run();
      } finally {
        if (--depth === 0 && changed) tell();
      }
    },

    /** Calls `listener` now and after every change; returns the function that stops it. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      listener();
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
