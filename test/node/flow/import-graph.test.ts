// The widget's and the flow's modules import one another without a cycle (issue 11 cut
// bank-window.ts → chunks.ts → return/index.ts → bank-window.ts): every import counts, type-only
// and dynamic ones included, `#chunks` as both of its targets.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const SOURCES = ['src/widget', 'src/flow'].map((folder) => join(ROOT, folder));
const CHUNKS = ['src/widget/chunks.ts', 'src/widget/chunks-script.ts'].map((file) =>
  join(ROOT, file),
);

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string[] {
  if (specifier === '#chunks') return CHUNKS;
  if (!specifier.startsWith('.')) return [];
  const base = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  const found = candidates.find((path) => {
    try {
      return statSync(path).isFile() && /\.tsx?$/.test(path);
    } catch {
      return false;
    }
  });
  return found ? [found] : [];
}

function imports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'/g),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((match) => match[1] as string);
  return specifiers.flatMap((specifier) => resolveImport(file, specifier));
}

function cycles(): string[][] {
  const graph = new Map(SOURCES.flatMap(files).map((file) => [file, imports(file)]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file].map((f) => relative(ROOT, f)));
      return;
    }
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next);
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

describe('the import graph of src/widget and src/flow', () => {
  it('has no cycle', () => {
    expect(cycles()).toEqual([]);
  });
});
