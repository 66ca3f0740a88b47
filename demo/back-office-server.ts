/**
 * The demo's back office (issue 14): the page at `/back-office`, its scripts from
 * dist/back-office (`npm run build:widget` builds them), the payouts handler at
 * `/api/back-office`, and the few sandbox controls the page needs (balances, reverse a payout,
 * move the clock) with the key added here so it never reaches the page. Everything but the
 * login page and the static files needs a staff session (issue 20, item 5): back-office-login.ts.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type CheckoutStore, createPayoutsHandler, type PayoutOutcome } from '../src/server';
import { isProduction } from '../src/server/payouts/options';
import { createServedHosts } from '../src/server/payouts/served-hosts';
import { createStaffLogin, LOGIN_PATH, LOGOUT_PATH } from './back-office-login';
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
  /** The staff password (BACK_OFFICE_PASSWORD, or one npm start made up and printed). */
  readonly password: string;
  /** Where the demo listens, e.g. http://127.0.0.1:3000: the host the back office serves. */
  readonly publicUrl: string;
  readonly now?: (() => number) | undefined;
}

export function createDemoBackOffice(options: DemoBackOfficeOptions) {
  const publicUrl = `${options.publicUrl.replace(/\/+$/, '')}/api/back-office`;
  // The payouts handler's own rule, for the login's forms and the sandbox controls below.
  const hosts = createServedHosts({ publicUrl, development: !isProduction() });
  const isOwnPage = (request: Request) => {
    const origin = request.headers.get('origin');
    return (
      hosts.refusal(request) === undefined &&
      (origin === null || hosts.isOwnOrigin(origin, request))
    );
  };
  const login = createStaffLogin({ password: options.password, isOwnPage, now: options.now });
  const payouts = createPayoutsHandler({
    secretKey: options.secretKey,
    baseUrl: options.baseUrl,
    store: options.store,
    publicUrl,
    // Only a staff session: not "a same-origin page", which curl (no Origin) and a DNS-rebinding
    // page (its own origin) both were. A merchant puts their own staff login here the same way.
    authorize: (request) => login.signedIn(request),
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
    if (!isOwnPage(request))
      return Response.json({ error: 'Only the demo pages may do this.' }, { status: 403 });
    // Reversing a payout and reading the balances are the back office's too: staff only.
    if (!login.signedIn(request))
      return Response.json({ error: 'Sign in to use the back office.' }, { status: 401 });
    if (!options.sandbox)
      return Response.json(
        { error: 'The demo runs on a real provider: no sandbox controls.' },
        { status: 404 },
      );
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
      if (pathname === LOGIN_PATH || pathname === LOGOUT_PATH) {
        const answer = await login.handle(request);
        // The login page is the demo's own HTML: the same strict policy, and no frame may hold it.
        answer.headers.set('content-security-policy', `${CSP}; frame-ancestors 'none'`);
        return answer;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return new Response('Not found', { status: 404 });
      if (pathname === '/back-office')
        return login.signedIn(request) ? file('demo/back-office.html') : login.toLogin();
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
