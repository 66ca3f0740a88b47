import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { minify } from 'terser';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The builds, by mode (`npm run build:widget` runs chunks first, then checkout, then the default):
 * - chunks: the checkout's lazily loaded parts, into a staging folder: fr.js (French), card.js
 *   (card entry) and qr.js (QR codes), each built to take the page's Preact and signals,
 *   transfer.js, return.js (the bank redirect and the way back) and outcomes.js (the words of a
 *   payment that did not go through);
 * - checkout: checkout.js, the script tag's checkout (an ES module: Preact, signals, the dialog),
 *   beside them; then the folder is named after a hash of them all, dist/paydrop-<hash>/, and
 *   dist/paydrop-chunks.json says where each is;
 * - default: dist/paydrop.js, the script tag: a small loader (IIFE, defines window.Paydrop) that
 *   imports checkout.js from that folder beside itself on intent, idle or click (issue 25);
 * - card-frame: dist/paydrop-card-frame.js and .css, the direct card path's frame (issue 19): a
 *   classic script and its stylesheet, which the companion serves from {basePath}/assets/;
 * - esm: dist/index.js, the widget for `import { open } from 'paydrop'`, and dist/react.js,
 *   `paydrop/react`'s PayButton and usePaydrop around it;
 * - node: dist/server.js, dist/sandbox.js and dist/protocol.js for Node and other servers, the
 *   Node adapters dist/server-node.js, and the stores dist/server-sqlite.js, dist/server-redis.js
 *   and dist/server-postgres.js:
 *   each entry paydrop/a/b is dist/a-b.js, its types dist/types/a/b/index.d.ts (package.json);
 *   for require(), dist/a-b.cjs hands over dist/a-b.js, its types beside as index.d.cts.
 */
const jsx = { oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } } } as const;

const node = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
const dependencies = [/^valibot/, /^@noble\//, /^preact/, /^@preact\//];

/**
 * Every customer downloads paydrop.js, so after the default minifier terser has its repeated
 * passes over the result: about 270 B less gzipped than either minifier alone (the widget bench
 * measures it). The source map is carried through both.
 */
function squeezeScript(): Plugin {
  return {
    name: 'paydrop-squeeze-script',
    async generateBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const out = await minify(file.code, {
          ecma: 2020,
          // The checkout is an ES module: its top level is its own, to rename at will.
          module: options.format === 'es',
          compress: { passes: 3 },
          sourceMap: file.map ? { content: JSON.stringify(file.map), asObject: true } : false,
        });
        if (out.code === undefined) throw new Error(`terser returned nothing for ${file.fileName}`);
        file.code = out.code;
        // With `sourcemap: 'hidden'` the map is already an asset of its own: replace that.
        const map = bundle[`${file.fileName}.map`];
        if (map?.type === 'asset' && out.map) {
          map.source = JSON.stringify({ ...(out.map as object), file: file.fileName });
        }
      }
    },
  };
}

/** The script tag's chunks by entry name (`fr`, `card`, …) → path under dist/, written by the chunks build. */
const CHUNK_MANIFEST = 'paydrop-chunks.json';
/** Where the chunks build writes, before its folder is named after the content. */
const CHUNK_STAGING = 'paydrop-staging';

/**
 * Writes CHUNK_MANIFEST with the chunks' entries as they lie in the staging folder; the checkout
 * build (chunkFolder) adds itself and names the folder.
 */
function chunkManifest(): Plugin {
  return {
    name: 'paydrop-chunk-manifest',
    writeBundle(options, bundle) {
      const paths: Record<string, string> = {};
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && file.isEntry) paths[file.name] = file.fileName;
      }
      writeFileSync(join(options.dir ?? 'dist', CHUNK_MANIFEST), `${JSON.stringify(paths)}\n`);
    },
  };
}

/**
 * Puts the checkout and its chunks in a folder named after a hash of them all, `paydrop-<hash>/`
 * (checkout.js, fr.js, card.js, …, and the files they share), and writes CHUNK_MANIFEST: so a
 * file's URL always means the same bytes (a server may cache it for good), and paydrop.js, which
 * carries the folder's name, pays for one hash instead of one per file. The checkout and the
 * chunks find one another by relative paths, which moving them together keeps.
 */
