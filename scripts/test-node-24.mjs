// `npm test` on Node's current LTS as well: the Node-only tests (test/node, test/consumers,
// test/types; not the browser ones, which run once) again on Node 24, fetched from the npm
// registry as the `node-<platform>-<arch>` package the first time and kept in
// node_modules/.cache/node-24 (issue 13). Nothing but the npm registry is needed.
//
// better-sqlite3 in node_modules is release 12, compiled for the Node that installed it; for the
// Node 24 run release 13 (Node-API, prebuilt) is fetched once beside Node 24 and the tests'
// imports of it are pointed there (scripts/node-24-hooks.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';

const MAJOR = 24;
const SQLITE_FOR_NODE_24 = 'better-sqlite3@13';
const root = resolve(import.meta.dirname, '..');
const home = join(root, 'node_modules/.cache', `node-${MAJOR}`);
const log = (message) => console.log(`test-node-${MAJOR}: ${message}`);

if (Number(process.versions.node.split('.')[0]) === MAJOR || process.env.PAYDROP_SKIP_NODE_24) {
  log('skipped (already on it, or PAYDROP_SKIP_NODE_24 set)');
  process.exit(0);
}

const platform = process.platform === 'win32' ? 'win' : process.platform;
const node = join(home, 'package/bin', process.platform === 'win32' ? 'node.exe' : 'node');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(node)) {
  const name = `node-${platform}-${process.arch}@${MAJOR}`;
  log(`fetching ${name} from the npm registry (once)`);
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  execFileSync(npm, ['pack', name, '--silent', '--pack-destination', home], { stdio: 'ignore' });
  const tarball = readdirSync(home).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${name} wrote no tarball`);
  execFileSync('tar', ['-xzf', tarball], { cwd: home });
  rmSync(join(home, tarball));
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

function installedSqlite() {
  const require = createRequire(join(root, 'package.json'));
  return dirname(require.resolve('better-sqlite3/package.json'));
}

/**
 * better-sqlite3 for Node 24: release 13 or later, which is built on Node-API and ships
 * prebuilt binaries for every platform in its package. Release 12 (the dev dependency, since 13
 * needs Node 22 and crashes on Node 20) compiles for Node 24 but aborts it when the garbage
 * collector finalizes a statement (Node 24.19 made ObjectWrap's destructor check for an
 * environment; CI's run of this file hit it). Fetched once from the npm registry beside Node 24;
 * undefined when it cannot be fetched or does not load.
 */
function sqliteForNode24() {
  const modules = join(home, 'node_modules');
  const copy = join(modules, 'better-sqlite3');
  const loads = (say = false) => {
    const tried = spawnSync(node, [
      '-e',
      `new (require(${JSON.stringify(copy)}))(':memory:').close()`,
    ]);
    if (tried.status !== 0 && say) log(`it does not load: ${String(tried.stderr).slice(0, 2000)}`);
    return tried.status === 0;
  };
  if (existsSync(join(copy, 'package.json')) && loads()) return copy;
  log(`fetching ${SQLITE_FOR_NODE_24} from the npm registry (once)`);
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules, { recursive: true });
  try {
    execFileSync(npm, ['pack', SQLITE_FOR_NODE_24, '--silent', '--pack-destination', modules], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  const tarball = readdirSync(modules).find((file) => file.endsWith('.tgz'));
  if (!tarball) return undefined;
  execFileSync('tar', ['-xzf', tarball], { cwd: modules });
  rmSync(join(modules, tarball));
  cpSync(join(modules, 'package'), copy, { recursive: true });
  rmSync(join(modules, 'package'), { recursive: true, force: true });
  return loads(true) ? copy : undefined;
}

const sqlite = sqliteForNode24();
const skipSqlite = sqlite
  ? []
  : [
      '--exclude',
      'test/node/store/**',
      '--exclude',
      'test/node/durability/**',
      '--exclude',
      'test/node/demo-start.test.ts',
    ];
if (!sqlite) log('better-sqlite3 could not be had for it: the SQLite tests are left out');
log(`running the Node-only tests on ${version}`);
const run = spawnSync(
  node,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    // `node scripts/test-node-24.mjs test/node/store` runs only those.
    ...(process.argv.length > 2
      ? process.argv.slice(2)
      : ['test/node', 'test/consumers', 'test/types']),
    ...skipSqlite,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${dirname(node)}${delimiter}${process.env.PATH}`,
      ...(sqlite
        ? {
            PAYDROP_BETTER_SQLITE3: sqlite,
            PAYDROP_BETTER_SQLITE3_INSTALLED: installedSqlite(),
            NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(root, 'scripts/node-24-hooks.mjs')}`,
          }
        : {}),
    },
  },
);
process.exit(run.status ?? 1);
