/**
 * The companion port over HTTP: fetch for calls, EventSource for the pushed status. Every answer
 * goes through the checks in flow/companion.ts before anything uses it.
 */
import {
  CompanionFailure,
  type HttpCompanion,
  parseFailure,
  parseInitiation,
  parseSession,
  parseStatus,
} from '../flow/companion';
import { COMPANION_PATHS, STATUS_EVENT } from '../protocol/contract';
import { COMPANION_TIMEOUT_MS, companionBase, companionRequest } from './companion-request';

/**
 * `startedSession`: the answer to a session request already sent, the same one startSession would
 * send (the script tag's loader sends it in the click, while the checkout's code is still on its
 * way: src/widget/script-loader.ts). The first startSession reads it instead of asking again.
 */
export function createCompanionHttp(
  endpoint: string,
  fetcher: typeof fetch = fetch,
  startedSession?: Promise<Response>,
): HttpCompanion {
  const base = companionBase(endpoint);
  const origin = new URL(base).origin;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<unknown> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), COMPANION_TIMEOUT_MS);
    let response: Response;
    const started = path === COMPANION_PATHS.session ? startedSession : undefined;
    if (started) startedSession = undefined;
    try {
      response = await (started ??
        fetcher(base + path, companionRequest(method, controller.signal, token, body)));
    } catch (error) {
      throw new CompanionFailure(
        // The loader's request times out by AbortSignal.timeout, whose error is a TimeoutError.
        controller.signal.aborted || (error as Error | null)?.name === 'TimeoutError'
          ? 'timeout'
          : 'network',
        'The checkout server could not be reached.',
      );
    } finally {
      clearTimeout(timer);
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new CompanionFailure(
        response.ok ? 'bad_response' : 'unavailable',
        `The checkout server answered ${response.status}.`,
      );
    }
    if (!response.ok) throw parseFailure(response.status, json);
    return json;
  }

  // The payment keys that show a returning customer their payment's account or bank link
  // (issue 20) are kept by the companion in a cookie of its own path (payment-key-cookie.ts),
  // which same-origin calls carry: no code here for it.
  return {
    async startSession(target) {
      return parseSession(await call('POST', COMPANION_PATHS.session, undefined, target));
    },
    async initiate(token, request) {
      return parseInitiation(await call('POST', COMPANION_PATHS.initiate, token, request));
    },
    origin,
    base,
    post: call.bind(null, 'POST'),
    async status(token) {
      return parseStatus(await call('GET', COMPANION_PATHS.status, token));
    },
    watch(token, onStatus) {
      if (typeof EventSource === 'undefined') return () => {};
      const source = new EventSource(
        `${base}${COMPANION_PATHS.events}?token=${encodeURIComponent(token)}`,
      );
      source.addEventListener(STATUS_EVENT, (event) => {
        try {
          const answer = parseStatus(JSON.parse((event as MessageEvent<string>).data));
          onStatus(answer.status, answer);
        } catch {
          // A malformed event is ignored; polling still runs.
        }
      });
      return () => source.close();
    },
  };
}
