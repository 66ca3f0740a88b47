/**
 * The import rules of biome.json bite (issue 24, item 2): a room of src/server that imports
 * sideways or upward, src/node or the back office reaching into the server, and an import cycle
 * are lint errors that say the rule. Each case lints a throwaway project made of the repository's
 * own biome.json and one or two files placed where the rule applies, with the installed Biome; a
 * file that keeps the rules is linted too, so a rule that refused everything would fail here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

let cases: string;
let config: string;

beforeAll(() => {
  cases = mkdtempSync(join(tmpdir(), 'paydrop-import-rules-'));
  const parsed = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  // A throwaway project is no git checkout, and has no node_modules for the schema.
  delete parsed.$schema;
  parsed.vcs = { enabled: false };
  config = JSON.stringify(parsed);
});

afterAll(() => rmSync(cases, { recursive: true, force: true }));

/**
 * Lints `files` (path → source) in a project of their own with the repository's biome.json, so
 * that its overrides (src/server/checkout/**, …) apply to them: Biome's diagnostics, as text.
 */
function lint(files: Record<string, string>): string {
  const folder = mkdtempSync(join(cases, 'case-'));
  writeFileSync(join(folder, 'biome.json'), config);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  const result = spawnSync(
    process.execPath,
    [BIOME, 'lint', '--colors=off', '--max-diagnostics=50', ...Object.keys(files)],
    { cwd: folder, encoding: 'utf8' },
  );
  return `${result.stdout}\n${result.stderr}`;
}

describe('the import rules of biome.json', () => {
  it('refuse a room of src/server importing a room above it (checkout → payouts)', () => {
    const out = lint({
      'src/server/checkout/sideways.ts': "export { createPayoutsHandler } from '../payouts';\n",
    });
    expect(out).toContain('lint/style/noRestrictedImports');
    expect(out).toContain(
      'src/server/checkout may import its own files and the index.ts of a lower room',
    );
  });

  it("refuse a room importing another room's files, and take that room's index", () => {
    const out = lint({
      'src/server/payouts/inside.ts':
        "import type { CheckoutHandlerOptions } from '../checkout/options';\nexport type Options = CheckoutHandlerOptions;\n",
      'src/server/payouts/through-index.ts':
        "import type { CheckoutHandlerOptions } from '../checkout';\nexport type Options = CheckoutHandlerOptions;\n",
    });
    expect(out).toMatch(/src\/server\/payouts\/inside\.ts:1:\d+ lint\/style\/noRestrictedImports/);
    expect(out).not.toMatch(/through-index\.ts:\d+:\d+ lint\//);
  });

  it('refuse the http room importing upward (http → checkout)', () => {
    const out = lint({
      'src/server/http/upward.ts': "export type { CheckoutHandlerOptions } from '../checkout';\n",
    });
    expect(out).toContain(
      'src/server/http may import its own files and the index.ts of a lower room (store)',
    );
  });

  it('refuse src/node and the back office reaching into the server', () => {
    const out = lint({
      'src/node/into-server.ts': "export { readCapped } from '../server/http/read-body';\n",
      'src/back-office/into-server.ts': "export { createPayoutsHandler } from '../server';\n",
    });
    expect(out).toContain('src/node is the Node adapter under every server');
    expect(out).toContain("src/back-office is the staff's page in the browser");
  });

  it('refuse an import cycle, through a type-only import and a dynamic one', () => {
    const out = lint({
      'src/widget/one.ts': "export const loadTwo = () => import('./two');\n",
      'src/widget/two.ts':
        "import type { loadTwo } from './one';\nexport type Loader = typeof loadTwo;\n",
    });
    expect(out).toMatch(/src\/widget\/one\.ts:1:\d+ lint\/suspicious\/noImportCycles/);
    expect(out).toMatch(/src\/widget\/two\.ts:1:\d+ lint\/suspicious\/noImportCycles/);
  });
});
