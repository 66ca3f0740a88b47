// Every TypeScript example in the README compiles under strict TypeScript in a merchant's
// project, against the packed package: what a merchant copies works as it is. Each example is a
// module of its own; what the README leaves to the merchant (their database, the handler made in
// the example before, the Bun and Deno globals) is declared once below.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { packedPackage, ROOT } from './packed-package';

const MERCHANT_GLOBALS = `
declare const db: {
  orders: { find(id: string): Promise<{ totalMinor: number; customerId: string } | null> };
};
declare const sessions: { customerOf(request: Request): Promise<{ id: string } | null> };
declare function verifyCaptcha(token: string | null | undefined, address: string | null): Promise<boolean>;
declare function staffSession(request: Request): Promise<{ role: string } | null>;
declare const ledger: {
  record(reference: string, status: string, reason: string | null): Promise<void>;
};
/** The handler the README's first companion example creates. */
declare const checkout: import('paydrop/server').CheckoutHandler;
/** The options the README's first companion example passes. */
declare const options: import('paydrop/server').CheckoutHandlerOptions;
type Fetch = (request: Request) => Response | Promise<Response>;
declare const Bun: { serve(options: { port?: number; hostname?: string; fetch: Fetch }): unknown };
declare const Deno: { serve(options: { port?: number; hostname?: string }, handler: Fetch): unknown };
`;

function examples(): Array<{ line: number; code: string }> {
  const found: Array<{ line: number; code: string }> = [];
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^```(ts|typescript|tsx)\s*$/.test(lines[index] ?? '')) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end += 1;
    found.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    index = end;
  }
  return found;
}

it('compiles every TypeScript example of the README under strict', async () => {
  const found = examples();
  expect(found.length).toBeGreaterThanOrEqual(8);
  const folder = join(packedPackage().consumer, 'readme');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'merchant-globals.d.ts'), MERCHANT_GLOBALS);
  const files = found.map(({ line, code }) => {
    const name = `readme-line-${line}.ts`;
    writeFileSync(join(folder, name), `${code}\nexport {};\n`);
    return name;
  });
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      files: ['merchant-globals.d.ts', ...files],
    }),
  );
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const errors = await promisify(execFile)(process.execPath, [tsc, '-p', folder], { cwd: folder })
    .then(() => '')
    .catch((error) => String(error.stdout ?? error));
  // readme-line-N.ts(3,5) is README.md line N + 2.
  expect(errors).toBe('');
}, 120_000);
