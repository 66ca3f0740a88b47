// The packed package as TypeScript, Node and attw see it from a merchant's project: the type
// tests compile under moduleResolution bundler, node16 and nodenext, with and without
// skipLibCheck (with it, an unresolved import would turn every type into `any`, and the lines
// expected to be errors would fail); CommonJS compiles against the `require` condition's .d.cts
// under node16 and nodenext, beside them; attw finds no problem under its default profile
// (node10, node16 from CommonJS and from ES modules, bundler) but the script tag's file, a browser
// script that is no CommonJS; require() loads every entry through its dist/*.cjs, which hands over
// the ES module itself (Node ≥ 20.19 loads ES modules synchronously): one copy, whether required
// or imported.
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage, packedPackage, ROOT } from '../consumers/packed-package';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ENTRIES = [
  'paydrop',
  'paydrop/server',
  'paydrop/server/node',
  'paydrop/server/sqlite',
  'paydrop/server/redis',
  'paydrop/server/postgres',
  'paydrop/sandbox',
  'paydrop/protocol',
  'paydrop/react',
] as const;

// Without skipLibCheck tsc checks every declaration it reaches, @types/react's among them (for
// paydrop/react): 2.5-4 s alone, but beside a second copy of the suite on 2 cores a child process
// got a twentieth of that (60 s timed out; attw took 49 s). A hang still fails, in 3 minutes.
const COMPILE_TIMEOUT_MS = 180_000;

let packed: PackedPackage;
let folder: string;

beforeAll(() => {
  packed = packedPackage();
  folder = join(packed.consumer, 'types-check');
  mkdirSync(folder, { recursive: true });
  const source = readFileSync(join(ROOT, 'test/types/public-api.ts'), 'utf8')
    .replaceAll("'../../src/server/node'", "'paydrop/server/node'")
    .replaceAll("'../../src/server'", "'paydrop/server'")
    .replaceAll("'../../src/index'", "'paydrop'")
    .replaceAll("'../../src/embed'", "'paydrop/paydrop.js'")
    .replaceAll("'../../src/react'", "'paydrop/react'");
  expect(source).not.toContain('/src/');
  writeFileSync(join(folder, 'public-api.ts'), source);
  // CommonJS that requires the ES module package, as Node ≥ 20.19 allows.
  writeFileSync(
    join(folder, 'required.cts'),
    [
      "import server = require('paydrop/server');",
      "import node = require('paydrop/server/node');",
      "import react = require('paydrop/react');",
      'export const handler: typeof server.createCheckoutHandler = server.createCheckoutHandler;',
      'export const listener: typeof node.toNodeListener = node.toNodeListener;',
      'export const button: typeof react.PayButton = react.PayButton;',
      '',
    ].join('\n'),
  );
});

