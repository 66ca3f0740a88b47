/**
 * The fetch the provider's calls go through when the merchant passes none (issue 25, item 3).
 *
 * On Node, fetch is undici's: every call builds a Request, web streams for both bodies, a
 * Response and their Headers around what undici's dispatcher does. A provider call needs none of
 * that (a JSON text out, a JSON text back), so here it asks fetch's own dispatcher, the one under
 * `Symbol.for('undici.globalDispatcher.1')`: the same connection pool, keep-alive, TLS and proxy
 * (`setGlobalDispatcher`, NODE_USE_ENV_PROXY) as fetch, for about half of fetch's CPU
 * (bench/provider-fetch.ts). What fetch would do besides is done here too: redirects on the
 * provider's origin followed (one hop at a time; one to another origin is handed back as it
 * is, never sent the key), a compressed answer decoded, a body-less status given no body.
 *
 * Where there is no such dispatcher (Workers, Deno, Bun; Node before its first fetch creates
 * it), for anything but a string body to a URL, or once the global fetch has been replaced
 * since this module was loaded (a merchant's tests mocking the provider with MSW or nock), it
 * is fetch. A `fetch` option of the handler always wins.
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
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Redirects followed before giving up, as fetch (Fetch's limit). */
const MAX_REDIRECTS = 20;

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

export const providerFetch: typeof fetch = (input, init) => send(input, init, 0);

async function send(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  redirects: number,
): Promise<Response> {
  const dispatcher = dispatcherOf();
  const headers = headersOf(init?.headers);
  const body = init?.body;
  if (
    !dispatcher ||
    globalThis.fetch !== foundFetch ||
    !headers ||
    (typeof input !== 'string' && !(input instanceof URL)) ||
    (body !== undefined && body !== null && typeof body !== 'string') ||
    (init?.redirect !== undefined && init.redirect !== 'follow')
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
  const location = answer.headers.location;
  const target = typeof location === 'string' ? URL.parse(location, url) : null;
  // Followed as fetch follows it (303, and 301/302 after a POST, become a GET), but here, one
  // hop at a time, and only on the provider's own origin: fetch would carry the secret key's
  // header to another, even after a first hop on the provider's.
  if (REDIRECT.has(answer.statusCode) && target?.origin === url.origin) {
    await answer.body.arrayBuffer();
    if (redirects >= MAX_REDIRECTS) throw new TypeError('The provider redirected too many times.');
    const toGet =
      answer.statusCode === 303 ? method !== 'HEAD' : answer.statusCode <= 302 && method === 'POST';
    return send(target, toGet ? { ...init, method: 'GET', body: null } : init, redirects + 1);
  }
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
}
