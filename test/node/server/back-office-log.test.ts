// The back office logs through the same http layer as the checkout (issue 24, item 3): a provider
// call that fails is logged with its cause, and that cause never carries the key. The handler is
// real and talks to a real sandbox through a gateway of the kind that quotes the request back in
// its error page (a misconfigured proxy in front of the provider): reads pass through, a payout's
// POST gets a 502 whose message quotes the X-Api header it was sent. Two layers keep the key out:
// the provider transport scrubs it from answers, and the handler's logger (http/logger.ts) from
// every line; with either one alone this passes, with neither it fails (tried).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../../src/node/serve';
import { createPayoutsHandler, type PayoutsHandler } from '../../../src/server';
import { type Sandbox, startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let gateway: RunningServer;
let handler: PayoutsHandler | undefined;
let lines: string[];

const logger = {
  warn: (message: string, details?: Record<string, unknown>) =>
    lines.push(`warn ${message} ${JSON.stringify(details ?? {})}`),
  error: (message: string, details?: Record<string, unknown>) =>
    lines.push(`error ${message} ${JSON.stringify(details ?? {})}`),
};

beforeEach(async () => {
  lines = [];
  sandbox = await startSandbox();
  gateway = await serve(async (request) => {
    const url = new URL(request.url);
    if (request.method === 'POST') {
      return Response.json(
        { message: `gateway refused the call with X-Api: ${request.headers.get('x-api')}` },
        { status: 502 },
      );
    }
    return fetch(new URL(url.pathname + url.search, sandbox.url), { headers: request.headers });
  });
});

afterEach(async () => {
  handler?.close();
  handler = undefined;
  await gateway.close();
  await sandbox.close();
});

function backOffice(): PayoutsHandler {
  handler = createPayoutsHandler({
    secretKey: sandbox.secretKey,
    baseUrl: gateway.url,
    authorize: () => true,
    webhookSecrets: [`whsec_${Buffer.from('back-office-log-test-secret').toString('base64')}`],
    logger,
    timeouts: { providerMs: 2000 },
  });
  return handler;
}

const call = (path: string, init: RequestInit = {}) =>
  new Request(`http://127.0.0.1/api/back-office${path}`, init);

describe("the back office's log when a provider call fails", () => {
  it('names the failure and its cause, with the key redacted from what the provider quoted', async () => {
    const payouts = backOffice();
    // Reads reach the real sandbox through the gateway.
    expect((await payouts(call('/payouts'))).status).toBe(200);
    const failed = await payouts(
      call('/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
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
    expect(failed.status).toBe(502);
    const answer = (await failed.json()) as { error: { code: string; requestId: string } };
    expect(answer.error.code).toBe('unavailable');
    // One line, as the checkout writes it: the code and request id, the path, the cause.
    const failure = lines.filter((line) => line.startsWith('error paydrop: unavailable'));
    expect(failure).toHaveLength(1);
    expect(failure[0]).toContain(`(${answer.error.requestId})`);
    expect(failure[0]).toContain('/api/back-office/payouts');
    expect(failure[0]).toContain('gateway refused the call with X-Api: [redacted]');
    expect(lines.join('\n')).not.toContain(sandbox.secretKey);
  });
});
