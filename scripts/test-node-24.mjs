// `npm test` on Node's current LTS as well: the Node-only tests (test/node, test/consumers,
// test/types; not the browser ones, which run once) again on Node 24, fetched from the npm
// registry as the `node-<platform>-<arch>` package the first time and kept in
// node_modules/.cache/node-24 (issue 13). Nothing but the npm registry is needed.
//
// better-sqlite3 in node_modules is compiled for the Node that installed it; for the Node 24
// run a copy is compiled once for Node 24 (node-gyp, with the headers the package carries) and
// the tests' imports of it are pointed there (scripts/node-24-hooks.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';

const MAJOR = 24;
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
 * node-gyp's environment for the Node 24 build. Run under `npm test`, npm hands its config down
 * as npm_config_* variables, and a machine whose .npmrc sets `nodedir` (this one: /usr, Node 20's
 * headers) would have node-gyp build against that Node instead of the --nodedir given to it: the
 * module then compiles for Node 20 and fails to load on 24 (seen in CI). Those are left out.
 */
function gypEnv() {
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  for (const name of Object.keys(env)) {
    if (/^npm_config_(nodedir|target|runtime|dist_?url|arch)$/i.test(name)) delete env[name];
  }
  return env;
}

/** better-sqlite3 for Node 24, compiled once beside it; undefined when it cannot be. */
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
  if (existsSync(join(copy, 'build/Release/better_sqlite3.node')) && loads()) return copy;
  const require = createRequire(join(root, 'package.json'));
  const installed = installedSqlite();
  rmSync(modules, { recursive: true, force: true });
  cpSync(installed, copy, { recursive: true, filter: (path) => !path.includes('/build/') });
  // Its own dependencies (bindings, file-uri-to-path) resolve from beside it.
  for (const name of ['bindings', 'file-uri-to-path']) {
    cpSync(dirname(require.resolve(`${name}/package.json`)), join(modules, name), {
      recursive: true,
    });
  }
  const gyp = join(
    dirname(dirname(process.execPath)),
    'lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  );
  log('compiling better-sqlite3 for it (once, a few minutes)');
  const built = spawnSync(
    node,
    [gyp, 'rebuild', '--release', `--nodedir=${join(home, 'package')}`],
    {
      cwd: copy,
      // Its output goes to a log beside it, read when the build fails.
      stdio: ['ignore', openSync(join(home, 'better-sqlite3-build.log'), 'w'), 'inherit'],
      env: gypEnv(),
    },
  );
  return built.status === 0 && loads(true) ? copy : undefined;
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
if (!sqlite) log('better-sqlite3 could not be built for it: the SQLite tests are left out');
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
