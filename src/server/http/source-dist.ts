/**
 * dist/ as a source checkout run by plain Node sees it (tsx, as the demo runs): the card frame's
 * and the script tag's built files are read from there. Bundled (the published server, Vitest),
 * Vite inlines them instead, and this is never called.
 */

interface DistReader {
  readdir(path: URL): Promise<string[]>;
  readFile(path: URL, encoding: 'utf8'): Promise<string>;
}

/**
 * Node's own file reader, without an import of a Node module: paydrop/server stays web-standard
 * (CONVENTIONS 8), and only a source checkout under plain Node ever comes here.
 */
export function sourceDistReader(what: string): DistReader {
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (name: string) => DistReader | undefined } }
  ).process?.getBuiltinModule?.('node:fs/promises');
  if (!fs) throw new Error(`Reading ${what} needs Node 20.16 or newer.`);
  return fs;
}

/** The repository's dist/ folder, from src/server/http. */
export const SOURCE_DIST = new URL('../../../dist/', import.meta.url);
