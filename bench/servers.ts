/**
 * The server processes a benchmark starts (the sandbox, a companion, a reference server): this
 * Node running `args`, ready once it prints `listening on <url>`. Each is stopped when the
 * benchmark's process exits, however it ends, so a failed run leaves no server behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface RunningServer {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts `node <args>` with `env` added; resolves with the URL it prints. */
export function startServer(
  args: readonly string[],
  options: { readonly env?: Record<string, string>; readonly cwd?: string | undefined } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGTERM'));
  const name = args.at(-1)?.slice(0, 60) ?? 'node';
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Starts a TypeScript entry of this repository (through tsx), from `cwd` when given. */
export function startEntry(
  entry: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<RunningServer> {
  return startServer(['--import', 'tsx', entry], { env, cwd });
}

/** Stops a server and resolves once it has exited. */
export function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
