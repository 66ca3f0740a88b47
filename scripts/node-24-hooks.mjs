// Loaded with --import by scripts/test-node-24.mjs: points every import of better-sqlite3 at the
// copy compiled for this Node (PAYDROP_BETTER_SQLITE3), since node_modules' copy is compiled for
// the Node that installed it. Vitest imports packages by their resolved file URL, so what is
// redirected is any URL inside the installed package, not only the bare name.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const copy = process.env.PAYDROP_BETTER_SQLITE3;
const installed = process.env.PAYDROP_BETTER_SQLITE3_INSTALLED;
if (copy && installed) {
  const from = pathToFileURL(`${installed}/`).href;
  const to = pathToFileURL(`${copy}/`).href;
  const hook = `export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    return resolved.url.startsWith(${JSON.stringify(from)})
      ? { ...resolved, url: ${JSON.stringify(to)} + resolved.url.slice(${from.length}) }
      : resolved;
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