async function compile(
  name: string,
  compilerOptions: Record<string, unknown>,
  files: string[],
): Promise<string> {
  const config = join(folder, `tsconfig.${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        noEmit: true,
        ...compilerOptions,
      },
      files,
    }),
  );
  try {
    await run(process.execPath, [TSC, '-p', config], { cwd: folder });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

// One program per resolution and skipLibCheck: under node16 and nodenext the CommonJS file is
// compiled beside the type tests (each keeps its own module format), not in a program of its
// own: the same checks, with the declarations parsed and checked once instead of twice.
describe.each([
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['public-api.ts']],
  ['node16', { module: 'node16', moduleResolution: 'node16' }, ['public-api.ts', 'required.cts']],
  [
    'nodenext',
    { module: 'nodenext', moduleResolution: 'nodenext' },
    ['public-api.ts', 'required.cts'],
  ],
])('TypeScript with moduleResolution %s', (name, resolution, files) => {
  it.each([true, false])(
    `compiles the type tests${files.length > 1 ? ' and CommonJS that requires the package' : ''} (skipLibCheck: %s)`,
    async (skipLibCheck) => {
      const errors = await compile(
        `${name}-${skipLibCheck}`,
        { ...resolution, skipLibCheck },
        files,
      );
      expect(errors).toBe('');
    },
    COMPILE_TIMEOUT_MS,
  );
});

const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');

/**
 * attw's problems with the packed package under `profile`. Its JSON report lists those of the
 * resolutions the profile ignores too: `ignoring` names them, to leave them out.
 */
async function attwProblems(
  profile: string,
  ignoring: readonly string[] = [],
): Promise<Array<Record<string, unknown>>> {
  const args = [ATTW, packed.tarball, '--format', 'json', '--profile', profile];
  // Into a file: attw ends with process.exit(), which cuts a pipe's output short (at 128 KiB)
  // while writes to a file are whole. It exits 1 when it finds a problem, 0 otherwise.
  const output = join(folder, `attw-${profile}.json`);
  const fd = openSync(output, 'w');
  try {
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, args, {
        cwd: folder,
        stdio: ['ignore', fd, 'inherit'],
      });
      child.on('error', fail);
      child.on('close', () => done());
    });
  } finally {
    closeSync(fd);
  }
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    problems?: Record<string, unknown[]>;
  };
  return Object.values(report.problems ?? {})
    .flat()
    .map((problem) => problem as Record<string, unknown>)
    .filter((problem) => !ignoring.includes(String(problem.resolutionKind)));
}

it(
  'has no problem in attw under its default profile but the script tag from CommonJS',
  async () => {
    // dist/paydrop.js is the script tag's file, served to browsers from beside its lazy chunks, an
    // ES module by the package's "type". A CommonJS copy under `require` would be a different
    // file for require.resolve('paydrop/paydrop.js') (the wrong one to serve, or served as .cjs),
    // so node16 from CommonJS is told the truth: import it (Node ≥ 20.19 can also require it).
    expect(await attwProblems('strict')).toEqual([
      { kind: 'CJSResolvesToESM', entrypoint: './paydrop.js', resolutionKind: 'node16-cjs' },
    ]);
  },
  COMPILE_TIMEOUT_MS,
);

it(
  'has no problem at all for ES module consumers in attw (node16 from ESM, bundler)',
  async () => {
    expect(await attwProblems('esm-only', ['node10', 'node16-cjs'])).toEqual([]);
  },
  COMPILE_TIMEOUT_MS,
);

it.each(ENTRIES)('loads %s with require() and with import, one copy of it', async (entry) => {
  // require() takes the `require` condition, dist/*.cjs, which hands over the ES module itself:
  // what require and import give is the same namespace, so a class from one is the other's
  // (no dual-package hazard: a CheckoutError thrown is instanceof CheckoutError either way).
  const script = [
    `const required = require(${JSON.stringify(entry)});`,
    `const file = require.resolve(${JSON.stringify(entry)});`,
    `import(${JSON.stringify(entry)}).then((imported) => {`,
    '  const names = Object.keys(required).sort();',
    '  if (names.length === 0) throw new Error("no exports");',
    '  if (required !== imported) throw new Error("require and import give different copies");',
    '  console.log(JSON.stringify({ file, names }));',
    '});',
  ].join('\n');
  const { stdout, stderr } = await run(process.execPath, ['--input-type=commonjs', '-e', script], {
    cwd: packed.consumer,
  });
  const { file, names } = JSON.parse(stdout) as { file: string; names: string[] };
  expect(file).toMatch(/[/\\]dist[/\\][\w-]+\.cjs$/);
  expect(names.length).toBeGreaterThan(0);
  expect(stderr).toBe('');
});

it('requires nothing in dist/*.cjs but the ES module of the same name', () => {
  // So what holds for dist/server.js (no node: import, test/consumers/web-standard.test.ts) and
  // the stores' optional peers left to the merchant's node_modules holds for CommonJS too.
  const dist = join(packed.consumer, 'node_modules/paydrop/dist');
  const exported = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8')) as {
    exports: Record<string, { require?: { default: string } }>;
  };
  const files = Object.values(exported.exports).flatMap((entry) => entry.require?.default ?? []);
  expect(files).toHaveLength(ENTRIES.length);
  for (const file of files) {
    const code = readFileSync(join(dist, '..', file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const name = file.replace(/^\.\/dist\//, '').replace(/\.cjs$/, '');
    expect([...code.matchAll(/\brequire\s*\(\s*(['"])(.*?)\1/g)].map((m) => m[2])).toEqual([
      `./${name}.js`,
    ]);
  }
});

it('throws the same CheckoutError to CommonJS and to ES module code', async () => {
  const script = [
    "const { CheckoutError } = require('paydrop/server');",
    "import('paydrop/server').then((imported) => {",
    "  const error = new imported.CheckoutError('not_found', 'No such order.');",
    '  console.log(error instanceof CheckoutError, imported.CheckoutError === CheckoutError);',
    '});',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', script], {
    cwd: packed.consumer,
  });
  expect(stdout.trim()).toBe('true true');
});
