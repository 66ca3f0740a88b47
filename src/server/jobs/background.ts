/**
 * Work a handler starts and does not wait for (waking the job picker, a webhook's follow-up): each
 * piece is kept until it settles, so `idle()` can wait for all of it and a serverless host's
 * `waitUntil` keeps the instance alive for it; a failure is logged, never thrown at nobody.
 * After `close()`, nothing new starts.
 */
import type { CheckoutLogger } from '../http';

export interface BackgroundWork {
  /** Starts `work` now unless closed. */
  run(work: () => Promise<unknown>): void;
  /** Resolves once everything started (and whatever that started) has settled. */
  idle(): Promise<void>;
  close(): void;
  readonly closed: boolean;
}

export function createBackgroundWork(options: {
  readonly logger: CheckoutLogger;
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  let closed = false;
  return {
    run(work) {
      if (closed) return;
      const running = work()
        .catch((error) =>
          options.logger.error('paydrop: background work failed', { error: String(error) }),
        )
        .finally(() => pending.delete(running));
      pending.add(running);
      options.waitUntil?.(running);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close() {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}
