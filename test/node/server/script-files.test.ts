/**
 * The companion serves the script tag (issue 21, item 2): GET {basePath}/paydrop.js and the
 * content-hashed chunks it loads from beside itself, with the caching each deserves, to any
 * origin; nothing else of the build, and nothing a crafted path points at. Over a real socket,
 * through paydrop/server/node's listener, as a merchant mounts it. Run `npm run build:widget` first.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutHandler } from '../../../src/server';
import { toNodeListener } from '../../../src/server/node';

const DIST = new URL('../../../dist/', import.meta.url);
/**
 * What paydrop.js, the loader, loads: the checkout (issue 25), and the chunks the checkout loads
 * (French, card, QR, transfer, outcomes, the bank's return). What a click on a data-paydrop-*
 * button does is in the loader now, so there is no buttons chunk.
 */
const ENTRIES = ['checkout', 'fr', 'card', 'qr', 'transfer', 'outcomes', 'return'];

/** The checkout's folder, named after its content: where the build put it, as paydrop.js says. */
async function chunkFolder(base: string): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('paydrop-chunks.json', DIST), 'utf8'));
  const folder = String(manifest.checkout).split('/')[0] ?? '';
  expect(folder).toMatch(/^paydrop-[a-z]{6}$/);
  expect(await (await fetch(`${base}/paydrop.js`)).text()).toContain(`${folder}/`);
  return folder;
}

let server: Server;
let origin: string;

function listen(basePath?: string): Promise<{ server: Server; origin: string }> {
  const handler = createCheckoutHandler({
    secretKey: 'sk_test_script_files_0123456789',
    // No provider call is made for a file.
    baseUrl: 'http://127.0.0.1:9/unused',
    resolveOrder: () => null,
    ...(basePath ? { basePath } : {}),
    logger: { warn: () => {}, error: () => {} },
  });
  const running = createServer(toNodeListener(handler));
  return new Promise((resolve) => {
    running.listen(0, '127.0.0.1', () => {
      const address = running.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server: running, origin: `http://127.0.0.1:${port}` });
    });
  });
}

/** One request with the path exactly as written: fetch and http.request would normalise it. */
function raw(path: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (part) => {
      answer += part;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, text: answer });
    });
  });
}

