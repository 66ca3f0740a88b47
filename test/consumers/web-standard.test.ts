// paydrop/server is web-standard: nothing in its module graph imports a Node module, so an edge
// bundle of it carries no Node (issue 13; CONVENTIONS 8). Checked on the sources, from
// src/server/index.ts, and on the packed package, from dist/server.js; paydrop/server/node is
// where node:http lives.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedPackage, ROOT } from './packed-package';

const NODE = new Set(builtinModules);
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** Every module reachable from `entry` through relative imports, with the bare ones it imports. */
function graph(entry: string, resolveRelative: (from: string, specifier: string) => string) {
  const seen = new Set<string>();
  const bare = new Map<string, string>();
  const queue = [entry];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    // Comments may quote an import (an @example); only code counts.
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    for (const [, specifier = ''] of code.matchAll(SPECIFIERS)) {
      // A `?raw` import is a built file's text (the card frame's), no module of the graph.
      if (specifier.endsWith('?raw')) continue;
      if (specifier.startsWith('.')) queue.push(resolveRelative(file, specifier));
      else bare.set(specifier, file);
    }
  }
  return { modules: seen, bare };
}

function nodeImports(bare: Map<string, string>): string[] {
  return [...bare]
    .filter(
      ([specifier]) => specifier.startsWith('node:') || NODE.has(specifier.split('/')[0] ?? ''),
    )
    .map(([specifier, file]) => `${specifier} (in ${file})`);
}

function sourceFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

describe('paydrop/server imports no Node module', () => {
  it('in the sources', () => {
    const { modules, bare } = graph(join(ROOT, 'src/server/index.ts'), sourceFile);
    expect(modules.size).toBeGreaterThan(10);
    expect(nodeImports(bare)).toEqual([]);
    // The check itself sees Node imports where they are.
    expect(nodeImports(graph(join(ROOT, 'src/server/node/index.ts'), sourceFile).bare)).not.toEqual(
      [],
    );
  });

  it('in the packed package', () => {
    const dist = join(packedPackage().consumer, 'node_modules/paydrop/dist');
    const built = (from: string, specifier: string) => resolve(dirname(from), specifier);
    const { modules, bare } = graph(join(dist, 'server.js'), built);
    expect(modules.size).toBeGreaterThan(1);
    expect(nodeImports(bare)).toEqual([]);
    expect(nodeImports(graph(join(dist, 'server-node.js'), built).bare)).not.toEqual([]);
  }, 120_000);
});
