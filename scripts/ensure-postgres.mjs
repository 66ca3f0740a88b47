// Makes sure PostgreSQL's binaries are there before the tests run: the PostgreSQL store's tests
// start their own server (initdb in a temp folder, a free loopback port). Debian's package where
// apt-get is available; elsewhere those tests say they were skipped (outside CI), and
// POSTGRES_BIN may point at a folder of binaries of your own. The newest installed version is
// used, whichever it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function findPostgres() {
  if (process.env.POSTGRES_BIN)
    return existsSync(join(process.env.POSTGRES_BIN, 'initdb'))
      ? process.env.POSTGRES_BIN
      : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))[0];
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

function run(command, args) {
  console.log(`ensure-postgres: ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

const found = findPostgres();
if (found) {
  console.log(`ensure-postgres: using ${found}`);
  process.exit(0);
}
const apt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
if (apt) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const [command, ...prefix] = isRoot ? ['apt-get'] : ['sudo', 'apt-get'];
  if (
    run(command, [...prefix, 'update']) &&
    run(command, [...prefix, 'install', '-y', 'postgresql']) &&
    findPostgres()
  ) {
    process.exit(0);
  }
}
if (process.env.CI) {
  console.error('ensure-postgres: no PostgreSQL found and none could be installed.');
  process.exit(1);
}
console.warn(
  'ensure-postgres: no PostgreSQL here; the PostgreSQL store tests will be skipped. Install Debian postgresql or set POSTGRES_BIN.',
);
