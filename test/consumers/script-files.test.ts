// The script tag in the packed package (issue 21, item 2): a merchant who serves the files
// themselves finds them through the package's exports (`paydrop/dist/*`), chunks included; and
// the packed paydrop/server serves the very same files from its mount, with nothing to read
// from node_modules at run time.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage, packedPackage } from './packed-package';

let packed: PackedPackage;

beforeAll(() => {
  packed = packedPackage();
}, 180_000);

/** Runs `code` as an ES module of the merchant's project (its node_modules, its resolution). */
function inConsumer(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: packed.consumer,
    encoding: 'utf8',
  });
}

describe('paydrop/dist/*', () => {
  it('resolves paydrop.js and each chunk it loads to a file of the package', () => {
    const resolved = JSON.parse(
      inConsumer(`
        import { readFileSync } from 'node:fs';
        import { fileURLToPath } from 'node:url';
        const path = (specifier) => fileURLToPath(import.meta.resolve(specifier));
        const chunks = JSON.parse(readFileSync(path('paydrop/dist/paydrop-chunks.json'), 'utf8'));
        console.log(JSON.stringify({
          script: path('paydrop/dist/paydrop.js'),
          chunks: Object.values(chunks).map((file) => path('paydrop/dist/' + file)),
        }));
      `),
    ) as { script: string; chunks: string[] };
    const dist = join(packed.consumer, 'node_modules/paydrop/dist');
    expect(resolved.script).toBe(join(dist, 'paydrop.js'));
    // checkout (which paydrop.js, the loader, imports), and the chunks it loads: fr, card, qr,
    // transfer, outcomes, return (the buttons' click is the loader's own since issue 25)
    expect(resolved.chunks).toHaveLength(7);
    const script = readFileSync(resolved.script, 'utf8');
    for (const chunk of resolved.chunks) {
      expect(chunk.startsWith(`${dist}/paydrop-`)).toBe(true);
      // paydrop.js names the checkout's folder; each file is a module of the folder.
      const folder = chunk.slice(dist.length + 1).split('/')[0] ?? '';
      expect(script).toContain(`${folder}/`);
      expect(readFileSync(chunk, 'utf8')).toMatch(/\bexport\s*\{/);
    }
  }, 60_000);

  it('is what the packed companion serves from its mount', async () => {
    const served = JSON.parse(
      inConsumer(`
        import { createCheckoutHandler } from 'paydrop/server';
        import { readFileSync } from 'node:fs';
        import { fileURLToPath } from 'node:url';
        const checkout = createCheckoutHandler({
          secretKey: 'sk_test_packed_script_0123456789',
          baseUrl: 'http://127.0.0.1:9/unused',
          resolveOrder: () => null,
        });
        const get = async (path) => {
          const answer = await checkout(new Request('https://shop.example/api/checkout/' + path));
          return { status: answer.status, cache: answer.headers.get('cache-control'), text: await answer.text() };
        };
        const file = (path) => readFileSync(fileURLToPath(import.meta.resolve('paydrop/dist/' + path)), 'utf8');
        const chunks = JSON.parse(file('paydrop-chunks.json'));
        const out = { entry: { ...(await get('paydrop.js')), same: (await get('paydrop.js')).text === file('paydrop.js') }, chunks: [] };
        for (const path of Object.values(chunks)) {
          const answer = await get(path);
          out.chunks.push({ path, status: answer.status, cache: answer.cache, same: answer.text === file(path) });
        }
        checkout.close();
        console.log(JSON.stringify(out));
      `),
    ) as {
      entry: { status: number; cache: string; same: boolean };
      chunks: Array<{ path: string; status: number; cache: string; same: boolean }>;
    };
    expect(served.entry).toMatchObject({ status: 200, cache: 'public, max-age=300', same: true });
    expect(served.chunks).toHaveLength(7);
    for (const chunk of served.chunks) {
      expect(chunk, chunk.path).toMatchObject({
        status: 200,
        cache: 'public, max-age=31536000, immutable',
        same: true,
      });
    }
  }, 60_000);
});
