/**
 * scripts/build-if-changed.mjs (issue 25, item 4; issue 21, item 5): `prepare` builds dist/, and
 * `npm test` and `npm start` build again only when the sources changed. Run here in a project of
 * its own whose `build:widget` only writes the files a build leaves and counts its runs, so each
 * case takes milliseconds instead of a real build's seconds.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/build-if-changed.mjs', import.meta.url);
const STAMP = new URL('../../scripts/build-stamp.mjs', import.meta.url);
const OUTPUTS = [
  'paydrop.js',
  'paydrop-chunks.json',
  'paydrop-card-frame.js',
  'paydrop-card-frame.css',
  'index.js',
  'demo/spa.js',
  'back-office/paydrop-back-office.js',
];

let project: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'paydrop-build-if-changed-'));
  mkdirSync(join(project, 'scripts'));
  copyFileSync(SCRIPT, join(project, 'scripts/build-if-changed.mjs'));
  copyFileSync(STAMP, join(project, 'scripts/build-stamp.mjs'));
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src/index.ts'), 'export const a = 1;\n');
  writeFileSync(join(project, 'vite.config.ts'), 'export default {};\n');
  writeFileSync(join(project, 'package-lock.json'), '{}\n');
  // A "build" that empties dist/ as the real one does, writes its files, and counts itself;
  // FAIL_BUILD=1 makes it fail half-way.
  writeFileSync(
    join(project, 'build.mjs'),
    `import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
appendFileSync('runs.txt', 'x');
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/demo', { recursive: true });
mkdirSync('dist/back-office', { recursive: true });
if (process.env.FAIL_BUILD === '1') process.exit(1);
for (const file of ${JSON.stringify(OUTPUTS)}) writeFileSync('dist/' + file, 'built');
`,
  );
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'stamp-check',
      private: true,
      scripts: { 'build:widget': 'node build.mjs' },
    }),
  );
});

afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

/** Runs the script as `npm start` does; answers how many builds have run so far. */
function start(env: Record<string, string> = {}): number {
  try {
    execFileSync(process.execPath, ['scripts/build-if-changed.mjs', 'build:widget'], {
      cwd: project,
      env: { ...process.env, PAYDROP_FORCE_BUILD: '', FAIL_BUILD: '', ...env },
      stdio: 'pipe',
    });
  } catch {
    // A failed build is counted like any other.
  }
  try {
    return readFileSync(join(project, 'runs.txt'), 'utf8').length;
  } catch {
    return 0;
  }
}

// Each build starts npm, which takes seconds on a loaded machine: the first case starts it five
// times and took 20 s (the default limit) at load 20 on 2 cores.
describe('build-if-changed', { timeout: 60_000 }, () => {
  it('builds once, then again only when a source, the Vite config or the lockfile changes', () => {
    expect(start()).toBe(1);
    expect(start()).toBe(1);
    appendFileSync(join(project, 'src/index.ts'), 'export const b = 2;\n');
    expect(start()).toBe(2);
    expect(start()).toBe(2);
    writeFileSync(join(project, 'src/added.ts'), 'export {};\n');
    expect(start()).toBe(3);
    writeFileSync(join(project, 'vite.config.ts'), 'export default { build: {} };\n');
    expect(start()).toBe(4);
    writeFileSync(join(project, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
    expect(start()).toBe(5);
  });

  it('builds again when a built file is missing, or when told to', () => {
    expect(start()).toBe(1);
    rmSync(join(project, 'dist/paydrop.js'));
    expect(start()).toBe(2);
    expect(start({ PAYDROP_FORCE_BUILD: '1' })).toBe(3);
    expect(start()).toBe(3);
  });

  it('trusts no build that failed half-way', () => {
    expect(start()).toBe(1);
    appendFileSync(join(project, 'src/index.ts'), '// changed\n');
    expect(start({ FAIL_BUILD: '1' })).toBe(2);
    // The failed build left no stamp: the next run builds, though the sources are as they were.
    expect(start()).toBe(3);
    expect(start()).toBe(3);
  });
});
