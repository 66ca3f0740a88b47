// Whether dist/ was built from the sources as they are now, told by the stamp a successful build
// leaves in dist/ (a hash of the build's inputs' content). scripts/build-if-changed.mjs skips a
// build that is already there; the consumer tests (test/consumers/packed-package.ts) pack the
// dist/ that `npm test` has just built instead of building the same files a second time.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const DIST = join(ROOT, 'dist');

/** What each script builds from, and files it must leave, or the stamp is not trusted. */
export const TARGETS = {
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

export const stampOf = (script) => join(DIST, `.build-stamp-${script.replace(/\W/g, '-')}`);

export function fingerprint(script) {
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

export function built(script) {
  const target = TARGETS[script];
  const outputs = [...target.outputs, ...(target.includes ? TARGETS[target.includes].outputs : [])];
  if (!outputs.every((file) => existsSync(join(DIST, file)))) return false;
  const stamp = stampOf(script);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === fingerprint(script);
}
