/**
 * The script tag, served by the companion (issue 21, item 2): `GET {basePath}/paydrop.js` and
 * the chunks it loads from beside itself (`paydrop-<hash>/fr.js`, `paydrop-<hash>/card.js`, …),
 * so that `<script src="/api/checkout/paydrop.js" defer></script>` is the whole front-end install
 * on any server, and the chunks come from wherever the companion is mounted: the script finds
 * them relative to its own URL (src/widget/chunks-script.ts).
 *
 * The chunks' folder is named after a hash of their content (vite.config.ts), so a chunk's path
 * always means the same bytes and is cached for a year, `immutable`; paydrop.js, whose name never
 * changes, is cached briefly and revalidated with its ETag, so a release reaches pages within
 * minutes.
 *
 * Only the files the build wrote are served, looked up by exact name: a request's path never
 * becomes a path on a disk, so `..`, encoded or not, finds nothing.
 */
import { CheckoutError } from './errors';
import { SOURCE_DIST, sourceDistReader } from './source-dist';

/** The entry: the one name that stays across releases. */
export const SCRIPT_ENTRY = 'paydrop.js';

/**
 * The paths, under basePath, that name the script or one of its chunks (`/paydrop-<hash>/fr.js`).
 * What matches is looked up among the built files; what does not is any other route's.
 */
export const SCRIPT_PATH = /^\/paydrop(?:-\w+\/[\w.-]+)?\.js$/;

/**
 * How long a browser uses paydrop.js before asking again (with If-None-Match: a 304 costs no
 * body). A page that kept the previous release's paydrop.js asks for that release's chunks, which
 * a server of the new one no longer has: five minutes bounds that window, as it bounds the
 * conditional requests of a customer who browses the shop.
 */
const ENTRY_CACHE = 'public, max-age=300';
/** A chunk's path changes with its content: it can be kept for good. */
const CHUNK_CACHE = 'public, max-age=31536000, immutable';

type Loaders = Readonly<Record<string, () => Promise<string>>>;

/**
 * The built files by path under dist/. Bundled (the published dist/server.js, and Vitest), Vite's
 * glob turns them into strings inside the server's code, each loaded on its first request, which
 * any runtime serves (workerd, Deno, Bun have no dist/ to read). Run from the sources by plain
 * Node (tsx, as the demo runs), where the glob means nothing, they are read from dist/.
 */
async function builtFiles(): Promise<Loaders> {
  if ((import.meta as { env?: unknown }).env) {
    const found = import.meta.glob(['../../../dist/paydrop.js', '../../../dist/paydrop-*/*.js'], {
      query: '?raw',
      import: 'default',
    }) as Record<string, () => Promise<string>>;
    return Object.fromEntries(
      Object.entries(found).map(([path, load]) => [path.slice('../../../dist/'.length), load]),
    );
  }
  const fs = sourceDistReader('the built script');
  const dist = SOURCE_DIST;
  const list = (folder: string) => fs.readdir(new URL(folder, dist)).catch(() => [] as string[]);
  const names: string[] = [];
  for (const name of await list('./')) {
    if (name === SCRIPT_ENTRY) names.push(name);
    else if (/^paydrop-[a-z]+$/.test(name)) {
      for (const file of await list(`${name}/`)) names.push(`${name}/${file}`);
    }
  }
  return Object.fromEntries(
    names
      .filter((name) => SCRIPT_PATH.test(`/${name}`))
      .map((name) => [name, () => fs.readFile(new URL(name, dist), 'utf8')]),
  );
}

interface ScriptFile {
  readonly body: string;
  /** The entry's; a chunk's path is its version. */
  readonly etag?: string;
}

/** A strong validator from the content: the same file gets the same tag on every instance. */
async function etagOf(body: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)),
  );
  let hex = '';
  for (const byte of digest.subarray(0, 12)) hex += byte.toString(16).padStart(2, '0');
  return `"${hex}"`;
}

/** Whether If-None-Match names this tag (weak comparison, RFC 9110 §13.1.2). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The script files of one companion: answers a GET or HEAD of `name` (the path under basePath,
 * without its slash) with the file, 304 when the browser has it, or throws `not_found`.
 */
export function createScriptFiles(): (request: Request, name: string) => Promise<Response> {
  let loaders: Promise<Loaders> | undefined;
  const files = new Map<string, Promise<ScriptFile>>();

  function load(name: string, loader: () => Promise<string>): Promise<ScriptFile> {
    let file = files.get(name);
    if (!file) {
      file = loader().then(async (body) =>
        name === SCRIPT_ENTRY ? { body, etag: await etagOf(body) } : { body },
      );
      // A failed read may be tried again.
      file.catch(() => files.delete(name));
      files.set(name, file);
    }
    return file;
  }

  return async (request, name) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new CheckoutError('method_not_allowed', `${request.method} is not allowed here.`);
    }
    loaders ??= builtFiles().catch((error: unknown) => {
      loaders = undefined;
      throw error;
    });
    const built = await loaders;
    // hasOwn: 'constructor' or 'toString' is no file.
    const loader = Object.hasOwn(built, name) ? built[name] : undefined;
    if (!loader) {
      if (name === SCRIPT_ENTRY) {
        // Only a source checkout that was never built gets here; a published package inlines it.
        throw new CheckoutError(
          'unavailable',
          'The script tag is not built: run `npm run build:widget`.',
        );
      }
      throw new CheckoutError('not_found', 'There is nothing here.');
    }
    const file = await load(name, loader);
    const headers = new Headers({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': file.etag ? ENTRY_CACHE : CHUNK_CACHE,
      'x-content-type-options': 'nosniff',
      // The chunks are ES modules, fetched with CORS: a page of another origin than the
      // companion's (the API on its own host) needs this to run them. The files are public and
      // the same for everyone, fetched without credentials, so `*` gives no site more than it
      // could download itself, and a CDN keeps one copy (no `Vary: Origin`).
      'access-control-allow-origin': '*',
      // A page that isolates itself (COEP: require-corp) may load paydrop.js from here too.
      'cross-origin-resource-policy': 'cross-origin',
    });
    if (file.etag) {
      headers.set('etag', file.etag);
      if (matches(request.headers.get('if-none-match'), file.etag)) {
        return new Response(null, { status: 304, headers });
      }
    }
    return new Response(request.method === 'HEAD' ? null : file.body, { headers });
  };
}
