/**
 * The fetch the provider's calls go through when the merchant passes none (issue 25, item 3).
 *
 * On Node, fetch is undici's: every call builds a Request, web streams for both bodies, a
 * Response and their Headers around what undici's dispatcher does. A provider call needs none of
 * that (a JSON text out, a JSON text back), so here it asks fetch's own dispatcher, the one under
 * `Symbol.for('undici.globalDispatcher.1')`: the same connection pool, keep-alive, TLS and proxy
 * (`setGlobalDispatcher`, NODE_USE_ENV_PROXY) as fetch, for about half of fetch's CPU
 * (bench/provider-fetch.ts). What fetch would do besides is done here too: a compressed answer
 * decoded, a body-less status given no body.
 *
 * That is for the transport's calls: a string body to a URL, with `redirect: 'manual'` (the
 * transport follows redirects itself, on the provider's origin only), so a redirect is answered
 * as it is. Anything else is fetch: where there is no such dispatcher (Workers, Deno, Bun; Node
 * before its first fetch creates it), another redirect mode, another body, or once the global
 * fetch has been replaced since this module was loaded (a merchant's tests mocking the provider
 * with MSW or nock). A `fetch` option of the handler always wins.
 */

/** The part of undici's Dispatcher used here (undici's `Dispatcher.request`). */
interface Dispatcher {
  request(options: {
    readonly origin: string;
    readonly path: string;
    readonly method: string;
    readonly headers: Record<string, string>;
    readonly body?: string | undefined;
    readonly signal?: AbortSignal | undefined;
  }): Promise<{
    readonly statusCode: number;
    readonly headers: Record<string, string | string[] | undefined>;
    readonly body: { arrayBuffer(): Promise<ArrayBuffer> };
  }>;
}

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
/** The global fetch as this module found it; another one put in its place since is used. */
const foundFetch = globalThis.fetch;
/** Statuses whose Response may not have a body (Fetch's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function dispatcherOf(): Dispatcher | undefined {
  const found = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  return typeof (found as Dispatcher | undefined)?.request === 'function'
    ? (found as Dispatcher)
    : undefined;
}

/** The request's headers as one plain record, lower-cased (undici sends them as given). */
function headersOf(given: HeadersInit | undefined): Record<string, string> | undefined {
  if (given === undefined) return {};
  if (given instanceof Headers || Array.isArray(given)) return undefined;
  const headers: Record<string, string> = {};
  for (const name in given) headers[name.toLowerCase()] = String(given[name]);
  return headers;
}

export const providerFetch: typeof fetch = async (input, init) => {
  const dispatcher = dispatcherOf();
  const headers = headersOf(init?.headers);
  const body = init?.body;
  if (
    !dispatcher ||
    globalThis.fetch !== foundFetch ||
    !headers ||
    (typeof input !== 'string' && !(input instanceof URL)) ||
    (body !== undefined && body !== null && typeof body !== 'string') ||
    init?.redirect !== 'manual'
  )
    return fetch(input, init);
  const url = new URL(input);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fetch(input, init);
  const method = (init?.method ?? 'GET').toUpperCase();
  // As fetch sends them when not given, but for the encoding: an identity answer needs no
  // decoding (a server that compresses anyway is decoded below).
  headers['accept-encoding'] ??= 'identity';
  headers['user-agent'] ??= 'node';
  headers.accept ??= '*/*';
  const answer = await dispatcher.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method,
    headers,
    body: body ?? undefined,
    signal: init?.signal ?? undefined,
  });
  const responseHeaders = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name];
    if (Array.isArray(value)) for (const each of value) responseHeaders.append(name, each);
    else if (value !== undefined) responseHeaders.append(name, value);
  }
  const status = answer.statusCode;
  const encoding = responseHeaders.get('content-encoding')?.trim().toLowerCase();
  if (NULL_BODY.has(status)) {
    await answer.body.arrayBuffer();
    return new Response(null, { status, headers: responseHeaders });
  }
  if (encoding && encoding !== 'identity') {
    // Sent compressed although identity was asked for: decoded as fetch decodes it.
    if (encoding !== 'gzip' && encoding !== 'deflate' && encoding !== 'x-gzip')
      throw new TypeError(`The answer's content-encoding ${encoding} cannot be decoded.`);
    const bytes = new Blob([await answer.body.arrayBuffer()]).stream();
    const format = encoding === 'deflate' ? 'deflate' : 'gzip';
    return new Response(bytes.pipeThrough(new DecompressionStream(format)), {
      status,
      headers: responseHeaders,
    });
  }
  return new Response(await answer.body.arrayBuffer(), { status, headers: responseHeaders });
};
