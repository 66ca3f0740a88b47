/**
 * `npm start`'s server (demo/server.ts: the shop, the companion, the embedded sandbox on an
 * origin of its own and the back office) in a child process on free loopback ports, its state in
 * a temporary folder of its own, for the e2e tests and `npm run screenshots`. Run
 * `npm run build:widget` first: the demo serves dist/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DemoProcess {
  /** e.g. http://127.0.0.1:41234, without a trailing slash. */
  readonly url: string;
  readonly process: ChildProcess;
  /** Where its SQLite store lives; removed by stop(). */
  readonly dataDir: string;
  /** Everything it printed on stdout until it was ready. */
  readonly printed: string;
  /** Ends the process (SIGTERM) and removes its state folder. */
  stop(): Promise<void>;
}

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts the demo with `env` added to this process's environment (PORT is always 0) and resolves
 * once it printed where it is ready; rejects if it exits first, with what it printed.
 * @example const demo = await startDemoProcess({ BACK_OFFICE_PASSWORD: 'a password' });
 */
export async function startDemoProcess(env: Record<string, string> = {}): Promise<DemoProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'paydrop-demo-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
    cwd: REPOSITORY,
    env: { ...process.env, ...env, PORT: '0', PAYDROP_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const { url, printed } = await new Promise<{ url: string; printed: string }>(
      (resolve, reject) => {
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          // Ready once the back office's line (the last one) is out too.
          const match = /ready at (http:\/\/[^\s]+?)\/?\s/.exec(output);
          if (match?.[1] && /back office: .*\n/.test(output))
            resolve({ url: match[1], printed: output });
        });
        child.once('exit', (code) =>
          reject(new Error(`the demo exited with ${code} before it was ready: ${output}`)),
        );
      },
    );
    return { url, process: child, dataDir, printed, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
