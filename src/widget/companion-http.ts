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

const TIMEOUT_MS = 20_000;

export function createCompanionHttp(
  endpoint: string,
  fetcher: typeof fetch = fetch,
): HttpCompanion {
  const base = endpoint.replace(/\/+$/, '');
  const origin = new URL(base, document.baseURI).origin;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<unknown> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetcher(base + path, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
      });
    } catch {
      throw new CompanionFailure(
        controller.signal.aborted ? 'timeout' : 'network',
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

  // The payment keys of this order (issue 20): the companion shows a payment's account or bank
  // link, on opening the order again, only to the browser that holds its key.
  let keysAt = '';
  const keysOf = (): string[] => {
    try {
      const kept = JSON.parse(localStorage.getItem(keysAt) ?? '[]');
      return Array.isArray(kept) ? kept.filter((key) => /^[0-9a-f]{64}$/.test(key)) : [];
    } catch {
      // Storage blocked: the payment is shown to its tab until it closes, not after.
      return [];
    }
  };

  return {
    async startSession(target) {
      keysAt = `paydrop:keys:${base}:${'order' in target ? target.order : `link:${target.link}`}`;
      const keys = keysOf();
      return parseSession(
        await call('POST', COMPANION_PATHS.session, undefined, {
          ...target,
          ...(keys.length ? { paymentKeys: keys } : {}),
        }),
      );
    },
    async initiate(token, request) {
      const answer = await call('POST', COMPANION_PATHS.initiate, token, request);
      const key = (answer as { paymentKey?: unknown }).paymentKey;
      if (typeof key === 'string' && /^[0-9a-f]{64}$/.test(key)) {
        try {
          const keys = [key, ...keysOf().filter((kept) => kept !== key)].slice(0, 10);
          localStorage.setItem(keysAt, JSON.stringify(keys));
        } catch {
          // As above: without storage, only this tab can pick the payment up.
        }
      }
      return parseInitiation(answer);
    },
    origin,
    post: (path, token) => call('POST', path, token),
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
