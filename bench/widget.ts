/**
 * The widget's budgets (DESIGN.md), measured in headless Chromium against the real companion and
 * sandbox on loopback:
 * - gzipped size of each bundle and lazily loaded chunk (script tag: at most 20 KB, Preact and
 *   @preact/signals inside);
 * - click on pay to the payment step on screen, median (under 100 ms);
 * - DOM nodes, listeners, timers and heap after opening and closing the dialog 500 times
 *   (no growth; heap within 1 MB);
 * - parse and run of the script when a page loads it, against Adyen's Drop-in with Card bundled
 *   the same way, side by side in the same Chromium (at most 1/8 of it).
 * Run after `npm run build:widget`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { launchChromium } from '../test/helpers/browser';
import { startShop } from '../test/helpers/shop';

const SCRIPT_BUDGET = 20 * 1024;
/** The direct card path's frame script, served by the companion (issue 19). */
const CARD_FRAME_BUDGET = 8 * 1024;
const CLICKS = Number(process.env.BENCH_CLICKS ?? 40);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 500);

/**
 * When each chunk of paydrop.js is loaded, by its name in their folder (paydrop-<hash>/<word>.js);
 * any other file is a build for bundlers or maps.
 */
const LAZY: Readonly<Record<string, string>> = {
  fr: 'for French-speaking customers',
  card: 'when the customer chooses Card',
  qr: 'when a QR code is shown (bank payment finished on a phone)',
  transfer:
    'while the channel list offers a bank transfer, or beside the only channel’s setting up',
  adoptstyles: 'with the card or transfer chunk: their stylesheet joins the dialog’s',
  format:
    'with the transfer or outcomes chunk: the account number’s grouping, the countdown’s digits',
  return: 'when a blocked bank window turns into a full-page redirect, and back',
  buttons:
    'on the first click on a data-paydrop-* element (or back from a bank redirect to such a page)',
  chunkhost: 'with the card or QR chunk: hands them the page’s Preact and signals',
  contract: 'with the card or return chunk: the companion’s paths and parameter',
  outcomes:
    'at an end state (its mark), when a payment did not go through, or an account’s last two minutes begin',
  localtexts:
    'with the card, QR or outcomes chunk: picks their texts for the language, the merchant’s on top',
};

async function sizes(): Promise<void> {
  console.log('bundle sizes (gzip -9)');
  const gzipped = async (file: string) => gzipSync(await readFile(file), { level: 9 }).length;
  const script = await gzipped('dist/paydrop.js');
  console.log(
    `  dist/paydrop.js (script tag)   ${String(script).padStart(7)} bytes  (budget ${SCRIPT_BUDGET}: ${script <= SCRIPT_BUDGET ? `within, ${SCRIPT_BUDGET - script} left` : 'OVER'})`,
  );
  const frame = await gzipped('dist/paydrop-card-frame.js');
  const frameStyles = await gzipped('dist/paydrop-card-frame.css');
  console.log(
    `  dist/paydrop-card-frame.js     ${String(frame).padStart(7)} bytes  (budget ${CARD_FRAME_BUDGET}: ${frame <= CARD_FRAME_BUDGET ? `within, ${CARD_FRAME_BUDGET - frame} left` : 'OVER'}; its stylesheet ${frameStyles})`,
  );
  const folder = (await readdir('dist')).find((name) => /^paydrop-[a-z]+$/.test(name)) ?? '';
  const chunks = (await readdir(`dist/${folder}`))
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => `${folder}/${name}`);
  const word = (name: string) => /\/(\w+)\.js$/.exec(name)?.[1] ?? '';
  for (const name of chunks) {
    const file = `dist/${name}`;
    console.log(
      `  ${file.padEnd(36)} ${String(await gzipped(file)).padStart(7)} bytes  lazily loaded ${LAZY[word(name)] ?? '(unknown chunk)'}`,
    );
  }
  console.log(
    `  dist/index.js (npm module)     ${String(await gzipped('dist/index.js')).padStart(7)} bytes  dependencies external`,
  );
  // One Preact and one signal graph on the page: each package leaves a string no minifier
  // renames (Preact's MathML namespace, signals' "Cycle detected"); only paydrop.js may hold them.
  const copies = async (file: string) => {
    const text = await readFile(file, 'utf8');
    return { preact: text.includes('MathML'), signals: text.includes('Cycle detected') };
  };
  const inScript = await copies('dist/paydrop.js');
  const extra = [];
  for (const name of chunks) {
    const found = await copies(`dist/${name}`);
    if (found.preact || found.signals) extra.push(name);
  }
  console.log(
    `  one copy: Preact ${inScript.preact ? 'and' : 'MISSING,'} signals ${inScript.signals ? '' : 'MISSING '}in paydrop.js; ${extra.length ? `a SECOND COPY in ${extra.join(', ')}` : 'none in any chunk'}`,
  );
}

