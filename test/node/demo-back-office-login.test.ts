/**
 * The demo back office's staff login (issue 20, item 5), through the demo's own back-office
 * server in front of a real sandbox: no payout, list or link without a session; the cookie's
 * attributes; sessions that end; sign-in attempts limited per process, on a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../demo/back-office-login';
import { createDemoBackOffice } from '../../demo/back-office-server';
import { listPayouts, type Sandbox, startSandbox } from '../helpers/sandbox';

const PASSWORD = 'correct horse battery staple';
const SITE = 'http://127.0.0.1:3000';

let sandbox: Sandbox;
let office: ReturnType<typeof createDemoBackOffice>;
let clock: number;

beforeEach(async () => {
  sandbox = await startSandbox();
  clock = Date.parse('2026-11-25T09:00:00Z');
  office = createDemoBackOffice({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    password: PASSWORD,
    publicUrl: SITE,
    now: () => clock,
  });
});

afterEach(async () => {
  office.close();
  await sandbox.close();
});

function signIn(password: string, headers: Record<string, string> = {}) {
  return office.handle(
    new Request(`${SITE}/back-office/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, ...headers },
      body: new URLSearchParams({ password }).toString(),
    }),
  );
}

/** The cookie pair to send back, from a sign-in's Set-Cookie. */
function sessionOf(answer: Response): string {
  const cookie = answer.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] ?? '';
}

function sendPayout(cookie?: string) {
  return office.handle(
    new Request(`${SITE}/api/back-office/payouts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: SITE,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({
        tenantReference: `payout-${crypto.randomUUID()}`,
        amount: { amountMinor: 150_000, currency: 'NGN' },
        narration: 'Supplier invoice 88',
        paymentMethodType: 'BankCode',
        paymentMethodValue: '058',
        beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
      }),
    }),
  );
}

function get(path: string, cookie?: string) {
  return office.handle(new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} }));
}

describe('the demo back office login', () => {
  it('without a session: no payout (even from curl, no Origin), no list, no links, no requirements, no controls; the page is the login', async () => {
    expect((await sendPayout()).status).toBe(401);
    const curl = await office.handle(
      new Request(`${SITE}/api/back-office/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(curl.status).toBe(401);
    for (const path of [
      '/api/back-office/payouts',
      '/api/back-office/links',
      '/api/back-office/requirements?currency=NGN',
      '/api/back-office/transactions',
      '/demo/back-office/sandbox/wallets',
    ])
      expect((await get(path)).status, path).toBe(401);
    const page = await get('/back-office');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/back-office/login');
    const login = await get('/back-office/login');
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('<form class="login-card" method="post" action="/back-office/login">');
    expect(html).not.toMatch(/<script|\sstyle=|\son\w+=/i);
    expect(login.headers.get('content-security-policy')).toMatch(
      /script-src 'self'.*frame-ancestors 'none'/,
    );
    expect(await listPayouts(sandbox)).toEqual([]);
  });

  it('a wrong password gets no session and says so; the right one a session that sends payouts', async () => {
    const wrong = await signIn('correct horse battery stapler');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toContain('That password is not right.');
    const forged = `${SESSION_COOKIE}=${Buffer.alloc(32, 7).toString('base64url')}`;
    expect((await sendPayout(forged)).status).toBe(401);

    const right = await signIn(PASSWORD);
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/back-office');
    const cookie = sessionOf(right);
    expect((await sendPayout(cookie)).status).toBe(202);
    expect((await get('/api/back-office/payouts', cookie)).status).toBe(200);
    expect((await get('/back-office', cookie)).status).toBe(200);
    expect(await listPayouts(sandbox)).toHaveLength(1);
  });

  it('sets an HttpOnly, SameSite=Strict, Path=/ cookie of a random 256-bit id, Secure over HTTPS only', async () => {
    const plain = (await signIn(PASSWORD)).headers.get('set-cookie') ?? '';
    const attributes = plain.split('; ');
    expect(attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=28800']),
    );
    expect(attributes).not.toContain('Secure');
    const id = (attributes[0] ?? '').slice(SESSION_COOKIE.length + 1);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    const behindTls = (await signIn(PASSWORD, { 'x-forwarded-proto': 'https' })).headers.get(
      'set-cookie',
    );
    expect(behindTls?.split('; ')).toContain('Secure');
    expect(sessionOf(new Response(null, { headers: { 'set-cookie': behindTls ?? '' } }))).not.toBe(
      attributes[0],
    );
  });

  it('a session ends after 8 hours, and at sign-out', async () => {
    const cookie = sessionOf(await signIn(PASSWORD));
    clock += 8 * 3600_000 - 1000;
    expect((await get('/api/back-office/payouts', cookie)).status).toBe(200);
    clock += 1000;
    expect((await sendPayout(cookie)).status).toBe(401);
    expect((await get('/back-office', cookie)).status).toBe(303);

    const next = sessionOf(await signIn(PASSWORD));
    const out = await office.handle(
      new Request(`${SITE}/back-office/logout`, {
        method: 'POST',
        headers: { origin: SITE, cookie: next },
      }),
    );
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^paydrop_staff=; HttpOnly; .*Max-Age=0/);
    expect((await sendPayout(next)).status).toBe(401);
    expect(await listPayouts(sandbox)).toEqual([]);
  });

  it('allows 5 sign-in attempts a minute: the 6th is 429 with Retry-After, even with the right password', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(`guess-${attempt}-wrong`)).status).toBe(401);
      clock += 1000;
    }
    const limited = await signIn(PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('55');
    expect(limited.headers.get('set-cookie')).toBeNull();
    expect(await limited.text()).toContain('Too many sign-in attempts');
    clock += 55_000;
    const later = await signIn(PASSWORD);
    expect(later.status).toBe(303);
    expect((await sendPayout(sessionOf(later))).status).toBe(202);
  });

  it('refuses a sign-in posted from another site or a rebinding host, and bad forms, with nothing signed in', async () => {
    const foreign = await signIn(PASSWORD, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const rebound = await office.handle(
      new Request('http://rebind.example:3000/back-office/login', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://rebind.example:3000',
        },
        body: `password=${encodeURIComponent(PASSWORD)}`,
      }),
    );
    expect(rebound.status).toBe(403);
    const json = await office.handle(
      new Request(`${SITE}/back-office/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SITE },
        body: JSON.stringify({ password: PASSWORD }),
      }),
    );
    expect(json.status).toBe(415);
    expect((await signIn('')).status).toBe(400);
  });
});