beforeAll(async () => {
  ({ server, origin } = await listen());
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('GET {basePath}/paydrop.js', () => {
  it('is the built script, revalidated with its ETag', async () => {
    const built = await readFile(new URL('paydrop.js', DIST), 'utf8');
    const answer = await fetch(`${origin}/api/checkout/paydrop.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('vary')).toBeNull();
    expect(await answer.text()).toBe(built);
    const etag = answer.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/);

    // What a browser sends once its copy is five minutes old: no body again.
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(`${origin}/api/checkout/paydrop.js`, {
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await again.text()).toBe('');
    }
    // A copy of another release gets the current one.
    const changed = await fetch(`${origin}/api/checkout/paydrop.js`, {
      headers: { 'if-none-match': '"0123456789abcdef01234567"' },
    });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe(built);

    const head = await fetch(`${origin}/api/checkout/paydrop.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('serves every chunk it names, and every chunk they import, for a year, immutable', async () => {
    const folder = await chunkFolder(`${origin}/api/checkout`);
    const named = ENTRIES.map((name) => `${folder}/${name}.js`);
    // The build put each of them there, and nothing paydrop.js does not know.
    const manifest = JSON.parse(await readFile(new URL('paydrop-chunks.json', DIST), 'utf8'));
    expect(Object.values(manifest).sort()).toEqual([...named].sort());
    const seen = new Set<string>();
    const queue = [...named];
    for (let name = queue.pop(); name; name = queue.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      const answer = await fetch(`${origin}/api/checkout/${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('etag')).toBeNull();
      const text = await answer.text();
      expect(text).toBe(await readFile(new URL(name, DIST), 'utf8'));
      // The chunks a chunk imports (the Preact it is handed, the shared texts) sit beside it.
      for (const [, imported = ''] of text.matchAll(/from\s*"\.\/([^"]+)"/g)) {
        queue.push(`${folder}/${imported}`);
      }
    }
    expect(seen.size).toBeGreaterThan(named.length);
  });

  it('is served to a page of any origin, whose calls the companion still refuses', async () => {
    const elsewhere = { origin: 'https://another-shop.example' };
    const entry = await fetch(`${origin}/api/checkout/paydrop.js`, { headers: elsewhere });
    expect(entry.status).toBe(200);
    expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    const chunk = `${await chunkFolder(`${origin}/api/checkout`)}/fr.js`;
    // A chunk is an ES module: a page on another origin than the companion's imports it with CORS.
    const imported = await fetch(`${origin}/api/checkout/${chunk}`, { headers: elsewhere });
    expect(imported.status).toBe(200);
    expect(imported.headers.get('access-control-allow-origin')).toBe('*');
    const session = await fetch(`${origin}/api/checkout/session`, {
      method: 'POST',
      headers: { ...elsewhere, 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'order-1' }),
    });
    expect(session.status).toBe(403);
    expect(session.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers only GET and HEAD', async () => {
    const answer = await fetch(`${origin}/api/checkout/paydrop.js`, { method: 'POST' });
    expect(answer.status).toBe(405);
    expect((await answer.json()).error.code).toBe('method_not_allowed');
  });

  it('follows the mount: under basePath, and nowhere else', async () => {
    const other = await listen('/shop/pay');
    try {
      const answer = await fetch(`${other.origin}/shop/pay/paydrop.js`);
      expect(answer.status).toBe(200);
      const chunk = `${await chunkFolder(`${other.origin}/shop/pay`)}/card.js`;
      expect((await fetch(`${other.origin}/shop/pay/${chunk}`)).status).toBe(200);
      expect((await fetch(`${other.origin}/paydrop.js`)).status).toBe(404);
      expect((await fetch(`${other.origin}/api/checkout/paydrop.js`)).status).toBe(404);
    } finally {
      await new Promise<void>((done) => other.server.close(() => done()));
    }
  });
});

describe('nothing else of the build, nor of the disk', () => {
  it('answers 404 to names that are not the script or one of its chunks', async () => {
    const folder = await chunkFolder(`${origin}/api/checkout`);
    const names = [
      // Another release's chunk, the names chunks had before their folder, one that is not.
      'paydrop-abcdef/fr.js',
      'paydrop-fr.js',
      'paydrop-card.js',
      `${folder}/nothing.js`,
      `${folder}.js`,
      `${folder}/`,
      `${folder}/fr`,
      `${folder}/fr.js/`,
      `${folder}/FR.JS`,
      // Files of dist/ that are not the script tag's.
      'paydrop.js.map',
      `${folder}/fr.js.map`,
      'paydrop-card-frame.js',
      'paydrop-chunks.json',
      'index.js',
      'server.js',
      'paydropjs',
      'paydrop..js',
      'PAYDROP.JS',
      'paydrop.js.',
      'paydrop.js/',
    ];
    for (const name of names) {
      const answer = await fetch(`${origin}/api/checkout/${name}`);
      expect(answer.status, name).toBe(404);
      expect(answer.headers.get('content-type'), name).toContain('application/json');
      expect(answer.headers.get('cache-control'), name).toBe('no-store');
    }
  });

  it('answers 404 to paths that climb out of the mount, encoded or with backslashes', async () => {
    const attempts = [
      '/api/checkout/paydrop.js/../x',
      '/api/checkout/paydrop.js/../../../package.json',
      '/api/checkout/../../package.json',
      '/api/checkout/%2e%2e/%2e%2e/package.json',
      '/api/checkout/%2E%2E/%2E%2E/src/server/index.ts',
      '/api/checkout/.%2e/.%2e/package.json',
      '/api/checkout/..%2f..%2fpackage.json',
      '/api/checkout/paydrop.js%2f..%2f..%2f..%2fpackage.json',
      '/api/checkout/paydrop-..%2f..%2fpackage.js',
      '/api/checkout/paydrop-%2e%2e%2fserver.js',
      '/api/checkout/%252e%252e/%252e%252e/package.json',
      '/api/checkout/paydrop.js\\..\\..\\..\\package.json',
      '/api/checkout\\..\\..\\package.json',
      '/api/checkout/..\\paydrop.js',
      '/api/checkout/paydrop.js%5c..%5c..%5cpackage.json',
      '/api/checkout/paydrop-%5c..%5cindex.js',
      '/api/checkout/./paydrop-..js',
      '/api/checkout/paydrop.js%00.map',
      // Through the chunks' folder.
      '/api/checkout/paydrop-0123abcd/../../../package.json',
      '/api/checkout/paydrop-0123abcd/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/api/checkout/paydrop-0123abcd/..%2f..%2f..%2fsrc%2fembed.js',
      '/api/checkout/paydrop-0123abcd\\..\\..\\..\\package.json',
      '/api/checkout/paydrop-%2e%2e/index.js',
      '/api/checkout/paydrop-/../index.js',
    ];
    for (const path of attempts) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      // Not a byte of a file came back: only the companion's JSON refusal.
      expect(answer.text, path).toContain('"not_found"');
      expect(answer.text, path).not.toContain('"name": "paydrop"');
      expect(answer.text, path).not.toContain('createCheckoutHandler');
    }
    // The same socket helper does reach the script, so the refusals above are the paths'.
    expect((await raw('/api/checkout/paydrop.js')).status).toBe(200);
    expect((await raw('/api/checkout/./x/../paydrop.js')).status).toBe(200);
    const folder = await chunkFolder(`${origin}/api/checkout`);
    expect((await raw(`/api/checkout/${folder}/fr.js`)).status).toBe(200);
  });
});
