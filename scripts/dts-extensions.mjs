// Gives every relative import in the emitted declarations (dist/types) its file, extension and
// all: `from './client'` becomes `from './client.js'`, `from '../protocol'` becomes
// `from '../protocol/index.js'`. Under `moduleResolution: node16` or `nodenext` TypeScript
// resolves nothing else in an ES module package, and with `skipLibCheck` every unresolved type
// silently turns into `any` (issue 13). The sources keep their extensionless imports; tsc
// copies them into the .d.ts as they are, so the rewrite happens here, after it.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist/types');

function* declarations(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* declarations(path);
    else if (name.endsWith('.d.ts')) yield path;
  }
}

/** './client' seen from `file`: './client.js', './client/index.js', or as it was. */
function withExtension(file, specifier) {
  if (/\.(m|c)?js$/.test(specifier)) return specifier;
  const target = resolve(dirname(file), specifier);
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`;
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`;
  // A stale declaration left by an earlier build may point at a module since removed.
  console.warn(`dts-extensions: ${file}: no declaration for '${specifier}'`);
  return specifier;
}

// from '…', import('…'), import '…' and export … from '…', with a relative specifier.
const relative = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?(?:\/[^'"]*)?)\2/g;
let rewritten = 0;
for (const file of declarations(root)) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(
    relative,
    (_match, keyword, quote, specifier) =>
      `${keyword}${quote}${withExtension(file, specifier)}${quote}`,
  );
  if (next !== text) {
    writeFileSync(file, next);
    rewritten += 1;
  }
}
console.log(`dts-extensions: relative imports given their files in ${rewritten} declarations`);

// Beside each .d.ts, the same declarations as a .d.cts, its relative imports on .cjs: the types
// of the `require` condition (package.json), for CommonJS consumers. A .d.ts in this ES module
// package describes an ES module, and TypeScript under node16/nodenext refuses to let CommonJS
// require it; a .d.cts describes CommonJS, and its './client.cjs' resolves to the './client.d.cts'
// beside it, so the whole tree is CommonJS from the entry down. What runtime they describe is the
// dist/*.cjs entries: each is `module.exports = require('./<entry>.js')`, the ES module itself,
// with the same exports (vite.config.ts, node mode).
const cjsRelative = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\.js\2/g;
let mirrored = 0;
for (const file of declarations(root)) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file.replace(/\.d\.ts$/, '.d.cts'),
    text.replace(
      cjsRelative,
      (_match, keyword, quote, path) => `${keyword}${quote}${path}.cjs${quote}`,
    ),
  );
  mirrored += 1;
}
console.log(`dts-extensions: ${mirrored} declarations mirrored as .d.cts for CommonJS`);
