/**
 * A folder made once per fingerprint and shared by every test file that asks for it, even from
 * parallel workers: the first takes a lock (a directory, which mkdir makes atomically) and makes
 * it; the others wait for its `done` mark. A lock older than five minutes is a dead maker's.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STALE_LOCK_MS = 300_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `<tmpdir>/<name>-<fingerprint>`, made by `make(folder)` unless already made. */
export function cachedFolder(name: string, fingerprint: string, make: (folder: string) => void) {
  const folder = join(tmpdir(), `${name}-${fingerprint}`);
  const done = join(folder, '.done');
  const lock = `${folder}.lock`;
  for (let waited = 0; ; waited += 250) {
    if (existsSync(done)) return folder;
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else if (waited > STALE_LOCK_MS) throw new Error(`Gave up waiting for ${lock}`);
      sleep(250);
    }
  }
  try {
    if (existsSync(done)) return folder;
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    make(folder);
    writeFileSync(done, '');
    return folder;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
