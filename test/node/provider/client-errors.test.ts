// What each client operation does when the provider fails, against a real sandbox with injected
// faults: reads are retried, an initiation or a link is never sent twice (a second one would be
// a second payment), and every failure is a typed ProviderError without the secret key in it.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ProviderAuthError,
  ProviderError,
  ProviderProtocolError,
  ProviderUnavailableError,
} from '../../../src/protocol';
import { createProviderClient, type ProviderClient } from '../../../src/provider/client';
import { injectFault, listPayments, sandboxPerTest } from '../../helpers/sandbox';

const sandbox = sandboxPerTest();
let client: ProviderClient;
let paths: string[];

beforeEach(() => {
  paths = [];
  client = createProviderClient({
    baseUrl: sandbox.url,
    secretKey: sandbox.secretKey,
    backoffMs: 5,
    fetch: (input, init) => {
      paths.push(new URL(String(input)).pathname);
      return fetch(input, init);
    },
  });
});

const NGN = { amountMinor: 250_050, currency: 'NGN' };

describe('never sent twice', () => {
  it('an initiation whose answer is lost is reported, not re-sent: one payment exists', async () => {
    await injectFault(sandbox, 'initiate', [{ type: 'lostResponse' }]);
    const error = await client
      .initiatePayment({ channel: 'PayByTransfer', amount: NGN })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(paths.filter((path) => path.endsWith('/pay/initiate'))).toHaveLength(1);
    expect(await listPayments(sandbox)).toHaveLength(1);
  });

  it('an initiation answered 500 is not retried', async () => {
    await injectFault(sandbox, 'initiate', [{ type: 'error', status: 500 }]);
    await expect(client.initiatePayment({ channel: 'PayByTransfer', amount: NGN })).rejects.toThrow(
      ProviderUnavailableError,
    );
    expect(paths).toHaveLength(1);
    expect(await listPayments(sandbox)).toHaveLength(0);
  });

  it('a payment link answered 503 is not retried', async () => {
    await injectFault(sandbox, 'paymentLink', [{ type: 'error', status: 503 }]);
    await expect(
      client.createPaymentLink({ name: 'Tip jar', linkType: 'Reusable', currency: 'NGN' }),
    ).rejects.toThrow(ProviderUnavailableError);
    expect(paths).toHaveLength(1);
  });
});

describe('reads are retried', () => {
  it('a status query that meets a 503 and a cut connection still answers', async () => {
    const payment = await client.initiatePayment({ channel: 'PayByTransfer', amount: NGN });
    await injectFault(sandbox, 'status', [{ type: 'error', status: 503 }, { type: 'drop' }]);
    const report = await client.paymentStatus(payment.reference);
    expect(report.paymentStatus).toBe('PENDING');
    expect(paths.filter((path) => path.includes('/pay/status/'))).toHaveLength(3);
  });

  it('the transaction list retries a 502', async () => {
    await injectFault(sandbox, 'transactions', [{ type: 'error', status: 502 }]);
    const page = await client.transactionPage(1, 10);
    expect(page.items).toEqual([]);
    expect(paths).toHaveLength(2);
  });
});

describe('typed failures', () => {
  it('a truncated JSON answer is a ProviderProtocolError, never an undefined', async () => {
    await injectFault(sandbox, 'validate', [{ type: 'malformed' }]);
    await expect(client.validateChannels(NGN)).rejects.toBeInstanceOf(ProviderProtocolError);
  });

  it('a wrong key is a ProviderAuthError (401) that does not quote the key', async () => {
    const wrongKey = 'sk_test_wrong_key_0123456789';
    const wrong = createProviderClient({ baseUrl: sandbox.url, secretKey: wrongKey });
    const error = await wrong.validateChannels(NGN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as ProviderAuthError).status).toBe(401);
    expect(JSON.stringify(error)).not.toContain(wrongKey);
    expect((error as Error).message).not.toContain(wrongKey);
  });

  it('a provider refusal that quotes the key back does not carry it into the error', async () => {
    const key = 'sk_live_9d8c7b6a5f4e3d2c';
    const echoing = createProviderClient({
      baseUrl: 'https://api.provider.example',
      secretKey: key,
      fetch: async () =>
        new Response(
          JSON.stringify({
            isSuccess: false,
            status: 401,
            message: `API key ${key} is not valid for this environment.`,
          }),
          { status: 401, headers: { 'content-type': 'application/json' } },
        ),
    });
    const error = await echoing.paymentStatus('PAY-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).not.toContain(key);
    expect(JSON.stringify(error)).not.toContain(key);
  });
});
