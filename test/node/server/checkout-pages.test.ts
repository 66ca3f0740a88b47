// The pages the companion serves from the merchant's own origin: the bank's return page, the
// card challenge's host and frame, and their scripts. Strict CSP, no inline script, every string
// as text, and the challenge markup only inside a sandboxed frame.
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { companionPerTest, control, recorder } from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_pages_${crypto.randomUUID().replaceAll('-', '')}`;
const SHOP = 'https://shop.example';

const seen: string[] = [];
const start = companionPerTest(KEY, seen);
// The companion's answers are recorded by their texts only, not their headers.
const { call, begin } = recorder(seen, { headers: false });

async function get(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  const text = await response.text();
  seen.push(text, JSON.stringify([...response.headers]));
  return { status: response.status, headers: response.headers, text };
}

/** The CSP of a page that runs only its own files. */
function expectStrictPage(page: { headers: Headers; text: string }): string {
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("base-uri 'none'");
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('cache-control')).toBe('no-store');
  // Nothing inline: every script is a file, no style attributes, no event handlers. Quoted
  // attribute values are blanked first: what is inside them is text.
  const markup = page.text.replace(/"[^"]*"/g, '""');
  expect(markup).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  expect(markup).not.toMatch(/<[a-z][^>]*\sstyle=/i);
  expect(markup).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
  return csp;
}

describe('the bank’s return page', () => {
  it('serves HTML with a strict CSP that loads assets/return.js', async () => {
    const on = await start();
    const { reference } = await begin(on, 'order-gbp:g1', 'PayByAccount');
    const page = await get(`${on.url}/return?reference=${reference}`);
    expect(page.status).toBe(200);
    const csp = expectStrictPage(page);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.text).toContain(`<script src="${on.url}/assets/return.js"></script>`);
    expect(page.text).toContain(`data-reference="${reference}"`);
  });

  it('shows a returnTo full of markup as text, never as markup', async () => {
    const on = await start();
    const returnTo = `${on.origin}/shop?next="><script>alert(1)</script><a onclick='x'`;
    const { reference } = await begin(on, 'order-gbp:g2', 'PayByAccount', { returnTo });
    const page = await get(`${on.url}/return?reference=${reference}`);
    expect(page.status).toBe(200);
    expectStrictPage(page);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('answers a malformed reference with a 404 page that does not echo it', async () => {
    const on = await start();
    for (const query of [
      '',
      '?reference=',
      '?reference=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      `?reference=${'A'.repeat(129)}`,
      '?reference=PAY_1%20OR%201%3D1',
      '?reference=..%2F..%2F__sandbox%2Freset',
    ]) {
      const page = await get(`${on.url}/return${query}`);
      expect(page.status, query).toBe(404);
      expectStrictPage(page);
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('__sandbox');
    }
    expect(on.providerCalls.filter((entry) => entry.path.includes('/status/'))).toEqual([]);
  });

  it('costs no provider call for a reference this checkout never made', async () => {
    const on = await start();
    const from = on.providerCalls.length;
    const page = await get(`${on.url}/return?reference=PAY_SOMEONE_ELSES`);
    expect(page.status).toBe(200);
    await on.handler.idle();
    expect(on.providerCalls.slice(from)).toEqual([]);
  });

  it('confirms the payment itself, so the outcome is reported even if no webhook ever comes', async () => {
    const on = await start();
    await control(on, 'POST', '/__sandbox/config', { webhookUrl: null });
    const { token, reference } = await begin(on, 'order-gbp:g3', 'PayByAccount');
    await control(on, 'POST', `/__sandbox/payments/${reference}/bank`, { approve: true });
    await control(on, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    const page = await get(`${on.url}/return?reference=${reference}`);
    expect(page.status).toBe(200);
    await expect.poll(() => on.paymentOutcomes.length).toBe(1);
    expect(on.paymentOutcomes[0]).toMatchObject({
      reference,
      status: 'SUCCESSFUL',
      orderId: 'order-gbp:g3',
    });
    expect((await call(on, 'GET', '/status', { token })).body.status).toBe('SUCCESSFUL');
  });
});

