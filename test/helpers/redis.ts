/**
 * A real redis-server for tests: on a free loopback port, stopped on teardown, configured as the
 * README asks of production (appendonly yes, maxmemory-policy noeviction) so the store's start-up
 * check has nothing to say; its append-only log goes to a temporary folder removed on stop (a
 * server started again on the same port starts empty, as before). Snapshots stay off.
 * `.ci/run` installs Debian's redis-server when it is missing; REDIS_SERVER overrides the binary.
 *
 * @example
 * const redis = await startRedis();
 * afterAll(() => redis.stop());
 * const store = createRedisStore({ url: redis.url });
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RunningRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after a second); safe to call twice. */
  stop(): Promise<void>;
}

/** REDIS_SERVER, else the first redis-server on PATH, else Debian's place for it. */
export const REDIS_SERVER =
  process.env.REDIS_SERVER ??
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((folder) => join(folder, 'redis-server'))
    .find((file) => existsSync(file)) ??
  '/usr/bin/redis-server';

/**
 * True when a redis-server binary is there to start; tests skip with a reason otherwise. In CI
 * (`CI` set) always true: a missing server must fail the run, not skip its tests in silence.
 */
export function hasRedisServer(): boolean {
  return Boolean(process.env.CI) || existsSync(REDIS_SERVER);
}

/** A free loopback port, for a server the tests start themselves. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function startOnce(port: number, args: readonly string[] = []): Promise<RunningRedis> {
  const folder = mkdtempSync(join(tmpdir(), 'paydrop-redis-'));
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--dir',
      folder,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'yes',
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
      // Later arguments win: a test's own settings (an evicting policy, CONFIG renamed).
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port}:\n${output}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} on port ${port}:\n${output}`));
    });
  });
  await started.catch((error: unknown) => {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  let stopped: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 1000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      });
      return stopped;
    },
  };
}

/**
 * Starts a redis-server; retries on another port if the chosen one was taken meanwhile. Give
 * `port` to start one again where a stopped one was (a Redis restart, clients reconnecting), and
 * `args` for settings of its own, e.g. `['--maxmemory-policy', 'allkeys-lru']`.
 */
export async function startRedis(
  options: { port?: number; args?: readonly string[] } = {},
): Promise<RunningRedis> {
  if (options.port !== undefined) return startOnce(options.port, options.args);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(await freePort(), options.args);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
