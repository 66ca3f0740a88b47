// Every TypeScript example in the README and in docs/ compiles under strict TypeScript in a
// merchant's project, against the packed package: what a merchant copies works as it is. Each
// example is a module of its own (a `tsx` one a .tsx file, with React's JSX); what the examples
// leave to the merchant (their database, the handler made in the README's first example and the
// module it lives in, the Bun and Deno globals) is declared once below.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { packedPackage, ROOT } from './packed-package';

const MERCHANT_GLOBALS = `
declare const analytics: { track(event: string, data: Record<string, string>): void };
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
/** The README's Next.js route handler imports that handler from the merchant's lib/checkout.ts. */
declare module '@/lib/checkout' {
  export const checkout: import('paydrop/server').CheckoutHandler;
}
/** The options the README's first companion example passes. */
declare const options: import('paydrop/server').CheckoutHandlerOptions;
type Fetch = (request: Request) => Response | Promise<Response>;
declare const Bun: { serve(options: { port?: number; hostname?: string; fetch: Fetch }): unknown };
declare const Deno: { serve(options: { port?: number; hostname?: string }, handler: Fetch): unknown };
/** What docs/server.md's serverless examples take from Vercel and Cloudflare, and the Worker's own. */
declare module '@vercel/functions' {
  export function waitUntil(promise: Promise<unknown>): void;
}
declare module 'cloudflare:workers' {
  export function waitUntil(promise: Promise<unknown>): void;
}
interface ScheduledController { readonly scheduledTime: number; readonly cron: string }
interface ExecutionContext { waitUntil(promise: Promise<unknown>): void }
interface Env { readonly DATABASE_URL: string }
declare function storeFor(env: Env): import('paydrop/server').CheckoutStore;
`;

/** The Markdown files whose examples a merchant copies: the README and every page of docs/. */
const SOURCES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

interface Example {
  /** Where the example is, e.g. docs/server.md */
  readonly source: string;
  /** Its first line's number in that file. */
  readonly line: number;
  readonly tsx: boolean;
  readonly code: string;
}

function examples(source: string): Example[] {
  const found: Example[] = [];
  const lines = readFileSync(join(ROOT, source), 'utf8').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^\s*```(ts|typescript|tsx)\s*$/.exec(lines[index] ?? '');
    if (!fence) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').trimStart().startsWith('```')) end += 1;
    const code = lines.slice(start, end).join('\n');
    found.push({ source, line: start + 1, tsx: fence[1] === 'tsx', code });
    index = end;
  }
  return found;
}

it('compiles every TypeScript example of the README and docs/ under strict', async () => {
  const found = SOURCES.flatMap(examples);
  const count = (source: string) => found.filter((example) => example.source === source).length;
  // The README's five-minute start: the companion, Express, Hono, Next.js's route handler, and
  // the React and Next.js buttons; the reference pages keep the examples the README used to hold.
  expect(count('README.md')).toBeGreaterThanOrEqual(6);
  expect(found.filter((example) => example.tsx).length).toBeGreaterThanOrEqual(2);
  for (const page of ['docs/server.md', 'docs/sandbox.md', 'docs/back-office.md']) {
    expect(count(page), page).toBeGreaterThanOrEqual(1);
  }
  expect(found.length).toBeGreaterThanOrEqual(20);
  const folder = join(packedPackage().consumer, 'readme');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'merchant-globals.d.ts'), MERCHANT_GLOBALS);
  const files = found.map(({ source, line, tsx, code }) => {
    const name = `${source.replace(/\W/g, '-')}-line-${line}.${tsx ? 'tsx' : 'ts'}`;
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
        jsx: 'react-jsx',
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
  // docs-server-md-line-N.ts(3,5) is docs/server.md line N + 2.
  expect(errors).toBe('');
}, 120_000);