describe('assets', () => {
  it('serves return.js and challenge.js as JavaScript that parses, and page.css as CSS', async () => {
    const on = await start();
    for (const name of ['return.js', 'challenge.js']) {
      const asset = await get(`${on.url}/assets/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(() => new Script(asset.text, { filename: name })).not.toThrow();
      expect(asset.text).not.toMatch(/\beval\(|new Function|innerHTML/);
    }
    const css = await get(`${on.url}/assets/page.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('serves nothing else under assets', async () => {
    const on = await start();
    for (const path of [
      '/assets/nope.js',
      '/assets/',
      '/assets/..%2fhandler.ts',
      '/assets/return.js/',
      '/assets/RETURN.JS',
    ]) {
      const asset = await get(`${on.url}${path}`);
      expect(asset.status, path).toBe(404);
    }
  });

  it('does not serve the names every object inherits as assets', async () => {
    const on = await start();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const asset = await get(`${on.url}/assets/${name}`);
      expect(asset.status, name).toBe(404);
      expect(asset.headers.get('cache-control'), name).not.toContain('public');
    }
  });
});

describe('the card challenge', () => {
  it('hosts the issuer in a sandboxed frame under a strict CSP, framed only by the shop', async () => {
    const on = await start({ allowedOrigins: [SHOP] });
    const { token, reference } = await begin(
      on,
      'order-ngn:g4',
      'Card',
      { card: testCard('4000000000003220') },
      { origin: SHOP },
    );
    const auth = await call(on, 'POST', '/authenticate', { token, headers: { origin: SHOP } });
    expect(auth.body.authenticationRequired).toBe(true);

    const page = await get(auth.body.challengeUrl);
    expect(page.status).toBe(200);
    const csp = expectStrictPage(page);
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toMatch(new RegExp(`frame-ancestors 'self' ${SHOP}(;|$)`));
    expect(page.text).toContain(`<script src="${on.url}/assets/challenge.js"></script>`);
    const frames = page.text.match(/<iframe[^>]*>/g) ?? [];
    expect(frames).toHaveLength(1);
    const frame = frames[0] ?? '';
    expect(frame).toContain('sandbox="allow-scripts allow-forms"');
    expect(frame).not.toMatch(/allow-same-origin|allow-top-navigation|allow-popups/);
    expect(frame).toContain(`data-parent-origin="${SHOP}"`);
    expect(frame).toContain(`data-reference="${reference}"`);
    // The issuer's markup is not in the host page itself.
    expect(page.text).not.toContain('<form');

    const src = (frame.match(/src="([^"]+)"/)?.[1] ?? '').replaceAll('&amp;', '&');
    expect(src.startsWith(`${on.url}/challenge/frame?token=`)).toBe(true);
    const issuer = await get(src);
    expect(issuer.status).toBe(200);
    const frameCsp = issuer.headers.get('content-security-policy') ?? '';
    expect(frameCsp).toContain('sandbox allow-scripts allow-forms');
    expect(frameCsp).not.toContain('allow-same-origin');
    expect(issuer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(issuer.text).toContain(`${on.sandbox.url}/pages/challenge/${reference}`);

    // The markup can read its own URL: that URL holds a ticket for the markup, not the token.
    const ticket = new URL(src).searchParams.get('token') ?? '';
    expect(ticket).not.toBe(token);
    for (const [method, path] of [
      ['GET', '/status'],
      ['POST', '/finalize'],
      ['POST', '/authenticate'],
    ] as const) {
      const refused = await call(on, method, path, { token: ticket, headers: { origin: SHOP } });
      expect(refused.status, path).toBe(401);
    }
    expect((await get(`${on.url}/challenge?token=${encodeURIComponent(ticket)}`)).status).toBe(401);
    // And the checkout token does not open the frame: only the ticket does.
    expect((await get(`${on.url}/challenge/frame?token=${encodeURIComponent(token)}`)).status).toBe(
      401,
    );
  });

  it('without an Origin at session time, only the companion’s own origin may frame it', async () => {
    const on = await start();
    const { token } = await begin(on, 'order-ngn:g5', 'Card', {
      card: testCard('4000000000003220'),
    });
    const auth = await call(on, 'POST', '/authenticate', { token });
    const page = await get(auth.body.challengeUrl);
    expect(page.headers.get('content-security-policy')).toMatch(
      new RegExp(`frame-ancestors 'self' ${on.origin}(;|$)`),
    );
  });

  it('answers 404 when no challenge is waiting', async () => {
    const on = await start();
    const { token } = await begin(on, 'order-ngn:g6', 'Card', {
      card: testCard('4242424242424242'),
    });
    const auth = await call(on, 'POST', '/authenticate', { token });
    expect(auth.body).toEqual({ authenticationRequired: false, challengeUrl: null });
    const page = await get(`${on.url}/challenge?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(404);
    expectStrictPage(page);
  });

  it('refuses the challenge pages without a valid token', async () => {
    const on = await start();
    for (const path of ['/challenge', '/challenge/frame', '/challenge?token=abc']) {
      const page = await get(`${on.url}${path}`);
      expect(page.status, path).toBe(401);
    }
  });
});
