#!/usr/bin/env node
// Runs `npm run <script>` (build or build:widget) unless dist/ was already built from these very
// sources, told by a stamp the last successful build left in dist/. `npm ci` runs `prepare`,
// which builds; `npm test` then finds the stamp and builds nothing; `npm start` rebuilds only
// after a change (issue 25: it rebuilt five bundles on every start).
//
// The stamp is a hash of the build's inputs' content, not their times: a checkout or a copy
// changes times without changing what is built. PAYDROP_FORCE_BUILD=1 builds regardless.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');

/** What each script builds from, and files it must leave, or the stamp is not trusted. */
const TARGETS = {
  'build:widget': {
    inputs: ['src', 'demo', 'vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'],
    outputs: [
      'paydrop.js',
      'paydrop-chunks.json',
      'paydrop-card-frame.js',
      'paydrop-card-frame.css',
      'index.js',
      'demo/spa.js',
      'back-office/paydrop-back-office.js',
    ],
  },
  build: {
    inputs: [
      'src',
      'demo',
      'vite.config.ts',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'scripts/dts-extensions.mjs',
    ],
    outputs: ['server.js', 'server-node.js', 'sandbox.js', 'types/server/index.d.ts'],
    // A full build is the widget's too.
    includes: 'build:widget',
  },
};

const stampOf = (script) => join(DIST, `.build-stamp-${script.replace(/\W/g, '-')}`);

function fingerprint(script) {
  const hash = createHash('sha256').update(`${script}\n`);
  const add = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`${relative(ROOT, path)}\n`).update(readFileSync(path));
    }
  };
  for (const input of TARGETS[script].inputs) add(join(ROOT, input));
  return hash.digest('hex');
}

function built(script) {
  const target = TARGETS[script];
  const outputs = [...target.outputs, ...(target.includes ? TARGETS[target.includes].outputs : [])];
  if (!outputs.every((file) => existsSync(join(DIST, file)))) return false;
  const stamp = stampOf(script);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === fingerprint(script);
}

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
