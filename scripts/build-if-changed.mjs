#!/usr/bin/env node
// Runs `npm run <script>` (build or build:widget) unless dist/ was already built from these very
// sources, told by a stamp the last successful build left in dist/. `npm ci` runs `prepare`,
// which builds; `npm test` then finds the stamp and builds nothing; `npm start` rebuilds only
// after a change (issue 25: it rebuilt five bundles on every start).
//
// The stamp is a hash of the build's inputs' content, not their times: a checkout or a copy
// changes times without changing what is built. PAYDROP_FORCE_BUILD=1 builds regardless.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { built, fingerprint, stampOf, TARGETS } from './build-stamp.mjs';

const ROOT = resolve(import.meta.dirname, '..');

const script = process.argv[2] ?? '';
if (!Object.hasOwn(TARGETS, script)) {
  console.error(`Usage: node scripts/build-if-changed.mjs <${Object.keys(TARGETS).join('|')}>`);
  process.exit(2);
}
if (process.env.PAYDROP_FORCE_BUILD !== '1' && built(script)) {
  console.log(`dist/ is up to date with the sources: \`npm run ${script}\` skipped.`);
  process.exit(0);
}
// Hashed before the build: a source edited while it runs makes the next run build again.
const included = TARGETS[script].includes;
const stamps = [[script, fingerprint(script)]];
if (included) stamps.push([included, fingerprint(included)]);
// A build that fails half-way leaves no stamp behind to vouch for it.
for (const [name] of stamps) rmSync(stampOf(name), { force: true });
// npm's own CLI when npm runs this (npm_execpath), else the npm on the PATH.
const npm = process.env.npm_execpath;
const run = npm?.endsWith('.js')
  ? spawnSync(process.execPath, [npm, 'run', script], { cwd: ROOT, stdio: 'inherit' })
  : spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
for (const [name, value] of stamps) writeFileSync(stampOf(name), `${value}\n`);