function chunkFolder(): Plugin {
  return {
    name: 'paydrop-chunk-folder',
    writeBundle(options) {
      const outDir = options.dir ?? 'dist';
      const staging = join(outDir, CHUNK_STAGING);
      const hash = createHash('sha256');
      // The code alone: the source maps name the sources relative to the output folder, which
      // differs between a build into dist/ and one into a staging folder of the same sources.
      for (const name of readdirSync(staging).sort()) {
        if (name.endsWith('.js')) hash.update(name).update(readFileSync(join(staging, name)));
      }
      // Six letters, 28 bits (one in 300 million that two releases share a name): letters cost
      // paydrop.js less than digits, gzip having seen more of them.
      const letters = [...hash.digest().subarray(0, 6)].map((byte) =>
        String.fromCharCode(97 + (byte % 26)),
      );
      const folder = `paydrop-${letters.join('')}`;
      rmSync(join(outDir, folder), { recursive: true, force: true });
      renameSync(staging, join(outDir, folder));
      const staged: Record<string, string> = JSON.parse(
        readFileSync(join(outDir, CHUNK_MANIFEST), 'utf8'),
      );
      const paths: Record<string, string> = {};
      for (const [name, path] of Object.entries({
        ...staged,
        checkout: `${CHUNK_STAGING}/checkout.js`,
      })) {
        paths[name] = path.replace(CHUNK_STAGING, folder);
      }
      writeFileSync(join(outDir, CHUNK_MANIFEST), `${JSON.stringify(paths, null, 2)}\n`);
    },
  };
}

/**
 * Hands paydrop.js the hashed name of the checkout's folder (`PAYDROP_CHUNK_FOLDER` in embed.ts),
 * from the manifest the checkout build left in the same folder (--outDir included).
 */
function chunkNames(): Plugin {
  return {
    name: 'paydrop-chunk-names',
    config(config) {
      const outDir = resolve(config.root ?? process.cwd(), config.build?.outDir ?? 'dist');
      let paths: Record<string, string>;
      try {
        paths = JSON.parse(readFileSync(join(outDir, CHUNK_MANIFEST), 'utf8'));
      } catch (error) {
        throw new Error(
          `${join(outDir, CHUNK_MANIFEST)} is missing: build the chunks and the checkout first (vite build --mode chunks, then --mode checkout; npm run build:widget does).`,
          { cause: error },
        );
      }
      // The entries share one folder: paydrop.js carries its name once.
      const folder = /^paydrop-[a-z]+\//.exec(paths.checkout ?? '')?.[0];
      if (!folder)
        throw new Error(
          `${join(outDir, CHUNK_MANIFEST)} names no checkout in a folder of its own.`,
        );
      return { define: { PAYDROP_CHUNK_FOLDER: JSON.stringify(folder) } };
    },
  };
}

