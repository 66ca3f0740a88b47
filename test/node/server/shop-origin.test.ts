// The shop's own origin however production reaches the companion (issue 21, item 1): the
// Forwarded header parsed by RFC 7239 (and nothing believed of a broken one), X-Forwarded-Proto
// and -Host, Host with a route handler's localhost URL; every other site still refused, and
// every refusal logged with the origin refused, the one expected and the option that allows it.
// The handler runs in memory in front of the real sandbox handler.
import { describe, expect, it } from 'vitest';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import { createCheckoutHandler } from '../../../src/server';
import { parseForwarded, shopOriginsOf } from '../../../src/server/http/shop-origin';

describe('parseForwarded (RFC 7239)', () => {
  it('reads each hop, the client’s first, with quoted values holding commas, semicolons and escapes', () => {
    expect(
      parseForwarded(
        'for=192.0.2.60;proto=https;host="shop.example:8443";by=203.0.113.43, for="[2001:db8:cafe::17]:4711"',
      ),
    ).toEqual([
      { for: '192.0.2.60', proto: 'https', host: 'shop.example:8443', by: '203.0.113.43' },
      { for: '[2001:db8:cafe::17]:4711' },
    ]);
    expect(parseForwarded('Host="a,b;c=d";PROTO=http')).toEqual([
      { host: 'a,b;c=d', proto: 'http' },
    ]);
    expect(parseForwarded('for="_hidden\\"x"')).toEqual([{ for: '_hidden"x' }]);
    // Empty list elements and pairs are skipped (RFC 7230 §7); bare host:port as proxies send it.
    expect(parseForwarded(' , for=a ;; host=shop.example:3000 ,, ')).toEqual([
      { for: 'a', host: 'shop.example:3000' },
    ]);
    expect(parseForwarded('')).toEqual([]);
  });

  it('believes nothing of a malformed header', () => {
    for (const bad of [
      'for', // a pair without =
      'for =a', // space before =
      'for= a', // space after =
      'for=', // an empty bare value
      'host="shop.example', // unterminated quote
      'host="shop.example\\', // an escape at the end
      'host=shop.example/path', // / is no token character
      'host=a b', // two values
      'host="a"x', // text after a quoted value
      'proto=https;proto=http', // a parameter twice in one element
      'fo r=a', // a name that is not a token
      'host=a,proto', // a broken second element
      'host=a"b"', // a quote inside a bare value
    ]) {
      expect(parseForwarded(bad), bad).toBeUndefined();
    }
  });
});

function request(url: string, headers: Record<string, string>) {
  return new Request(url, { headers });
}

describe('shopOriginsOf', () => {
  it('takes the first hop of Forwarded, then X-Forwarded-Host/-Proto, then Host, then the URL', () => {
    const behindProxy = shopOriginsOf(
      request('http://10.0.0.5:3000/api/checkout/session', {
        host: '10.0.0.5:3000',
        forwarded: 'for=192.0.2.1;host=shop.example;proto=https, for=10.0.0.1;host=lb;proto=http',
      }),
    );
    expect(behindProxy.expected).toBe('https://shop.example');
    expect([...behindProxy.accepted]).toEqual(
      expect.arrayContaining(['https://shop.example', 'http://10.0.0.5:3000']),
    );
    expect(behindProxy.accepted.has('https://lb')).toBe(false);

    const xForwarded = shopOriginsOf(
      request('http://app:3000/x', {
        host: 'app:3000',
        'x-forwarded-host': 'shop.example, lb.internal',
        'x-forwarded-proto': 'https,http',
      }),
    );
    expect(xForwarded.expected).toBe('https://shop.example');
    expect(xForwarded.accepted.has('https://lb.internal')).toBe(false);

    // A Next.js route handler: its URL says localhost; the Host header says the shop.
    const route = shopOriginsOf(
      request('http://localhost:3000/api/checkout/session', { host: 'shop.example:8080' }),
    );
    expect(route.expected).toBe('http://shop.example:8080');
    expect(route.accepted.has('http://shop.example:8080')).toBe(true);

    // Default ports are the browser's: https://shop.example:443 is https://shop.example.
    expect(
      shopOriginsOf(
        request('http://app/x', { host: 'shop.example:443', 'x-forwarded-proto': 'https' }),
      ).expected,
    ).toBe('https://shop.example');

    // The URL's own scheme (https on a TLS socket) when no proxy names one.
    expect(shopOriginsOf(request('https://shop.example/x', {})).expected).toBe(
      'https://shop.example',
    );
  });

  it('ignores a broken Forwarded header, hosts with more than a host and port, and schemes other than http(s)', () => {
    const origins = shopOriginsOf(
      request('http://127.0.0.1:3000/x', {
        host: '127.0.0.1:3000',
        forwarded: 'host="evil.example', // unterminated: ignored whole
        'x-forwarded-host': 'user@evil.example',
        'x-forwarded-proto': 'javascript',
      }),
    );
    expect(origins.expected).toBe('http://127.0.0.1:3000');
    expect([...origins.accepted]).toEqual(['http://127.0.0.1:3000']);
    for (const host of ['evil.example/path', 'evil.example?x', 'a b', 'evil.example:99999']) {
      expect(
        shopOriginsOf(request('http://127.0.0.1/x', { 'x-forwarded-host': host })).accepted.size,
        host,
      ).toBe(1);
    }
  });
});

