/**
 * `npm start` as a newcomer and an attacker meet it: one process serving the page, the companion
 * and the embedded sandbox; the key in no answer the browser side can get.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'sk_test_demo_probe_7f3a9c';
let child: ChildProcess;
let base: string;
/** What npm start printed until it was ready. */
let printed = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      PROVIDER_SECRET_KEY: KEY,
      // Unset: the demo makes up the back office's password and prints it.
      BACK_OFFICE_PASSWORD: '',
      // Its own state folder: runs in parallel never share a SQLite file.
      PAYDROP_DATA_DIR: mkdtempSync(join(tmpdir(), 'paydrop-demo-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready at (http:\/\/[^\s]+?)\/?\s/.exec(output);
      if (match?.[1] && /password: \S+\n/.test(output)) {
        printed = output;
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${code}: ${output}`)));
  });
});

afterAll(() => {
  child?.kill('SIGTERM');
});

async function get(path: string, init?: RequestInit) {
  const response = await fetch(base + path, init);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('npm start', () => {
  it('serves the page, and neither the page nor the companion holds the key', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('paydrop');
    const session = await get('/api/checkout/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'tote-ngn' }),
    });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.text).checkout.amount).toEqual({
      amountMinor: 2_500_050,
      currency: 'NGN',
    });
    for (const answer of [page, session]) {
      expect(answer.text).not.toContain(KEY);
      expect([...answer.headers.values()].join(' ')).not.toContain(KEY);
    }
  });

  it('keeps payouts, links and the list out of the browser side', async () => {
    const probes = [
      ['POST', '/api/checkout/payout/Disbursement/Payout/FundTransfer'],
      ['POST', '/api/checkout/api/payment/payment-link'],
      ['GET', '/api/checkout/v1/api/transactions'],
      ['POST', '/sandbox/payout/Disbursement/Payout/FundTransfer'],
      ['POST', '/sandbox/api/payment/payment-link'],
      ['GET', '/sandbox/v1/api/transactions'],
      ['GET', '/sandbox/__sandbox/payments'],
    ] as const;
    for (const [method, path] of probes) {
      const answer = await get(path, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect([401, 404, 405], `${method} ${path}`).toContain(answer.status);
      expect(answer.text).not.toContain(KEY);
    }
  });

  it('prints the back office and a made-up password; only that password gets a payout through', async () => {
    const password = /back office: \S+\/back-office\s+password: (\S+)/.exec(printed)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    const payout = JSON.stringify({
      tenantReference: 'demo-start-payout-1',
      amount: { amountMinor: 100_000, currency: 'NGN' },
      narration: 'curl',
      paymentMethodType: 'BankCode',
      paymentMethodValue: '058',
      beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
    });
    // curl: no Origin, no cookie. It used to be let in.
    const curl = await get('/api/back-office/payouts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payout,
    });
    expect(curl.status).toBe(401);
    const signIn = (guess: string) =>
      fetch(`${base}/back-office/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password: guess }),
      });
    expect((await signIn(`${password}x`)).status).toBe(401);
    const signedIn = await signIn(password);
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const sent = await get('/api/back-office/payouts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: payout,
    });
    expect(sent.status).toBe(202);
    expect(sent.text).not.toContain(KEY);
  });

  it('answers junk with 4xx, never 5xx', async () => {
    const junk = [
      '{',
      '[]',
      'null',
      '"x"',
      '{"order":1}',
      `{"order":"${'x'.repeat(500)}"}`,
      '\u0000',
    ];
    for (const body of junk) {
      const answer = await get('/api/checkout/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(answer.status, body.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(answer.status, body.slice(0, 20)).toBeLessThan(500);
    }
  });

  it('completes a transfer paid in the sandbox, with the outcome pushed to the companion', async () => {
    const session = JSON.parse(
      (
        await get('/api/checkout/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ order: 'tote-ngn' }),
        })
      ).text,
    );
    const initiated = JSON.parse(
      (
        await get('/api/checkout/initiate', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
          body: JSON.stringify({ channel: 'PayByTransfer' }),
        })
      ).text,
    );
    const reference = initiated.payment.reference as string;
    const paid = await get(`/sandbox/__sandbox/payments/${reference}/transfer`, {
      method: 'POST',
      headers: { 'X-Api': KEY },
    });
    expect(paid.status).toBe(200);
    await expect
      .poll(
        async () =>
          JSON.parse(
            (
              await get('/api/checkout/status', {
                headers: { authorization: `Bearer ${initiated.token}` },
              })
            ).text,
          ).status,
      )
      .toBe('SUCCESSFUL');
  });
});
