/**
 * Time, as the model is given it: a monotonic clock for counting down (immune to the customer
 * changing their clock) and timers it can cancel. Tests pass a fake that moves when told.
 */
export interface Clock {
  /** Milliseconds from an arbitrary start that never jumps (performance.now in a browser). */
  monotonic(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}
