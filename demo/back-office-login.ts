/**
 * The demo back office's staff login (issue 20, item 5): one password (BACK_OFFICE_PASSWORD, or
 * one `npm start` makes up and prints), a login page that is a plain form POST under the demo's
 * strict CSP, and server-side sessions behind an HttpOnly cookie. It is what a merchant's own
 * staff login would give `authorize`; a real one would have users, roles and a second factor.
 *
 * CSRF: the session cookie is `SameSite=Strict`, so no request started by another site carries
 * it, and the payouts handler (and this login's own POSTs) also refuse any Origin that is not
 * the back office's own page on a host it serves. Either alone stops a forged payout; together
 * they also hold for an old browser that ignores SameSite, or a sibling site on the same domain.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie's name; HttpOnly, so the page's scripts (or an injected one) never read it. */
export const SESSION_COOKIE = 'paydrop_staff';
export const LOGIN_PATH = '/back-office/login';
export const LOGOUT_PATH = '/back-office/logout';

export interface StaffLoginOptions {
  /** The one staff password. */
  readonly password: string;
  /** Whether a POST's Origin is the back office's own page (the payouts handler's host rule). */
  readonly isOwnPage: (request: Request) => boolean;
  /** How long a session lasts from sign-in. Default 8 hours: a working day. */
  readonly sessionMs?: number;
  /** Sign-in attempts per minute for the whole process, right or wrong. Default 5. */
  readonly attemptsPerMinute?: number;
  readonly now?: (() => number) | undefined;
  /** 256 random bits, as base64url. */
  readonly sessionId?: () => string;
}

export interface StaffLogin {
  /** For the payouts handler's `authorize`: a live session's cookie, and nothing else. */
  signedIn(request: Request): boolean;
  /** The login page (GET), a sign-in (POST), or a sign-out (POST to the logout path). */
  handle(request: Request): Promise<Response>;
  /** Where a page without a session goes. */
  toLogin(): Response;
}

const MINUTE_MS = 60_000;
const MAX_FORM_BYTES = 4096;

/** A password of 128 random bits, for a demo started without BACK_OFFICE_PASSWORD. */
export function generatePassword(): string {
  return randomBytes(16).toString('base64url');
}

/** Same length digests, so timingSafeEqual never throws and no timing tells the length either. */
function samePassword(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** Over HTTPS: a TLS socket (an https: request URL) or a proxy that says so. */
function isHttps(request: Request): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (proto === 'https') return true;
  return /(?:^|[;,\s])proto\s*=\s*"?https"?(?:[;,\s]|$)/i.test(
    request.headers.get('forwarded') ?? '',
  );
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}

/** The login page: a form POST, no script at all, styled by the demo's own stylesheets. */
export function loginPage(message = ''): string {
  const alert = message
    ? `<p class="login-error" role="alert" id="login-error">${escapeHtml(message)}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>Sign in — Indigo &amp; Oat back office (paydrop demo)</title>
    <link rel="stylesheet" href="/demo/demo.css" />
    <link rel="stylesheet" href="/demo/back-office.css" />
  </head>
  <body class="login-page">
    <header class="shop-header">
      <strong>Indigo &amp; Oat — back office</strong>
      <nav><a href="/">Shop</a></nav>
    </header>
    <main class="login">
      <form class="login-card" method="post" action="${LOGIN_PATH}">
        <h1>Staff sign-in</h1>
        <p class="hint">Payouts move the shop's money, so the back office is for staff only.</p>
        ${alert}
        <input type="text" name="username" autocomplete="username" value="staff" hidden />
        <div class="pd-field">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required autofocus${message ? ' aria-describedby="login-error" aria-invalid="true"' : ''} />
        </div>
        <button type="submit">Sign in</button>
        <p class="hint">The demo's password is printed by <code>npm start</code> in its console, or set it with <code>BACK_OFFICE_PASSWORD</code>.</p>
      </form>
    </main>
  </body>
</html>
`;
}

