/**
 * React 18 for the tests of paydrop/react on React 18 (issue 21: "for React 18 and 19"). The
 * project's own React is 19, and npm cannot hold react-dom 18 beside it (its peer is react 18),
 * so React 18 is a small project of its own, test/consumers/react18 (package.json and lock),
 * installed with `npm ci` from the npm registry into a cache folder the first time a test asks.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedFolder } from '../helpers/cached-folder';
import { ROOT } from './packed-package';

const PROJECT = join(ROOT, 'test/consumers/react18');

/** The node_modules folder holding react and react-dom 18.3.1. */
export function react18Modules(): string {
  const lock = readFileSync(join(PROJECT, 'package-lock.json'));
  const fingerprint = createHash('sha256').update(lock).digest('hex').slice(0, 16);
  const folder = cachedFolder('paydrop-react18', fingerprint, (into) => {
    cpSync(join(PROJECT, 'package.json'), join(into, 'package.json'));
    cpSync(join(PROJECT, 'package-lock.json'), join(into, 'package-lock.json'));
    try {
      execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: into,
        stdio: 'pipe',
      });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? error);
      throw new Error(`Installing React 18 from the npm registry failed:\n${stderr}`);
    }
  });
  return join(folder, 'node_modules');
}
