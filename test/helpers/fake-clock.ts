/**
 * The one fake clock of the tests: the widget's Clock port (src/flow/clock.ts) in time that
 * moves only through `advance`, firing due timers in order and letting what they started
 * settle. The model's, the widget's and the hosted card flow's tests all use it; `flow` gives a
 * host that reads time as `now()` instead of `monotonic()`.
 */
import type { Clock } from '../../src/flow/clock';

/** Lets every promise continuation already queued run (microtasks drain before setImmediate). */
export async function flush(): Promise<void> {
  for (let round = 0; round < 3; round++) await new Promise<void>((done) => setImmediate(done));
}

interface FakeTimer {
  readonly id: number;
  readonly kind: 'timeout' | 'interval';
  readonly ms: number;
  readonly run: () => void;
  due: number;
}

/**
 * Monotonic time that moves only through `advance`. Timers fire in order of due time (then of
 * creation) as time passes them, each followed by a flush so that async callbacks finish before
 * the next one fires.
 */
export class FakeClock implements Clock {
  private now: number;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();
  /** Every timer ever requested, for assertions on delays. */
  readonly requested: { kind: 'timeout' | 'interval'; ms: number; at: number }[] = [];

  constructor(start = 1_000) {
    this.now = start;
  }

  monotonic(): number {
    return this.now;
  }

  setTimeout(run: () => void, ms: number): unknown {
    return this.add('timeout', run, ms);
  }

  setInterval(run: () => void, ms: number): unknown {
    return this.add('interval', run, ms);
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  clearInterval(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** The clock as a host that reads time as `now()` (the hosted card flow) sees it. */
  asNowClock(): {
    now(): number;
    setTimeout(run: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
  } {
    return {
      now: () => this.monotonic(),
      setTimeout: (run, ms) => this.setTimeout(run, ms),
      clearTimeout: (handle) => this.clearTimeout(handle),
    };
  }

  /** Timers that would still fire. */
  get pending(): number {
    return this.timers.size;
  }

  pendingOf(kind: 'timeout' | 'interval'): number {
    return [...this.timers.values()].filter((timer) => timer.kind === kind).length;
  }

  /** Moves time forward by `ms`, firing every timer that comes due on the way. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('Monotonic time never goes back.');
    const until = this.now + ms;
    for (;;) {
      const next = this.nextDue();
      if (!next || next.due > until) break;
      this.now = next.due;
      if (next.kind === 'interval') next.due += Math.max(1, next.ms);
      else this.timers.delete(next.id);
      next.run();
      // One macrotask turn: every promise continuation the callback queued runs before it.
      await new Promise<void>((done) => setImmediate(done));
    }
    this.now = until;
    await flush();
  }

  private nextDue(): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers.values()) {
      if (!best || timer.due < best.due || (timer.due === best.due && timer.id < best.id)) {
        best = timer;
      }
    }
    return best;
  }

  private add(kind: 'timeout' | 'interval', run: () => void, ms: number): number {
    const id = this.nextId++;
    const delay = Math.max(0, ms);
    this.timers.set(id, { id, kind, ms: delay, run, due: this.now + delay });
    this.requested.push({ kind, ms: delay, at: this.now });
    return id;
  }
}
