/**
 * The globals of the fetch API, as a file found them and as it left them: a file that replaces
 * one (as @hono/node-server's serve() does, with its own Request and Response) changes them for
 * every later file in a worker whose files share their globals (isolate: false).
 */
export const FETCH_GLOBALS = [
  'Request',
  'Response',
  'Headers',
  'fetch',
  'FormData',
  'Blob',
] as const;
export type FetchGlobals = Record<(typeof FETCH_GLOBALS)[number], unknown>;

/** The fetch globals as they are now. */
export function fetchGlobals(): FetchGlobals {
  return Object.fromEntries(FETCH_GLOBALS.map((name) => [name, globalThis[name]])) as FetchGlobals;
}

/** The names of the fetch globals that are no longer the ones in `originals`. */
export function replacedFetchGlobals(originals: FetchGlobals): string[] {
  return FETCH_GLOBALS.filter((name) => globalThis[name] !== originals[name]);
}