export function createStaffLogin(options: StaffLoginOptions): StaffLogin {
  if (typeof options.password !== 'string' || options.password.length < 8)
    throw new TypeError('The back-office password must be at least 8 characters.');
  const now = options.now ?? Date.now;
  const sessionMs = options.sessionMs ?? 8 * 3600_000;
  const attemptsPerMinute = options.attemptsPerMinute ?? 5;
  const newSessionId = options.sessionId ?? (() => randomBytes(32).toString('base64url'));
  /** Session id → when it ends. Kept here, server-side: the cookie carries nothing but the id. */
  const sessions = new Map<string, number>();
  /** When each sign-in attempt of the last minute came. */
  let attempts: number[] = [];

  function liveSession(request: Request): string | undefined {
    const id = cookieValue(request, SESSION_COOKIE);
    if (!id) return undefined;
    const endsAt = sessions.get(id);
    if (endsAt === undefined) return undefined;
    if (endsAt <= now()) {
      sessions.delete(id);
      return undefined;
    }
    return id;
  }

  function cookie(request: Request, value: string, maxAgeSeconds: number): string {
    return [
      `${SESSION_COOKIE}=${value}`,
      'HttpOnly',
      'SameSite=Strict',
      'Path=/',
      `Max-Age=${maxAgeSeconds}`,
      ...(isHttps(request) ? ['Secure'] : []),
    ].join('; ');
  }

  function page(message: string, status: number, headers: Record<string, string> = {}): Response {
    return new Response(loginPage(message), {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      },
    });
  }

  const redirect = (to: string, headers: Record<string, string> = {}) =>
    new Response(null, {
      status: 303,
      headers: { location: to, 'cache-control': 'no-store', ...headers },
    });

  async function signIn(request: Request): Promise<Response> {
    const at = now();
    attempts = attempts.filter((time) => time > at - MINUTE_MS);
    if (attempts.length >= attemptsPerMinute) {
      const retryAfter = Math.max(1, Math.ceil(((attempts[0] ?? at) + MINUTE_MS - at) / 1000));
      return page(`Too many sign-in attempts. Try again in ${retryAfter} seconds.`, 429, {
        'retry-after': String(retryAfter),
      });
    }
    attempts.push(at);
    if (
      !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(
        request.headers.get('content-type') ?? '',
      )
    )
      return page('Sign in with the form.', 415);
    if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES)
      return page('That password is far too long.', 413);
    const form = new URLSearchParams((await request.text()).slice(0, MAX_FORM_BYTES));
    const password = form.get('password') ?? '';
    if (password === '') return page('Enter the password.', 400);
    if (!samePassword(password, options.password)) return page('That password is not right.', 401);
    const id = newSessionId();
    sessions.set(id, at + sessionMs);
    for (const [known, endsAt] of sessions) if (endsAt <= at) sessions.delete(known);
    return redirect('/back-office', {
      'set-cookie': cookie(request, id, Math.floor(sessionMs / 1000)),
    });
  }

  return {
    signedIn: (request) => liveSession(request) !== undefined,
    toLogin: () => redirect(LOGIN_PATH),
    async handle(request) {
      const { pathname } = new URL(request.url);
      if (request.method === 'GET' && pathname === LOGIN_PATH)
        return liveSession(request) ? redirect('/back-office') : page('', 200);
      if (request.method !== 'POST' || (pathname !== LOGIN_PATH && pathname !== LOGOUT_PATH))
        return new Response('Not found', {
          status: 404,
          headers: { 'content-type': 'text/plain' },
        });
      // A form posted from another site (login CSRF, a forced sign-out) is refused.
      if (!options.isOwnPage(request)) return page('Sign in from the back office’s own page.', 403);
      if (pathname === LOGIN_PATH) return signIn(request);
      const id = liveSession(request);
      if (id) sessions.delete(id);
      return redirect(LOGIN_PATH, { 'set-cookie': cookie(request, '', 0) });
    },
  };
}
