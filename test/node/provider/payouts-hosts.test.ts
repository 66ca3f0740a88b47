// The back office's host check and log redaction (issue 20, item 5), attacked as a DNS-rebinding
// page would: its Host is its own name, its Origin matches that Host, and `authorize` says yes.
// A real sandbox counts the payouts that got through; the handler is served on a real socket so
// that the Host header is the one on the wire.
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RunningServer, serve } from '../../../src/node/serve';
import { createPayoutsHandler, type PayoutsHandler } from '../../../src/server';
import { listPayouts, type Sandbox, startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let handler: PayoutsHandler | undefined;
let running: RunningServer | undefined;
let warnings: Array<{ message: string; details: Record<string, unknown> | undefined }>;
let errors: Array<{ message: string; details: Record<string, unknown> | undefined }>;

const logger = {
  warn: (message: string, details?: Record<string, unknown>) => warnings.push({ message, details }),
  error: (message: string, details?: Record<string, unknown>) => errors.push({ message, details }),
};

beforeEach(async () => {
  sandbox = await startSandbox();
  warnings = [];
  errors = [];
});

afterEach(async () => {
  handler?.close();
  await running?.close();
  handler = undefined;
  running = undefined;
  vi.unstubAllEnvs();
  await sandbox.close();
});

/** The handler, admitting everyone (as a careless authorize would), on a loopback socket. */
async function start(extra: Partial<Parameters<typeof createPayoutsHandler>[0]> = {}) {
  handler = createPayoutsHandler({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    authorize: () => true,
    logger,
    ...extra,
  });
  running = await serve(handler);
  return Number(new URL(running.url).port);
}

function payout() {
  return JSON.stringify({
    tenantReference: `payout-${crypto.randomUUID()}`,
    amount: { amountMinor: 150_000, currency: 'NGN' },
    narration: 'Supplier invoice 88',
    paymentMethodType: 'BankCode',
    paymentMethodValue: '058',
    beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
  });
}

/** A POST to 127.0.0.1 whose Host header says what a browser on `host` would put there. */
function postWithHost(
  port: number,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { error?: { code: string } } }> {
  const body = payout();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/back-office/payouts',
        method: 'POST',
        setHost: false,
        headers: {
          host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the back office serves only its own hosts', () => {
  it('refuses a DNS-rebinding page (Host and Origin its own name) with 403 host_not_allowed, whatever authorize says, and logs the host and the option', async () => {
    const port = await start();
    const answer = await postWithHost(port, `rebind.example:${port}`, {
      origin: `http://rebind.example:${port}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe('host_not_allowed');
    expect(await listPayouts(sandbox)).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toMatchObject({
      host: `rebind.example:${port}`,
      allow: expect.stringContaining("allowedHosts: ['rebind.example']"),
    });
  });

  it('a forged X-Forwarded-Host or Forwarded naming localhost does not help a foreign Host', async () => {
    const port = await start();
    for (const headers of [
      { 'x-forwarded-host': `localhost:${port}` },
      { forwarded: `host=localhost:${port};proto=http` },
      { 'x-forwarded-host': `localhost:${port}`, origin: `http://localhost:${port}` },
    ]) {
      const answer = await postWithHost(port, 'rebind.example', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body.error?.code).toBe('host_not_allowed');
    }
    // Nor does a proxy passing the attacker's name on behind a Host it rewrote to a served one.
    const proxied = await postWithHost(port, `127.0.0.1:${port}`, {
      'x-forwarded-host': 'rebind.example',
    });
    expect(proxied.body.error?.code).toBe('host_not_allowed');
    expect(await listPayouts(sandbox)).toEqual([]);
  });

  it('does not take its own origin from forwarded headers, as the checkout does (issue 21): both hosts served, the page’s Origin is still not this Host’s', async () => {
    const port = await start();
    // The checkout would take http://localhost:PORT here (X-Forwarded-Host names it); the back
    // office compares the Origin with the Host alone, so a forwarded name cannot widen it.
    for (const headers of [
      { 'x-forwarded-host': `localhost:${port}`, 'x-forwarded-proto': 'http' },
      { forwarded: `host="localhost:${port}";proto=http` },
    ]) {
      const answer = await postWithHost(port, `127.0.0.1:${port}`, {
        ...headers,
        origin: `http://localhost:${port}`,
      });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body.error?.code).toBe('origin_not_allowed');
    }
    expect(await listPayouts(sandbox)).toEqual([]);
  });

  it('in development, the loopback names pass on any port; an Origin on another loopback port does not', async () => {
    const port = await start();
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const answer = await postWithHost(port, host, { origin: `http://${host}` });
      expect(answer.status, host).toBe(202);
    }
    const otherPort = await postWithHost(port, `localhost:${port}`, {
      origin: 'http://localhost:5173',
    });
    expect(otherPort.status).toBe(403);
    expect(otherPort.body.error?.code).toBe('origin_not_allowed');
    expect(await listPayouts(sandbox)).toHaveLength(4);
  });

  it('serves publicUrl’s host and allowedHosts (with the https page behind a TLS proxy); others are refused', async () => {
    const port = await start({
      publicUrl: 'https://admin.shop.example/api/back-office',
      allowedHosts: ['staff.shop.example'],
    });
    const viaProxy = await postWithHost(port, 'admin.shop.example', {
      origin: 'https://admin.shop.example',
      'x-forwarded-host': 'admin.shop.example',
      'x-forwarded-proto': 'https',
    });
    expect(viaProxy.status).toBe(202);
    const listed = await postWithHost(port, 'STAFF.shop.example', {
      origin: 'https://staff.shop.example',
    });
    expect(listed.status).toBe(202);
    const sibling = await postWithHost(port, 'shop.example', { origin: 'https://shop.example' });
    expect(sibling.body.error?.code).toBe('host_not_allowed');
    expect(await listPayouts(sandbox)).toHaveLength(2);
  });

  it('under NODE_ENV=production it will not start without the hosts it serves, and loopback is not among them', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(() =>
      createPayoutsHandler({
        secretKey: sandbox.secretKey,
        baseUrl: sandbox.url,
        authorize: () => true,
      }),
    ).toThrow(/publicUrl or allowedHosts is required under NODE_ENV=production/);
    const port = await start({ allowedHosts: ['admin.shop.example'] });
    const loopback = await postWithHost(port, `127.0.0.1:${port}`);
    expect(loopback.body.error?.code).toBe('host_not_allowed');
    expect(await listPayouts(sandbox)).toEqual([]);
  });

  it('refuses allowedHosts that are not host names, and a publicUrl that is not a URL', () => {
    for (const allowedHosts of [
      ['https://admin.shop.example'],
      ['admin.shop.example:443'],
      ['a/b'],
    ])
      expect(() =>
        createPayoutsHandler({
          secretKey: sandbox.secretKey,
          baseUrl: sandbox.url,
          authorize: () => true,
          allowedHosts,
        }),
      ).toThrow(/allowedHosts must be host names/);
    expect(() =>
      createPayoutsHandler({
        secretKey: sandbox.secretKey,
        baseUrl: sandbox.url,
        authorize: () => true,
        publicUrl: 'admin.shop.example',
      }),
    ).toThrow(/publicUrl must be an absolute URL/);
  });

  it('a request with no Origin (curl) still meets authorize, which decides', async () => {
    let admitted = false;
    const port = await start({ authorize: () => admitted });
    const refused = await postWithHost(port, `127.0.0.1:${port}`);
    expect(refused.status).toBe(401);
    expect(await listPayouts(sandbox)).toEqual([]);
    admitted = true;
    expect((await postWithHost(port, `127.0.0.1:${port}`)).status).toBe(202);
  });
});

describe("the back office's log", () => {
  it('redacts the key from what authorize or a provider answer quote, like the checkout', async () => {
    const key = sandbox.secretKey;
    const port = await start({
      authorize: () => {
        throw new Error(`session store refused key ${key}`);
      },
    });
    expect((await postWithHost(port, `127.0.0.1:${port}`)).status).toBe(401);
    handler?.close();
    await running?.close();
    // A provider (or a gateway in front of it) answering 500 with the request quoted back.
    const fetchQuoting: typeof fetch = async () =>
      new Response(`upstream failed: X-Api: ${key}`, { status: 500 });
    await start({ fetch: fetchQuoting, timeouts: { providerMs: 1000 } });
    const failed = await handler?.(
      new Request('http://127.0.0.1/api/back-office/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payout(),
      }),
    );
    expect(failed?.status).toBeGreaterThanOrEqual(500);
    const logged = JSON.stringify([...warnings, ...errors]);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(logged).toContain('session store refused key [redacted]');
    expect(logged).not.toContain(key);
  });
});
