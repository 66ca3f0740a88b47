// The guard that keeps a shared worker's globals honest (test/helpers/shared-worker-guard.ts),
// against what made it necessary: @hono/node-server's serve() swaps in its own Request and
// Response, as it does in a merchant's app, and every later file in the worker got them.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, expect, it } from 'vitest';
import { fetchGlobals, replacedFetchGlobals } from '../helpers/fetch-globals';

const before = fetchGlobals();
afterEach(() => {
  // Put back what the test replaced, or this file would fail its own guard.
  Object.assign(globalThis, before);
});

it('names the globals a Hono server replaced', async () => {
  const originals = fetchGlobals();
  expect(replacedFetchGlobals(originals)).toEqual([]);
  const server = serve({ fetch: new Hono().fetch, port: 0, hostname: '127.0.0.1' });
  try {
    expect(replacedFetchGlobals(originals).sort()).toEqual(['Request', 'Response']);
  } finally {
    await new Promise((done) => server.close(done));
  }
});

it('names a replaced fetch, and nothing once it is put back', () => {
  const originals = fetchGlobals();
  const realFetch = globalThis.fetch;
  globalThis.fetch = (() => Promise.reject(new Error('not the real fetch'))) as typeof fetch;
  expect(replacedFetchGlobals(originals)).toEqual(['fetch']);
  globalThis.fetch = realFetch;
  expect(replacedFetchGlobals(originals)).toEqual([]);
});