const orders: Record<string, { amountMinor: number; currency: string; description: string }> = {};
for (let index = 0; index < CLICKS + 10; index++) {
  orders[`bench-${index}`] = {
    amountMinor: 2_500_050,
    currency: 'NGN',
    description: `Bench order ${index}`,
  };
}
orders.cycle = { amountMinor: 2_500_050, currency: 'NGN', description: 'Open and close' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

// The page-side code is written as strings: tsx keeps function names with a helper that does
// not exist inside the page, so functions cannot be handed to page.evaluate from here.
const CLICK_TO_STEP = `new Promise((resolve) => {
  const start = performance.now();
  document.getElementById('pay').click();
  const look = () => {
    const heading = document.querySelector('paydrop-checkout')?.shadowRoot?.querySelector('[data-step-heading]');
    if (heading && heading.tagName === 'H3') resolve(performance.now() - start);
    else requestAnimationFrame(look);
  };
  look();
})`;

const COUNT_TIMERS = `(() => {
  const live = new Set();
  window.__liveTimers = live;
  const st = window.setTimeout, ct = window.clearTimeout, si = window.setInterval, ci = window.clearInterval;
  window.setTimeout = (run, ms, ...rest) => {
    const id = st(() => { live.delete(id); if (typeof run === 'function') run(...rest); }, ms);
    live.add(id);
    return id;
  };
  window.clearTimeout = (id) => { live.delete(id); ct(id); };
  window.setInterval = (run, ms, ...rest) => { const id = si(run, ms, ...rest); live.add(id); return id; };
  window.clearInterval = (id) => { live.delete(id); ci(id); };
})()`;

const COUNTS = `({
  nodes: document.getElementsByTagName('*').length,
  hosts: document.querySelectorAll('paydrop-checkout').length,
  timers: window.__liveTimers.size,
})`;

const cycles = (count: number) => `(async () => {
  for (let index = 0; index < ${count}; index++) {
    const handle = window.Paydrop.open({ endpoint: '/api/checkout', order: 'cycle' });
    await new Promise((resolve) => {
      const look = () => {
        if (document.querySelector('paydrop-checkout')?.shadowRoot?.querySelector('h3')) resolve();
        else setTimeout(look, 2);
      };
      look();
    });
    handle.close();
  }
})()`;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><script src="/paydrop.js"></script></head><body>${body}</body></html>`;

/**
 * Parse and run of a classic script: from when it could start (its bytes in and the script before
 * it done) to the script after it. A fresh context per load, so no compiled-code cache helps.
 */
async function parseAndRun(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  shop: Awaited<ReturnType<typeof startShop>>,
) {
  await build({
    logLevel: 'warn',
    configFile: false,
    build: {
      outDir: 'dist/bench',
      emptyOutDir: true,
      target: 'es2022',
      lib: {
        entry: 'bench/adyen/dropin-card.ts',
        formats: ['iife'],
        name: 'AdyenBenchBundle',
        fileName: () => 'adyen-dropin-card.js',
      },
    },
  });
  const adyen = await readFile('dist/bench/adyen-dropin-card.js', 'utf8');
  shop.scripts.set('/adyen-dropin-card.js', adyen);
  shop.scripts.set('/before.js', 'window.__before = performance.now();');
  shop.scripts.set('/after.js', 'window.__after = performance.now();');
  const measure = async (src: string) => {
    const times: number[] = [];
    for (let index = 0; index < 15; index++) {
      shop.pages.set(
        '/load',
        page(
          `<script src="/before.js"></script><script src="${src}"></script><script src="/after.js"></script>`,
        ),
      );
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`${shop.url}/load`);
      const elapsed = (await tab.evaluate(`(() => {
        const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('${src}'));
        return window.__after - Math.max(window.__before, entry ? entry.responseEnd : 0);
      })()`)) as number;
      if (index >= 3) times.push(elapsed);
      await context.close();
    }
    return median(times);
  };
  const ours = await measure('/paydrop.js');
  const theirs = await measure('/adyen-dropin-card.js');
  const adyenGzip = gzipSync(Buffer.from(adyen), { level: 9 }).length;
  console.log('parse and run when the page loads the script (median of 12, fresh context each)');
  console.log(`  dist/paydrop.js                ${ours.toFixed(2)} ms`);
  console.log(
    `  Adyen Drop-in with Card        ${theirs.toFixed(2)} ms  (${adyenGzip} bytes gzipped)`,
  );
  console.log(
    `  ratio ${(ours / theirs).toFixed(3)}  (budget 0.125: ${ours / theirs <= 0.125 ? 'within' : 'OVER'})`,
  );
}

async function main(): Promise<void> {
  await sizes();
  const shop = await startShop({ orders });
  const browser = await launchChromium();
  try {
    // Click to payment step: a fresh order each time, so each click starts a session and a payment.
    const tab = await browser.newPage();
    const timings: number[] = [];
    for (let index = 0; index < CLICKS; index++) {
      shop.pages.set(
        '/',
        page(
          `<button id="pay" data-paydrop-order="bench-${index}" data-paydrop-endpoint="/api/checkout">Pay</button>`,
        ),
      );
      await tab.goto(`${shop.url}/`);
      const elapsed = (await tab.evaluate(CLICK_TO_STEP)) as number;
      if (index >= 5) timings.push(elapsed); // the first few warm up sockets and caches
    }
    console.log(
      `click to payment step on screen (${timings.length} clicks, loopback, headless Chromium)`,
    );
    console.log(
      `  median ${median(timings).toFixed(1)} ms  (budget 100 ms)  min ${Math.min(...timings).toFixed(1)}  max ${Math.max(...timings).toFixed(1)}`,
    );

    await parseAndRun(browser, shop);

    // Open and close many times: nothing may be left behind.
    const cyclePage = await browser.newPage();
    await cyclePage.addInitScript(COUNT_TIMERS);
    shop.pages.set('/cycle', page('<p>cycle</p>'));
    await cyclePage.goto(`${shop.url}/cycle`);
    const cdp = await cyclePage.context().newCDPSession(cyclePage);
    const measure = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      const listeners = (await cdp.send('Runtime.evaluate', {
        expression:
          '[document, window, document.body].reduce((n, t) => n + Object.values(getEventListeners(t)).flat().length, 0)',
        includeCommandLineAPI: true,
        returnByValue: true,
      })) as { result: { value: number } };
      const counts = (await cyclePage.evaluate(COUNTS)) as {
        nodes: number;
        hosts: number;
        timers: number;
      };
      return { ...counts, listeners: listeners.result.value, heap: heap.usedSize };
    };
    await cyclePage.evaluate(cycles(10)); // warm up: first session, first payment, code compiled
    const before = await measure();
    await cyclePage.evaluate(cycles(CYCLES));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await measure();
    console.log(`open and close ${CYCLES} times`);
    console.log(
      `  DOM nodes  ${before.nodes} → ${after.nodes}   checkout hosts left ${after.hosts}`,
    );
    console.log(`  listeners  ${before.listeners} → ${after.listeners} (document, window, body)`);
    console.log(`  timers     ${before.timers} → ${after.timers}`);
    const growth = (after.heap - before.heap) / 1024;
    console.log(
      `  heap       ${(before.heap / 1024).toFixed(0)} KB → ${(after.heap / 1024).toFixed(0)} KB (${growth >= 0 ? '+' : ''}${growth.toFixed(0)} KB; budget 1024 KB)`,
    );
  } finally {
    await browser.close();
    await shop.close();
  }
}

await main();
