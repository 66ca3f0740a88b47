/**
 * Set-up for the files that share a worker's module graph and globals (isolate: false): a file
 * that leaves a global of the fetch API replaced fails here, by name, instead of making whichever
 * file runs after it in the same worker fail now and then. @hono/node-server's serve() does it
 * (its own Request and Response, as in a merchant's app); such a file belongs in vitest.config.ts's
 * OWN_MODULE_GRAPH list.
 */
import { afterAll, expect } from 'vitest';
import { type FetchGlobals, fetchGlobals, replacedFetchGlobals } from './fetch-globals';

const shared = globalThis as { __paydropFetchGlobals?: FetchGlobals };
// The first file in the worker records them; the set-up runs again before every file after it.
shared.__paydropFetchGlobals ??= fetchGlobals();
const originals = shared.__paydropFetchGlobals;

afterAll(() => {
  expect(
    replacedFetchGlobals(originals),
    'this file replaced globals every later file in its worker sees: list it in OWN_MODULE_GRAPH (vitest.config.ts)',
  ).toEqual([]);
});
