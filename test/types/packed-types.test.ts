// The packed package as TypeScript, Node and attw see it from a merchant's project: the type
// tests compile under moduleResolution bundler, node16 and nodenext, with and without
// skipLibCheck (with it, an unresolved import would turn every type into `any`, and the lines
// expected to be errors would fail); attw finds no problem for ES module consumers; require()
// loads every entry (Node ≥ 20.19 loads ES modules synchronously).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  'paydrop/sandbox',
  'paydrop/protocol',
] as const;

let packed: PackedPackage;
let folder: string;

beforeAll(() => {
  packed = packedPackage();
  folder = join(packed.consumer, 'types-check');
  mkdirSync(folder, { recursive: true });
  const source = readFileSync(join(ROOT, 'test/types/public-api.ts'), 'utf8')
    .replaceAll("'../../src/server/node'", "'paydrop/server/node'")
    .replaceAll("'../../src/server'", "'paydrop/server'")
    .replaceAll("'../../src/index'", "'paydrop'");
  expect(source).not.toContain('/src/');
  writeFileSync(join(folder, 'public-api.ts'), source);
  // CommonJS that requires the ES module package, as Node ≥ 20.19 allows.
  writeFileSync(
    join(folder, 'required.cts'),
    [
      "import server = require('paydrop/server');",
      "import node = require('paydrop/server/node');",
      'export const handler: typeof server.createCheckoutHandler = server.createCheckoutHandler;',
      'export const listener: typeof node.toNodeListener = node.toNodeListener;',
      '',
    ].join('\n'),
  );
}, 120_000);

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

describe.each([
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ['node16', { module: 'node16', moduleResolution: 'node16' }],
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
])('TypeScript with moduleResolution %s', (name, resolution) => {
  it.each([true, false])('compiles the type tests (skipLibCheck: %s)', async (skipLibCheck) => {
    const errors = await compile(`${name}-${skipLibCheck}`, { ...resolution, skipLibCheck }, [
      'public-api.ts',
    ]);
    expect(errors).toBe('');
  });
});

it('lets CommonJS require the package under nodenext', async () => {
  const errors = await compile(
    'require',
    { module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true },
    ['required.cts'],
  );
  expect(errors).toBe('');
});

it('has no problem for ES module consumers in attw (node16 from ESM, bundler)', async () => {
  const attw = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
  const { stdout } = await run(process.execPath, [attw, packed.tarball, '--profile', 'esm-only'], {
    cwd: folder,
  }).catch((error) => {
    throw new Error(String(error.stdout ?? error));
  });
  expect(stdout).not.toMatch(/^(?!.*ignored).*(❌|💀|🥴)/m);
}, 60_000);

it.each(ENTRIES)('loads %s with require() and with import', async (entry) => {
  const script = [
    `const required = require(${JSON.stringify(entry)});`,
    `import(${JSON.stringify(entry)}).then((imported) => {`,
    '  const names = Object.keys(required).sort();',
    '  if (names.length === 0) throw new Error("no exports");',
    '  if (names.join() !== Object.keys(imported).filter((n) => n !== "default" && n !== "module.exports").sort().join()) throw new Error("different exports");',
    '  console.log(names.join(","));',
    '});',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', script], {
    cwd: packed.consumer,
  });
  expect(stdout.trim().length).toBeGreaterThan(0);
});
