/**
 * The virtual account's countdown on the server's clock (the customer's may be wrong): seconds
 * left, the milestones worth announcing, and the moment it reaches zero.
 */
import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { Clock } from './clock';

/** Milestones of the countdown worth announcing to a screen reader, in minutes left. */
const MILESTONES = [10, 5, 1] as const;

export interface CountdownOptions {
  readonly clock: Clock;
  /** When the account expires (epoch ms, server clock), or null when nothing counts down. */
  readonly expiresAt: ReadonlySignal<number | null>;
  /** The time is up. */
  readonly reachedZero: () => void;
}

export function createCountdown(options: CountdownOptions) {
  const { clock, expiresAt } = options;
  /** Server time minus monotonic time: serverNow = monotonic() + serverOffset. */
  const serverOffset = signal<number | null>(null);
  const tick = signal(0);
  const milestone = signal<number | null>(null);
  let timer: unknown = null;
  let previousLeft: number | null = null;

  /** Milliseconds until the account expires, on the server's clock; null when none. */
  const msLeft = computed(() => {
    void tick.value;
    const at = expiresAt.value;
    const offset = serverOffset.value;
    if (at === null || offset === null) return null;
    return Math.max(0, at - (clock.monotonic() + offset));
  });

  const secondsLeft = computed(() =>
    msLeft.value === null ? null : Math.ceil(msLeft.value / 1000),
  );

  function onTick(): void {
    tick.value++;
    const left = msLeft.value;
    if (left === null) return;
    for (const mark of MILESTONES) {
      const edge = mark * 60_000;
      if (previousLeft !== null && previousLeft > edge && left <= edge) milestone.value = mark;
    }
    previousLeft = left;
    if (left === 0) options.reachedZero();
  }

  function stop(): void {
    if (timer !== null) clock.clearInterval(timer);
    timer = null;
  }

  return {
    secondsLeft,
    /** The last milestone reached (minutes left; 0 at expiry); null when there is none to say. */
    milestone,

    /** The server's clock read `serverTime` just now. */
    anchor(serverTime: number): void {
      serverOffset.value = serverTime - clock.monotonic();
    },

    /** True once `at` has passed on the server's clock. */
    passed(at: number): boolean {
      const offset = serverOffset.peek();
      return offset !== null && clock.monotonic() + offset >= at;
    },

    /** Counts from now, a tick a second, with no milestone said yet. */
    start(): void {
      stop();
      milestone.value = null;
      previousLeft = null;
      timer = clock.setInterval(onTick, 1000);
    },

    stop,

    /** The clock may have jumped (the tab slept): read it again now. */
    refresh(): void {
      tick.value++;
    },
  };
}

export type Countdown = ReturnType<typeof createCountdown>;
