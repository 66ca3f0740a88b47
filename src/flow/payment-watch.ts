/**
 * Following a payment to its outcome: the companion's push first, polling as the fallback
 * (every 2 s for the first minute, then every 10 s, DESIGN.md), and never past the outcome.
 * Answers about an older payment than the one followed now are dropped.
 */
import type { Clock } from './clock';
import type { CompanionPort, PaymentStatus, StatusAnswer } from './companion';

/** Status checks: every 2 s for the first minute, then every 10 s (DESIGN.md). */
export function pollDelayMs(sinceStartMs: number): number {
  return sinceStartMs < 60_000 ? 2000 : 10_000;
}

export interface PaymentWatchOptions {
  readonly companion: Pick<CompanionPort, 'status' | 'watch'>;
  readonly clock: Clock;
  /** A status arrived, pushed or polled, with why it failed when the companion said. */
  readonly heard: (status: PaymentStatus, answer?: StatusAnswer) => void;
  /** The server's clock, as a status answer gave it. */
  readonly serverTime: (serverTime: number) => void;
  /** Whether the outcome is still awaited; polling ends when it is not. */
  readonly awaiting: () => boolean;
}

export function createPaymentWatch(options: PaymentWatchOptions) {
  const { companion, clock } = options;
  let token: string | null = null;
  let generation = 0;
  let stopPush: (() => void) | null = null;
  let pollTimer: unknown = null;
  let startedAt = 0;
  let disposed = false;

  async function check(): Promise<void> {
    if (disposed || !token) return;
    const mine = generation;
    try {
      const answer = await companion.status(token);
      if (mine !== generation) return;
      if (answer.serverTime !== null) options.serverTime(answer.serverTime);
      options.heard(answer.status, answer);
    } catch {
      // A failed check is not an outcome; the next one, or the push, will tell.
    }
  }

  function schedule(): void {
    if (disposed || !options.awaiting()) return;
    const mine = generation;
    pollTimer = clock.setTimeout(
      async () => {
        pollTimer = null;
        await check();
        // A newer payment (a fresh account) runs its own loop; this one ends here.
        if (mine === generation) schedule();
      },
      pollDelayMs(clock.monotonic() - startedAt),
    );
  }

  function stop(): void {
    stopPush?.();
    stopPush = null;
    if (pollTimer !== null) clock.clearTimeout(pollTimer);
    pollTimer = null;
  }

  return {
    /** The token of the payment under way, for picking it up after a full-page redirect. */
    token: () => token,

    /** This payment's token, for checks from now on (the card's, before it is followed). */
    adopt(next: string): void {
      token = next;
    },

    /** A newer payment, or none: answers about the one before are dropped. */
    renew(): void {
      generation++;
    },

    /** Push and polling, until stopped. */
    start(): void {
      stop();
      if (!token) return;
      stopPush = companion.watch(token, options.heard);
      startedAt = clock.monotonic();
      schedule();
    },

    stop,

    /** One status check now. */
    check,

    dispose(): void {
      stop();
      disposed = true;
      generation++;
    },
  };
}

export type PaymentWatch = ReturnType<typeof createPaymentWatch>;
