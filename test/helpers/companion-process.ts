/**
 * A companion in a child process on a durable store, for kill-and-restart and two-instance
 * tests (issue 10): the sandbox stays in the test's process and outlives it.
 *
 * @example
 * const sandbox = await startSandbox();
 * const path = join(mkdtempSync(join(tmpdir(), 'paydrop-')), 'checkout.db');
 * const first = await startCompanionProcess({ store: `sqlite:${path}`, sandbox });
 * await sandbox.request('POST', '/__sandbox/config', { webhookUrl: `${first.url}/webhooks` });
 * // … start payments through first.url, then:
 * first.kill(); // SIGKILL
 * const second = await startCompanionProcess({ store: `sqlite:${path}`, sandbox, port: first.port });
 * // outcomes: first.paymentOutcomes and second.paymentOutcomes, each reported once in all
 */
import { type ChildProcess, spawn } from 'node:child_process';

const ENTRY = new URL('./companion-process-entry.ts', import.meta.url).pathname;

export interface CompanionProcess {
  /** e.g. http://127.0.0.1:5123/api/checkout */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** What the merchant's onPaymentOutcome received in this process, in order. */
  readonly paymentOutcomes: Array<Record<string, unknown>>;
  readonly payoutOutcomes: Array<Record<string, unknown>>;
  /** Everything it wrote to stderr (its warnings and errors). */
  readonly log: string[];
  /** Kills it at once (SIGKILL by default) and waits for it to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it cleanly (SIGTERM), closing its store. */
  stop(): Promise<void>;
  /** How far its clock is ahead of the real one, in ms: give it to the process that replaces it. */
  readonly clockOffsetMs: number;
  /**
   * Moves its clock `seconds` forward and resolves once it has run the background work that came
   * due and its outcome lines have been read (move the sandbox's clock too, with
   * `POST /__sandbox/clock`).
   */
  advance(seconds: number): Promise<void>;
}

export async function startCompanionProcess(options: {
  /** `sqlite:<path>`, `redis:<url>`, `postgres:<url>` (e.g. `postgres:postgres://…`) or `memory`. */
  readonly store: string;
  readonly sandbox: { readonly url: string; readonly secretKey: string };
  /** 0 (default) for a free port; a killed process's port to take its place. */
  readonly port?: number;
  /** Where its clock starts, ahead of the real one: a killed process's `clockOffsetMs`. */
  readonly clockOffsetMs?: number;
}): Promise<CompanionProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    env: {
      ...process.env,
      PAYDROP_TEST_STORE: options.store,
      SANDBOX_URL: options.sandbox.url,
      SANDBOX_SECRET_KEY: options.sandbox.secretKey,
      PORT: String(options.port ?? 0),
      PAYDROP_TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs ?? 0),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const paymentOutcomes: Array<Record<string, unknown>> = [];
  const payoutOutcomes: Array<Record<string, unknown>> = [];
  const log: string[] = [];
  /** The last `advanced <n>` line read from its stdout, and who waits for a later one. */
  let advancedUpTo = 0;
  const advanceWaiters: Array<{ mark: number; done: () => void }> = [];
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const listening = /^listening on (http:\/\/\S+)/.exec(line);
        if (listening?.[1]) resolve(listening[1]);
        else if (line.startsWith('payment-outcome '))
          paymentOutcomes.push(JSON.parse(line.slice('payment-outcome '.length)));
        else if (line.startsWith('payout-outcome '))
          payoutOutcomes.push(JSON.parse(line.slice('payout-outcome '.length)));
        else if (line.startsWith('advanced ')) {
          advancedUpTo = Number(line.slice('advanced '.length));
          for (const waiter of advanceWaiters.splice(0))
            if (waiter.mark <= advancedUpTo) waiter.done();
            else advanceWaiters.push(waiter);
        }
      }
    });
    child.once('exit', (code, signal) =>
      reject(
        new Error(`companion process exited (${code ?? signal}) before listening: ${log.join('')}`),
      ),
    );
  });
  const port = Number(new URL(origin).port);
  let clockOffsetMs = options.clockOffsetMs ?? 0;
  return {
    url: `${origin}/api/checkout`,
    origin,
    port,
    child,
    paymentOutcomes,
    payoutOutcomes,
    log,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    get clockOffsetMs() {
      return clockOffsetMs;
    },
    async advance(seconds) {
      const moved = await fetch(`${origin}/__test/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
      if (!moved.ok) throw new Error(`advance failed: ${moved.status} ${await moved.text()}`);
      const answer = (await moved.json()) as { clockOffsetMs: number; advanced: number };
      clockOffsetMs = answer.clockOffsetMs;
      // Its stdout read up to the mark it printed: every outcome that work reported is in
      // paymentOutcomes now.
      if (advancedUpTo < answer.advanced)
        await new Promise<void>((done) => advanceWaiters.push({ mark: answer.advanced, done }));
    },
  };
}
