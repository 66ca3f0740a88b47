import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter';

/**
 * Pure logic: no server, process, browser, database or global stub. Its files share a worker's
 * module graph (isolate: false) in threads, so each does not pay again for importing the model.
 */
const UNIT = [
  'test/node/flow/**/*.test.ts',
  'test/node/protocol/**/*.test.ts',
  'test/node/card-flow.test.ts',
  'test/node/card-frame-contract.test.ts',
  'test/node/card-input.test.ts',
  'test/node/challenge-message.test.ts',
  'test/node/hosted-card-flow.test.ts',
  'test/node/provider/payout-state.test.ts',
  'test/node/provider/transport.test.ts',
  'test/node/provider/webhook-signature.test.ts',
  'test/node/sandbox/clock.test.ts',
  'test/node/server/shop-origin.test.ts',
  'test/node/server/token.test.ts',
  'test/node/server/validation-cache.test.ts',
  'test/node/store/memory-queue.test.ts',
];

/**
 * The node, dom and e2e projects share a worker's module graph and globals between files
 * (isolate: false). These files cannot, and each gets its own:
 * - the Hono adapter's serve() (@hono/node-server) replaces the global Request and Response with
 *   its own, as it does in a merchant's app, and a file after it got those (a Response whose
 *   headers.set was lost); test/helpers/shared-worker-guard.ts fails a file that does it unlisted;
 * - vi.mock replaces a module for the file that asks, which a module graph loaded before it
 *   cannot give (the chunk loaders watched or made to fail, card.css read as text);
 * - a file that counts what the whole process holds (its timers, its open event streams) would
 *   count a previous file's leftovers too (a steady run counted 4 timers where 1 was armed).
 */
const OWN_MODULE_GRAPH = [
  'test/node/server/checkout-adapters.test.ts',
  'test/node/server/events-heartbeat.test.ts',
  'test/node/server/events-node.test.ts',
  'test/node/server/serverless.test.ts',
  'test/browser/copy-button.test.ts',
  'test/browser/bank-panel.test.ts',
  'test/browser/bank-window.test.ts',
  'test/browser/card-step.test.ts',
  'test/browser/outcomes-unreachable.test.ts',
];

/**
 * Most files spend their time waiting on what they started (servers, Chromium, redis-server,
 * PostgreSQL, child processes), not computing, so more files run at once than there are cores.
 * Vitest's own default is cores - 1: one file at a time on a 2-core machine. PAYDROP_TEST_WORKERS
 * overrides it (1 to run one file at a time when hunting a flake).
 */
const workers = Number(process.env.PAYDROP_TEST_WORKERS) || Math.max(4, availableParallelism() * 2);

export default defineConfig({
  test: {
    // The companion serves the card frame's built stylesheet as text (`?raw`, src/server/checkout/card-frame.ts);
    // Vitest empties CSS it does not process.
    css: { include: [/paydrop-card-frame\.css/] },
    // Servers in tests listen on port 0 and close on teardown; a hung one must not hang CI. A
    // limit bounds a hang, not speed: beside a second copy of the suite on 2 cores a test may take
    // ten times as long (payouts-late-reversal, 1,000 transactions: over 20 s in the steady check,
    // session 11), so a hung test fails in a minute.
    testTimeout: 60_000,
    // A file's set-up may start a PostgreSQL (initdb and pg_ctl: about 3 s alone); three files
    // starting theirs at once beside a second copy of the suite took over 20 s. A hung one still
    // fails, in 2 minutes.
    hookTimeout: 120_000,
    // A poll waits for what a loaded machine may take seconds to show (a page's script running, a
    // pushed status drawn): Vitest's 1 s default failed there (widget-loading, at load 20 on 2
    // cores). A poll that passes returns as soon as it does, so a steady run is no slower; files
    // do not set a shorter one.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', new SummaryReporter()],
    maxWorkers: workers,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, pool: 'threads', isolate: false },
      },
      {
        // The widget's components in jsdom (each file says so in its first line).
        extends: true,
        // Shared between files like the node project's: jsdom set up once a worker, not once a file
        // (65 CPU-s isolated, 29 shared); setup-dom.ts cleans the document after every test.
        test: {
          name: 'dom',
          include: ['test/browser/**/*.test.ts'],
          exclude: OWN_MODULE_GRAPH,
          isolate: false,
          setupFiles: ['test/browser/setup-dom.ts', 'test/helpers/shared-worker-guard.ts'],
        },
      },
      {
        // The companion, the sandbox, the stores and the demo, each over real servers. The files
        // of a worker share its module graph (isolate: false): importing the server's modules
        // again for each of 80 files was half the project's CPU (267 CPU-s isolated, 127-147 shared).
        // Each file starts and closes its own servers, and restores what it stubs.
        extends: true,
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          exclude: [...UNIT, ...OWN_MODULE_GRAPH],
          isolate: false,
          setupFiles: ['test/helpers/shared-worker-guard.ts'],
        },
      },
      {
        // Each file with a module graph and globals of its own (jsdom for those that say so).
        extends: true,
        test: { name: 'isolated', include: OWN_MODULE_GRAPH },
      },
      {
        // Chromium, the packed package in consumer projects, and its published types.
        extends: true,
        test: {
          name: 'e2e',
          // One Chromium for the run; each file connects to it (test/helpers/browser.ts).
          globalSetup: ['test/helpers/chromium-server.ts'],
          // Shared between files like the node project's: Playwright's client and the servers'
          // modules imported once a worker (import time summed over files: 18 s, from about 100).
          isolate: false,
          setupFiles: ['test/helpers/shared-worker-guard.ts'],
          include: [
            'test/e2e/**/*.test.ts',
            'test/consumers/**/*.test.ts',
            'test/types/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