export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'esm') {
    return {
      ...jsx,
      plugins: [
        {
          // The binding's import of the npm entry stays an import of dist/index.js, so the
          // widget's chunks are laid out as if the binding were not there.
          name: 'paydrop-react-imports-the-entry',
          enforce: 'pre',
          resolveId(source, importer) {
            if (source === '../index' && importer?.includes('/src/react/')) {
              return { id: './index.js', external: true };
            }
            return null;
          },
        },
      ],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2022',
        sourcemap: true,
        minify: false,
        // paydrop/react (dist/react.js) takes open() from dist/index.js: one widget, one
        // checkout per page, whichever entry opened it. React is the merchant's (a peer).
        lib: {
          entry: { index: 'src/index.ts', react: 'src/react/index.ts' },
          formats: ['es'],
          fileName: (_format, name) => `${name}.js`,
        },
        rolldownOptions: { external: [...dependencies, /^react(-dom)?($|\/)/] },
      },
    };
  }
  if (mode === 'chunks') {
    // The checkout's lazily loaded parts, as ES modules beside it. Their imports of Preact, its
    // hooks and signals become the checkout's own, handed over by chunks-script.ts
    // (src/widget/chunk-host.ts): no chunk carries a second copy.
    const host = new URL('./src/widget/chunk-host.ts', import.meta.url).pathname;
    return {
      ...jsx,
      resolve: {
        alias: [/^preact$/, /^preact\/hooks$/, /^@preact\/signals$/].map((find) => ({
          find,
          replacement: host,
        })),
      },
      build: {
        outDir: 'dist',
        target: 'es2022',
        sourcemap: true,
        // Library mode keeps whitespace in ES output (for bundlers that shake it again); these
        // files go to customers as they are, so the output is minified in full.
        // What several chunks share (the Preact they are handed, the contract's constants) is a
        // file of its own beside them.
        // The chunks land in a folder named after their content and the checkout's (chunkFolder,
        // in the checkout build, next), so a server may cache them for a year (the companion
        // does: `immutable`); paydrop.js, built last, learns the folder from paydrop-chunks.json
        // (chunkNames) and is the one file to revalidate.
        // Built first, this build empties dist/ of the last build's files.
        emptyOutDir: true,
        rolldownOptions: {
          output: {
            minify: true,
            chunkFileNames: ({ name }) => `${CHUNK_STAGING}/${name.replace(/\W/g, '')}.js`,
          },
        },
        lib: {
          entry: {
            fr: 'src/widget/messages/fr.ts',
            card: 'src/widget/script-chunks/card.ts',
            qr: 'src/widget/script-chunks/qr.ts',
            transfer: 'src/widget/script-chunks/transfer.ts',
            return: 'src/widget/return/index.ts',
            outcomes: 'src/widget/outcomes/index.ts',
          },
          formats: ['es'],
          fileName: (_format, name) => `${CHUNK_STAGING}/${name}.js`,
        },
      },
      plugins: [chunkManifest()],
    };
  }
  if (mode === 'checkout') {
    // The script tag's checkout: an ES module that its loader (paydrop.js) imports, with Preact
    // and @preact/signals inside, minified twice like every script a customer downloads.
    return {
      ...jsx,
      plugins: [squeezeScript(), chunkFolder()],
      // '#chunks' resolves to the loader that fetches lazy parts from beside the checkout.
      resolve: { conditions: ['paydrop-script', 'browser', 'module', 'import', 'default'] },
      build: {
        outDir: 'dist',
        // The chunks, built first, are already in the staging folder.
        emptyOutDir: false,
        target: 'es2022',
        // Browsers that know `color-scheme` without lightningcss's light/dark polyfill variables.
        cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
        // The map is published beside the module but not linked from it: the link is bytes every
        // customer downloads, the map is for the few who debug (devtools can load it by hand).
        sourcemap: 'hidden',
        rolldownOptions: { output: { minify: true } },
        lib: {
          entry: 'src/script-checkout.ts',
          formats: ['es'],
          fileName: () => `${CHUNK_STAGING}/checkout.js`,
        },
      },
    };
  }
  if (mode === 'card-frame') {
    // A classic script (the frame's CSP allows the companion's files, nothing inline) with its
    // own copy of what it needs, minified twice like paydrop.js: it has a budget of 8 KB gzipped.
    return {
      plugins: [squeezeScript()],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2022',
        cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
        sourcemap: 'hidden',
        lib: {
          entry: 'src/card-frame/index.ts',
          formats: ['iife'],
          name: 'PaydropCardFrame',
          fileName: () => 'paydrop-card-frame.js',
          cssFileName: 'paydrop-card-frame',
        },
      },
    };
  }
  if (mode === 'back-office') {
    // The back office (issue 14): the payout form's script tag and the demo's back-office page.
    return {
      ...jsx,
      build: {
        outDir: 'dist/back-office',
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        rolldownOptions: {
          input: {
            'paydrop-back-office': 'src/back-office/embed.ts',
            'back-office-demo': 'demo/back-office.ts',
          },
          preserveEntrySignatures: 'allow-extension',
          output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    };
  }
  if (mode === 'demo') {
    // The demo SPA, bundling the widget the way a merchant's bundler would from npm.
    return {
      ...jsx,
      resolve: { alias: { paydrop: new URL('./src/index.ts', import.meta.url).pathname } },
      build: {
        outDir: 'dist/demo',
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        rolldownOptions: {
          input: 'demo/spa.ts',
          output: { entryFileNames: 'spa.js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    };
  }
  if (mode === 'node') {
    return {
      plugins: [
        {
          // The CommonJS entries of package.json's `require` conditions: dist/<entry>.cjs is
          // `module.exports = require('./<entry>.js')`, the ES module itself (Node's require(esm),
          // 20.19 and 22.12 on, which engines states), not a second build. A process that both
          // requires and imports paydrop/server holds one copy of it, so its classes and state are
          // the same either way; and a CommonJS build would gain no older Node, since it would
          // still require @noble/hashes, an ES module only. dist/index.cjs is the widget's,
          // dist/react.cjs its React binding's.
          name: 'paydrop-commonjs-entries',
          generateBundle() {
            for (const name of [
              'server',
              'server-node',
              'server-sqlite',
              'server-redis',
              'server-postgres',
              'sandbox',
              'protocol',
              'index',
              'react',
            ]) {
              this.emitFile({
                type: 'asset',
                fileName: `${name}.cjs`,
                source: `'use strict';\n// require() of this entry gives its ES module itself (Node >= 20.19).\nmodule.exports = require('./${name}.js');\n`,
              });
            }
          },
        },
      ],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'node20',
        ssr: true,
        sourcemap: true,
        minify: false,
        rolldownOptions: {
          input: {
            server: 'src/server/index.ts',
            'server-node': 'src/server/node/index.ts',
            sandbox: 'src/sandbox/index.ts',
            protocol: 'src/protocol/index.ts',
            'sandbox-cli': 'src/sandbox/cli.ts',
            'server-sqlite': 'src/server/store/sqlite/index.ts',
            'server-redis': 'src/server/store/redis/index.ts',
            'server-postgres': 'src/server/store/postgres/index.ts',
          },
          output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
          // The stores' drivers are optional peers, loaded from the merchant's node_modules.
          external: [...node, ...dependencies, /^better-sqlite3/, /^ioredis/, /^pg($|\/)/],
        },
      },
    };
  }
  return {
    plugins: [chunkNames(), squeezeScript()],
    build: {
      outDir: 'dist',
      // The checkout and its chunks, built first, are already there.
      emptyOutDir: false,
      target: 'es2022',
      // Published beside the script but not linked from it, as the checkout's.
      sourcemap: 'hidden',
      lib: {
        entry: 'src/embed.ts',
        formats: ['iife'],
        name: 'PaydropEmbed',
        fileName: () => 'paydrop.js',
      },
    },
  };
});
