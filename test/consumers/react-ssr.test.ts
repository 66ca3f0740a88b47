// paydrop/react on a merchant's server, from the packed package: React's renderToString (19, and
// 18 from test/consumers/react18.ts) of a
// PayButton gives a plain button, and no code of paydrop reads window, document or another browser
// global (apps/react-ssr.mjs traps them), whether imported or required. Rendering reads none at
// all; importing, only Preact's own feature checks (`typeof requestAnimationFrame`) run. The button in a browser is test/browser/react.test.ts and test/e2e/react-app.test.ts.
import { execFile } from 'node:child_process';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { intoConsumer, type PackedPackage, packedPackage } from './packed-package';
import { react18Modules } from './react18';

const run = promisify(execFile);
let packed: PackedPackage;

beforeAll(() => {
  packed = packedPackage();
  intoConsumer(packed, ['apps']);
}, 180_000);

it.for([
  [19, 'import'],
  [19, 'require'],
  [18, 'import'],
  [18, 'require'],
] as const)(
  'renders PayButton to a plain button on the server on React %i; no code of paydrop reads a browser global (%s)',
  async ([react, modules], { skip }) => {
    // React 18 is found by a resolve hook (module.registerHooks: Node 22.15 and newer).
    if (react === 18 && !('registerHooks' in nodeModule))
      skip('module.registerHooks needs Node 22.15+');
    const { stdout, stderr } = await run(process.execPath, ['react-ssr.mjs'], {
      cwd: join(packed.consumer, 'apps'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        MODULES: modules,
        ...(react === 18 ? { REACT_MODULES: react18Modules() } : {}),
      },
    });
    expect(stderr).toBe('');
    const {
      html,
      importing,
      rendering,
      react: version,
    } = JSON.parse(stdout) as {
      html: string;
      importing?: string[];
      rendering: string[];
      react: string;
    };
    expect(version).toMatch(new RegExp(`^${react}\\.`));
    expect(html).toBe('<button type="button" aria-haspopup="dialog" class="pay">Pay</button>');
    expect(rendering).toEqual([]);
    for (const read of importing ?? []) expect(read).toMatch(/ by (preact|@preact\/signals)$/);
  },
);

it('states React as an optional peer, and keeps React out of the widget and Preact out of the binding', async () => {
  const root = join(packed.consumer, 'node_modules/paydrop');
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  expect(pkg.peerDependencies.react).toBe('^18.0.0 || ^19.0.0');
  expect(pkg.peerDependenciesMeta.react).toEqual({ optional: true });
  expect(pkg.dependencies.react).toBeUndefined();
  const binding = await readFile(join(root, 'dist/react.js'), 'utf8');
  const imports = (code: string) =>
    [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
  expect(imports(binding).sort()).toEqual(['./index.js', 'react']);
  expect(binding.startsWith('"use client";')).toBe(true);
  expect(imports(await readFile(join(root, 'dist/index.js'), 'utf8'))).not.toContain('react');
});
