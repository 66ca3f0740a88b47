/**
 * The package as a merchant gets it: packed with `npm pack` in a staging folder and unpacked into
 * the node_modules of a consumer project whose other packages (express, fastify, hono,
 * typescript, ...) are this repository's installed ones. What is packed is the dist/ that
 * `npm test` has just built, when its stamp says it was built from the sources as they are now
 * (scripts/build-stamp.mjs): the same files `npm publish` would take, without building them a
 * second time. Otherwise (a test file run on its own after an edit) the stage builds its own, never
 * touching the shared dist/. Once per state of the sources: parallel test files share one stage,
 * the first makes it and the others wait for it (test/helpers/cached-folder.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { built, DIST } from '../../scripts/build-stamp.mjs';
import { cachedFolder } from '../helpers/cached-folder';

export const ROOT = resolve(import.meta.dirname, '../..');
const INPUTS = [
  'src',
  'package.json',
  'README.md',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/dts-extensions.mjs',
  // The files the packed server serves as the script tag's (src/server/http/script-files.ts).
  'dist/paydrop.js',
  'dist/paydrop-chunks.json',
];

export interface PackedPackage {
  /** The .tgz npm pack wrote. */
  readonly tarball: string;
  /** A project with paydrop (from the tarball) and this repository's packages in node_modules. */
  readonly consumer: string;
}

function fingerprint(): string {
  // The checkout's own path too: the consumer's node_modules links into ROOT, so a stage made by
  // another clone of the same sources (since deleted, as CI's are) must not be reused.
  const hash = createHash('sha256').update(ROOT);
  const add = (path: string) => {
    const full = join(ROOT, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) add(join(path, name));
    } else {
      hash.update(path).update(readFileSync(full));
    }
  };
  for (const input of INPUTS) add(input);
  return hash.digest('hex').slice(0, 16);
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** The build's own files into `dist`: everything but the demo and the stamps, as npm publishes. */
function copyBuiltDist(dist: string): void {
  cpSync(DIST, dist, {
    recursive: true,
    filter: (source) => {
      const inDist = source.slice(DIST.length + 1);
      return inDist !== 'demo' && !inDist.startsWith('.build-stamp-');
    },
  });
}

function buildDist(dist: string): void {
  const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
  // The script tag's chunks (first: their build empties the folder), its checkout (which names
  // the folder after them and itself) and its loader, which names that folder, the server entries and the widget's ES module; the demo is not part of what is
  // tried. The server inlines the script files of the repository's dist/ (as it does the card
  // frame's), which npm test has just built from the same sources: the same bytes.
  run(bin('vite'), ['build', '--mode', 'chunks', '--outDir', dist, '--logLevel', 'error'], ROOT);
  run(bin('vite'), ['build', '--mode', 'checkout', '--outDir', dist, '--logLevel', 'error'], ROOT);
  run(bin('vite'), ['build', '--outDir', dist, '--logLevel', 'error'], ROOT);
  run(bin('vite'), ['build', '--mode', 'node', '--outDir', dist, '--logLevel', 'error'], ROOT);
  run(bin('vite'), ['build', '--mode', 'esm', '--outDir', dist, '--logLevel', 'error'], ROOT);
  try {
    run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', join(dist, 'types')], ROOT);
  } catch {
    // Type errors are typecheck's to report; the declarations are emitted all the same.
    if (!existsSync(join(dist, 'types/server/index.d.ts'))) throw new Error('tsc emitted nothing');
  }
  run(process.execPath, ['scripts/dts-extensions.mjs', join(dist, 'types')], ROOT);
}

function build(stage: string): PackedPackage {
  const pkg = join(stage, 'pkg');
  const dist = join(pkg, 'dist');
  mkdirSync(dist, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(ROOT, 'README.md'), join(pkg, 'README.md'));
  if (built('build')) copyBuiltDist(dist);
  else buildDist(dist);
  const packed = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', stage],
    { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tarball = join(
    stage,
    (JSON.parse(packed) as Array<{ filename: string }>)[0]?.filename ?? '',
  );

  const consumer = join(stage, 'consumer');
  const modules = join(consumer, 'node_modules');
  mkdirSync(join(modules, 'paydrop'), { recursive: true });
  run('tar', ['-xzf', tarball, '-C', join(modules, 'paydrop'), '--strip-components=1'], stage);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'paydrop' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'merchant-shop', private: true, type: 'module' }, null, 2),
  );
  // Deno: use node_modules as it is, fetch nothing.
  writeFileSync(join(consumer, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
  return { tarball, consumer };
}

/** Builds of earlier states of the sources, untouched for an hour, go. */
function removeStale(current: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith('paydrop-packed-') || path === current || name.endsWith('.lock')) continue;
    const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - modified > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/** The packed package of the sources as they are now; builds it unless already built. */
export function packedPackage(): PackedPackage {
  let made = false;
  const stage = cachedFolder('paydrop-packed', fingerprint(), (folder) => {
    writeFileSync(join(folder, 'packed.json'), JSON.stringify(build(folder)));
    made = true;
  });
  if (made) removeStale(stage);
  return JSON.parse(readFileSync(join(stage, 'packed.json'), 'utf8')) as PackedPackage;
}

/** Copies `files` (paths under test/consumers) into the consumer project; their new paths. */
export function intoConsumer(packed: PackedPackage, files: readonly string[]): void {
  for (const file of files) {
    cpSync(join(ROOT, 'test/consumers', file), join(packed.consumer, file), { recursive: true });
  }
}
