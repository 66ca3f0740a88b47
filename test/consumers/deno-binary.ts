// Deno for the consumer tests, from its npm package: DENO_PATH if set, else a copy installed once
// into node_modules/.cache/deno. It is not a devDependency because the registry a machine reaches
// may carry Deno's binary for its own platform only, and `npm ci` refuses a lock file that lacks the
// others; installed here, npm fetches just the one this machine needs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './packed-package';

const VERSION = '2.9.6';

export function denoBinary(): string {
  if (process.env.DENO_PATH) return process.env.DENO_PATH;
  const home = join(ROOT, 'node_modules/.cache/deno');
  const binary = join(
    home,
    'node_modules/.bin',
    process.platform === 'win32' ? 'deno.cmd' : 'deno',
  );
  if (existsSync(binary)) return binary;
  mkdirSync(home, { recursive: true });
  // Its install script links the platform's binary; approved here as package.json approves ours.
  writeFileSync(
    join(home, 'package.json'),
    JSON.stringify({ private: true, allowScripts: { deno: true } }),
  );
  execFileSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `deno@${VERSION}`],
    { cwd: home, stdio: 'ignore' },
  );
  return binary;
}