function checkout(
  extra: Partial<Parameters<typeof createCheckoutHandler>[0]> = {},
  warnings: Array<{ message: string; details: Record<string, unknown> | undefined }> = [],
) {
  const sandbox = createSandboxHandler({ secretKey: SANDBOX_TEST_KEY, basePath: '/sandbox' });
  const handler = createCheckoutHandler({
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://sandbox.test/sandbox',
    resolveOrder: (id) =>
      id.startsWith('order_')
        ? { amountMinor: 2_500_050, currency: 'NGN', description: `Order ${id}` }
        : null,
    logger: { warn: (message, details) => warnings.push({ message, details }), error: () => {} },
    fetch: (input, init) => sandbox(new Request(input, init)),
    ...extra,
  });
  return { handler, warnings };
}

function session(url: string, headers: Record<string, string>) {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ order: 'order_1042' }),
  });
}

describe('the checkout takes the shop’s own pages however it is reached', () => {
  const INTERNAL = 'http://10.0.0.5:3000/api/checkout/session';

  it.each([
    ['a Forwarded header', { host: '10.0.0.5:3000', forwarded: 'proto=https;host=shop.example' }],
    [
      'X-Forwarded-Host and -Proto (Host rewritten)',
      {
        host: '10.0.0.5:3000',
        'x-forwarded-host': 'shop.example',
        'x-forwarded-proto': 'https',
      },
    ],
    ['Host kept, with X-Forwarded-Proto', { host: 'shop.example', 'x-forwarded-proto': 'https' }],
  ])('through a TLS proxy sending %s', async (_how, headers) => {
    const { handler, warnings } = checkout();
    const answer = await handler(session(INTERNAL, { ...headers, origin: 'https://shop.example' }));
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(warnings).toEqual([]);
    handler.close();
  });

  it('in a route handler whose request.url says localhost', async () => {
    const { handler } = checkout();
    const answer = await handler(
      session('http://localhost:3000/api/checkout/session', {
        host: 'shop.example',
        'x-forwarded-proto': 'https',
        origin: 'https://shop.example',
      }),
    );
    expect(answer.status).toBe(200);
    handler.close();
  });

  it('hands out URLs on the derived origin when publicUrl is not set: the card frame’s', async () => {
    const { handler } = checkout({ cardEntry: 'direct' });
    const answer = await handler(
      new Request('http://10.0.0.5:3000/api/checkout/card-frame', {
        headers: { 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' },
      }),
    );
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('script-src https://shop.example');
    expect(csp).toMatch(/frame-ancestors [^;]*https:\/\/shop\.example/);
    expect(await answer.text()).toContain('https://shop.example/api/checkout/assets/card-frame.js');
    handler.close();
  });

  it('still refuses another site, and logs its origin, the origin expected and the option that would allow it', async () => {
    const { handler, warnings } = checkout();
    const refused = await handler(
      session(INTERNAL, {
        host: '10.0.0.5:3000',
        'x-forwarded-host': 'shop.example',
        'x-forwarded-proto': 'https',
        origin: 'https://evil.example',
      }),
    );
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('cross_site_request');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('cross_site_request');
    expect(warnings[0]?.details).toEqual({
      origin: 'https://evil.example',
      expected: 'https://shop.example',
      allow: expect.stringMatching(
        /publicUrl: 'https:\/\/evil\.example\/api\/checkout'.*allowedOrigins: \['https:\/\/evil\.example'\]/,
      ),
    });

    // The shop on https behind a proxy that says nothing of the scheme: refused, and the log says
    // what to set rather than nothing at all.
    warnings.length = 0;
    const unsaid = await handler(
      session('http://shop.example/api/checkout/session', {
        host: 'shop.example',
        origin: 'https://shop.example',
      }),
    );
    expect(unsaid.status).toBe(403);
    expect(warnings[0]?.details).toMatchObject({
      origin: 'https://shop.example',
      expected: 'http://shop.example',
      allow: expect.stringContaining('X-Forwarded-Proto'),
    });
    handler.close();
  });

  it('logs the refusals of reads, preflights, origin-less cross-site posts and cards from a page too', async () => {
    const { handler, warnings } = checkout({ publicUrl: 'https://shop.example/api/checkout' });
    const base = 'https://shop.example/api/checkout';
    const answers = [
      await handler(request(`${base}/status`, { origin: 'https://evil.example' })),
      await handler(
        new Request(`${base}/session`, {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
        }),
      ),
      await handler(session(`${base}/session`, { 'sec-fetch-site': 'cross-site' })),
      await handler(
        new Request(`${base}/card`, {
          method: 'POST',
          headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(warnings.map((warning) => warning.details)).toEqual([
      expect.objectContaining({ origin: 'https://evil.example', expected: 'https://shop.example' }),
      expect.objectContaining({ origin: 'https://evil.example', expected: 'https://shop.example' }),
      expect.objectContaining({ origin: null, allow: expect.stringMatching(/^none/) }),
      expect.objectContaining({
        origin: 'https://shop.example',
        expected: 'null (the card frame)',
        allow: expect.stringMatching(/^none/),
      }),
    ]);
    handler.close();
  });

  it('logs a long forged origin cut short, and never the secrets', async () => {
    const tokenSecret = `token-secret-${'x'.repeat(40)}`;
    const { handler, warnings } = checkout({ tokenSecret });
    const origin = `https://${tokenSecret}${'a'.repeat(300)}.example`;
    await handler(session('http://shop.example/api/checkout/session', { origin }));
    const line = JSON.stringify(warnings);
    expect(line).toContain('[redacted]');
    expect(line).not.toContain(tokenSecret);
    expect(line).not.toContain('a'.repeat(200));
    handler.close();
  });
});
