/**
 * A memory limit for a benchmark's server, as a container gives one: a cgroup of its own with
 * `memory.max` (cgroup v2) or `memory.limit_in_bytes` (v1), entered by the server's process
 * before Node starts.
 *
 * Why it matters to a memory figure: Node sizes V8's heap from the memory it is given
 * (`process.constrainedMemory()`, else the host's). On Node 24 the young generation alone takes
 * 128 MB on a host of 4 GiB or more, 64 MB in 2 GiB and 32 MB in 1 GiB (Node 22: 32 MB at any
 * size), so the same server holds ~100 MB more resident on a large host than in a container.
 *
 * Needs a writable cgroup memory controller (root, or a delegated group). Without one,
 * `memoryLimit` answers why not, and the bench says so and runs without a limit.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MemoryLimit {
  /** The limit, for a bench's output, e.g. "1 GiB". */
  readonly label: string;
  /** `command args…` run inside the limit: a shell that joins the group, then execs. */
  wrap(command: string, args: readonly string[]): [string, string[]];
  /** Removes the group; call once every process in it has exited. */
  remove(): void;
}

export function memoryLimit(bytes: number): MemoryLimit | string {
  const group = `paydrop-bench-${process.pid}-${Math.round(bytes / 2 ** 20)}m`;
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  // Under this process's own group when it may make one there, else at the hierarchy's top.
  const own =
    /^(?:0::|\d+:memory:)(\/.*)$/m.exec(
      readFileSync('/proc/self/cgroup', 'utf8')
        .split('\n')
        .filter((line) => (v2 ? line.startsWith('0::') : /^\d+:memory:/.test(line)))
        .join('\n'),
    )?.[1] ?? '/';
  const root = v2 ? '/sys/fs/cgroup' : '/sys/fs/cgroup/memory';
  const limitFile = v2 ? 'memory.max' : 'memory.limit_in_bytes';
  const reasons: string[] = [];
  for (const parent of [join(root, own), root]) {
    const folder = join(parent, group);
    try {
      mkdirSync(folder);
    } catch (error) {
      reasons.push(`${folder}: ${(error as Error).message}`);
      continue;
    }
    try {
      writeFileSync(join(folder, limitFile), String(bytes));
      if (Number(readFileSync(join(folder, limitFile), 'utf8')) !== bytes)
        throw new Error(`${limitFile} did not take ${bytes}`);
    } catch (error) {
      rmdirSync(folder);
      reasons.push(`${folder}: ${(error as Error).message}`);
      continue;
    }
    const procs = join(folder, 'cgroup.procs');
    return {
      label:
        bytes % 2 ** 30 === 0 ? `${bytes / 2 ** 30} GiB` : `${Math.round(bytes / 2 ** 20)} MiB`,
      wrap: (command, args) => [
        '/bin/sh',
        ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args],
      ],
      remove: () => {
        try {
          rmdirSync(folder);
        } catch {
          // Still in use or already gone: the group is empty and harmless either way once its
          // processes end; the operating system keeps it until then.
        }
      },
    };
  }
  return `no writable cgroup memory controller (${reasons.join('; ')})`;
}
