/**
 * A real PostgreSQL server for tests: `initdb` in a temp folder, trust authentication on
 * 127.0.0.1 only, a free loopback port, its socket in that folder; stopped and deleted on
 * teardown. `.ci/run` installs Debian's postgresql when it is missing; POSTGRES_BIN overrides the
 * folder of its binaries (default: the newest /usr/lib/postgresql/<version>/bin). PostgreSQL
 * refuses to run as root: as root, the folder is given to the `postgres` user the package creates
 * and the binaries run as it (runuser).
 *
 * @example
 * const postgres = await startPostgres();
 * afterAll(() => postgres.stop());
 * const store = createPostgresStore({ url: await postgres.createDatabase('contract') });
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './redis';

export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** A new, empty database on this server; its url. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and deletes its folder; safe to call twice. */
  stop(): Promise<void>;
  /** Stops the server for a while, keeping its data (an outage); `resume` starts it again. */
  halt(): void;
  /** Starts a halted server again on the same port and data; clients reconnect. */
  resume(): void;
}

/** POSTGRES_BIN, else the bin folder of the newest PostgreSQL version installed. */
export function postgresBin(): string | undefined {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))[0];
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

/**
 * True when PostgreSQL's binaries are there; tests skip with a reason otherwise. In CI (`CI` set)
 * always true: a missing server must fail the run, not skip its tests in silence.
 */
export function hasPostgresServer(): boolean {
  return Boolean(process.env.CI) || postgresBin() !== undefined;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs one of PostgreSQL's binaries, as the postgres user when we are root. */
function run(bin: string, command: string, args: string[]): void {
  const file = join(bin, command);
  const [program, ...rest] = isRoot
    ? ['runuser', '-u', 'postgres', '--', file, ...args]
    : [file, ...args];
  const result = spawnSync(program as string, rest, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0)
    throw new Error(
      `${command} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || result.error}`,
    );
}

/** pg_ctl's arguments to start the server of `folder` on `port`. */
function startArgs(folder: string, port: number): string[] {
  // fsync off: a test server's data need not survive a power cut, and it is much faster.
  return [
    '-D',
    join(folder, 'data'),
    '-l',
    join(folder, 'server.log'),
    '-w',
    '-t',
    '30',
    '-o',
    `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ];
}

async function startOnce(bin: string, port: number): Promise<RunningPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'paydrop-postgres-'));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(folder, uid, gid);
  }
  const data = join(folder, 'data');
  const log = join(folder, 'server.log');
  try {
    // Trust on loopback only: the server listens on 127.0.0.1 and its own socket folder.
    run(bin, 'initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    run(bin, 'pg_ctl', startArgs(folder, port));
  } catch (error) {
    const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
    rmSync(folder, { recursive: true, force: true });
    throw new Error(
      `PostgreSQL did not start on port ${port}: ${(error as Error).message}\n${output}`,
    );
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    halt() {
      run(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    },
    resume() {
      run(bin, 'pg_ctl', startArgs(folder, port));
    },
    stop() {
      stopped ??= (async () => {
        try {
          run(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
        } catch {
          // Already stopped, or it will be when its folder goes.
        }
        rmSync(folder, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Starts a PostgreSQL server; retries on another port if the chosen one was taken meanwhile. */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = postgresBin();
  if (!bin)
    throw new Error('no PostgreSQL binaries: install Debian postgresql or set POSTGRES_BIN');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(bin, await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
