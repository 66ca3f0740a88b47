/**
 * The sandbox's own time: real time plus an offset that `POST /__sandbox/clock` moves forward,
 * so tests can reach a virtual account's expiry or a payout's settlement without waiting.
 * Every delayed thing the sandbox does (settlement, expiry, webhook retries) is scheduled here,
 * so moving the clock runs what has come due, in order.
 */
export interface SandboxClock {
  /** Current sandbox time in epoch milliseconds. */
  now(): number;
  /** Moves time forward and runs every task that has come due. */
  advance(seconds: number): void;
  /** Runs `task` once sandbox time reaches `atMs`; returns a function that cancels it. */
  schedule(atMs: number, task: () => void): () => void;
  /** Cancels every pending task and its timer. */
  close(): void;
}

interface Task {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
}

export function createClock(realNow: () => number = Date.now): SandboxClock {
  let offsetMs = 0;
  let order = 0;
  let tasks: Task[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const now = () => realNow() + offsetMs;

  function runDue(): void {
    // One reading of the clock: with two, a task falling due between them was neither run nor
    // kept (a payout that never settled in the chaos run of issue 9).
    const time = now();
    const due = tasks.filter((task) => task.at <= time);
    tasks = tasks.filter((task) => task.at > time);
    due.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const task of due) task.run();
    arm();
  }

  // One real timer for the earliest task keeps idle sandboxes free of timers.
  function arm(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (closed || tasks.length === 0) return;
    const earliest = Math.min(...tasks.map((task) => task.at));
    timer = setTimeout(runDue, Math.max(0, earliest - now()));
    // A sandbox left open must not keep a test process or CLI alive on its own.
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    now,
    advance(seconds) {
      offsetMs += seconds * 1000;
      runDue();
    },
    schedule(atMs, run) {
      if (closed) return () => {};
      const task: Task = { at: atMs, order: order++, run };
      tasks.push(task);
      arm();
      return () => {
        tasks = tasks.filter((other) => other !== task);
        arm();
      };
    },
    close() {
      closed = true;
      tasks = [];
      arm();
    },
  };
}
