/**
 * The demo's back office (issue 14): the page at `/back-office`, its scripts from
 * dist/back-office (`npm run build:widget` builds them), the payouts handler at
 * `/api/back-office`, and the few sandbox controls the page needs (balances, reverse a payout,
 * move the clock) with the key added here so it never reaches the page.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type CheckoutStore, createPayoutsHandler, type PayoutOutcome } from '../src/server';
import { SHOP_CSP as CSP, TYPES } from './policy';

export interface DemoBackOfficeOptions {
  readonly secretKey: string;
  readonly baseUrl: string;
  /** The embedded sandbox, when the demo runs on one: its controls back the page's buttons. */
  readonly sandbox?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * The checkout's store: shared, so the back office sees the links the checkout was paid through
   * and either handler may confirm a payout (both publish to the same page).
   */
  readonly store?: CheckoutStore | undefined;
}

export function createDemoBackOffice(options: DemoBackOfficeOptions) {
  const payouts = createPayoutsHandler({
    secretKey: options.secretKey,
    baseUrl: options.baseUrl,
    store: options.store,
    // The demo admits its own same-origin page without a login. A real merchant checks their
    // staff login here, e.g. `authorize: async (request) => (await staffSession(request))?.canPay === true`.
    authorize: (request) => {
      const site = request.headers.get('sec-fetch-site');
      const origin = request.headers.get('origin');
      return (
        (site === null || site === 'same-origin') &&
        (origin === null || origin === new URL(request.url).origin)
      );
    },
  });

  async function file(name: string): Promise<Response> {
    try {
      const body = await readFile(new URL(`../${name}`, import.meta.url));
      const type = TYPES[extname(name)] ?? 'text/plain; charset=utf-8';
      return new Response(body, {
        headers: {
          'content-type': type,
          'cache-control': 'no-cache',
          ...(type.startsWith('text/html') ? { 'content-security-policy': CSP } : {}),
        },
      });
    } catch {
      const hint = name.startsWith('dist/') ? ' Run `npm run build:widget` (npm start does).' : '';
      return new Response(`Missing ${name}.${hint}`, { status: 500 });
    }
  }

  async function control(request: Request, path: string): Promise<Response> {
    if (!options.sandbox)
      return Response.json(
        { error: 'The demo runs on a real provider: no sandbox controls.' },
        { status: 404 },
      );
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== new URL(request.url).origin)
      return Response.json({ error: 'Only the demo pages may do this.' }, { status: 403 });
    const forward = (method: string, target: string, body?: unknown) =>
      (options.sandbox as (request: Request) => Promise<Response>)(
        new Request(`${new URL(request.url).origin}/sandbox/__sandbox${target}`, {
          method,
          headers: {
            'X-Api': options.secretKey,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const reverse = /^\/payouts\/([\w.:-]{1,128})\/reverse$/.exec(path);
    if (request.method === 'GET' && path === '/wallets') return forward('GET', '/wallets');
    if (request.method === 'POST' && reverse)
      return forward('POST', `/payouts/${reverse[1]}/reverse`);
    if (request.method === 'POST' && path === '/settle')
      return forward('POST', '/clock', { advanceSeconds: 2 });
    return Response.json({ error: 'No such control.' }, { status: 404 });
  }

  return {
    handles: (pathname: string) =>
      pathname === '/back-office' ||
      pathname.startsWith('/back-office/') ||
      pathname === '/api/back-office' ||
      pathname.startsWith('/api/back-office/') ||
      pathname.startsWith('/demo/back-office'),
    async handle(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === '/api/back-office' || pathname.startsWith('/api/back-office/'))
        return payouts(request);
      if (pathname.startsWith('/demo/back-office/sandbox/'))
        return control(request, pathname.slice('/demo/back-office/sandbox'.length));
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return new Response('Not found', { status: 404 });
      if (pathname === '/back-office') return file('demo/back-office.html');
      if (pathname === '/demo/back-office.css') return file('demo/back-office.css');
      const built = /^\/back-office\/([\w-]+\.(js|css)(\.map)?)$/.exec(pathname)?.[1];
      if (built) return file(`dist/back-office/${built}`);
      return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    },
    /** For the checkout's `onPayoutOutcome`: the sandbox's one webhook URL is the checkout's. */
    publishPayoutOutcome: (outcome: PayoutOutcome) => payouts.publishPayoutOutcome(outcome),
    close: () => payouts.close(),
  };
}
