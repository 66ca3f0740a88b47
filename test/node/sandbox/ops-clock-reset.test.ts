// The clock control (expiry and settlement without waiting), reset (everything back to new),
// and two sandboxes in one process sharing nothing.
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../../src/provider/webhook-signature';
import {
  advance,
  BANK_INITIATION,
  call,
  fundTransfer,
  pause,
  paymentStatus,
  type Sandbox,
  sandboxAndReceiverPerTest,
  startSandbox,
  TRANSFER_INITIATION,
} from '../../helpers/sandbox';

const INITIATE = '/api/payment/pay/initiate';
const STATUS = '/api/payment/pay/status/';
const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';
const STARTING = { NGN: 1_000_000_000, GBP: 10_000_000, USD: 10_000_000 };

const { sandbox, receiver } = sandboxAndReceiverPerTest();

async function initiate(target: Sandbox, body: object = TRANSFER_INITIATION): Promise<string> {
  const answer = await call(target, 'POST', INITIATE, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value.paymentItem.reference;
}

async function sandboxNow(target: Sandbox): Promise<number> {
  return Date.parse((await advance(target, 0)).body.now);
}

describe('clock control', () => {
  it('answers the new sandbox time, moved forward by the seconds asked', async () => {
    const before = await sandboxNow(sandbox);
    const after = Date.parse((await advance(sandbox, 3600)).body.now);
    expect(after - before).toBeGreaterThanOrEqual(3600_000);
    expect(after - before).toBeLessThan(3600_000 + 5000);
  });

  it('expires a virtual account after 30 minutes: the payment fails and a transfer gets 409', async () => {
    const reference = await initiate(sandbox);
    const initiation = (await call(sandbox, 'GET', '/__sandbox/payments')).body.payments[0];
    const expiration = Date.parse(initiation.virtualAccount.expiration);
    const now = await sandboxNow(sandbox);
    expect(expiration - now).toBeGreaterThan(29 * 60_000);
    expect(expiration - now).toBeLessThanOrEqual(30 * 60_000);

    await advance(sandbox, 29 * 60);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await advance(sandbox, 2 * 60);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json).toMatchObject({ event: 'payment.failed', data: { reference } });

    const late = await call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`);
    expect(late.status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('a transfer just before expiry still succeeds', async () => {
    const reference = await initiate(sandbox);
    await advance(sandbox, 29 * 60);
    const paid = await call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`);
    expect(paid.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
    await advance(sandbox, 5 * 60);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('settles an approved bank payment when the clock moves', async () => {
    const reference = await initiate(sandbox, BANK_INITIATION);
    const approved = await call(sandbox, 'POST', `/__sandbox/payments/${reference}/bank`, {
      approve: true,
    });
    expect(approved.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await advance(sandbox, 2);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('settles a payout when the clock moves', async () => {
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer());
    expect(answer.status).toBe(202);
    await advance(sandbox, 2);
    const list = await call(sandbox, 'GET', '/__sandbox/payouts');
    expect(list.body.payouts[0].status).toBe('Completed');
  });

  it.each([
    ['a negative number', { advanceSeconds: -1 }],
    ['a string', { advanceSeconds: 'abc' }],
    ['nothing', {}],
  ])('refuses %s with 400 and does not move time', async (_, body) => {
    const reference = await initiate(sandbox);
    const before = await sandboxNow(sandbox);
    const answer = await call(sandbox, 'POST', '/__sandbox/clock', body);
    expect(answer.status).toBe(400);
    expect(answer.body.failures.length).toBeGreaterThan(0);
    const after = await sandboxNow(sandbox);
    expect(after - before).toBeLessThan(5000);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });
});

describe('reset', () => {
  it('clears payments, payouts, webhooks, wallets, clock, config and faults', async () => {
    const payment = await initiate(sandbox);
    await call(sandbox, 'POST', `/__sandbox/payments/${payment}/transfer`);
    const pending = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer({ amount: '5000' }));
    expect(pending.status).toBe(202);
    await call(
      sandbox,
      'POST',
      FUND_TRANSFER,
      fundTransfer({
        currencyCode: 'USD',
        amount: '700',
        paymentMethodType: 'RoutingNumber',
        paymentMethodValue: '021000021',
      }),
    );
    await receiver.waitFor(1);
    const configured = await call(sandbox, 'POST', '/__sandbox/config', {
      webhookSecret: generateWebhookSecret(),
      seed: 99,
      faults: [{ endpoint: 'initiate', steps: [{ type: 'error', status: 500 }] }],
    });
    expect(configured.status).toBe(200);
    await advance(sandbox, 3600);

    const reset = await call(sandbox, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(200);

    expect((await call(sandbox, 'GET', '/__sandbox/payments')).body.payments).toEqual([]);
    expect((await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts).toEqual([]);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks')).body.webhooks).toEqual([]);
    const wallets = (await call(sandbox, 'GET', '/__sandbox/wallets')).body.wallets;
    for (const [currency, minor] of Object.entries(STARTING)) {
      expect(wallets[currency].balanceMinor).toBe(minor);
    }
    expect((await call(sandbox, 'GET', '/v1/api/transactions')).body.meta.total).toBe(0);
    expect((await call(sandbox, 'GET', STATUS + payment)).status).toBe(404);

    const config = await call(sandbox, 'GET', '/__sandbox/config');
    expect(config.body).toEqual({
      webhookUrl: receiver.url, // as the sandbox was created
      webhookSecretSet: false,
      faults: [],
      seed: 1,
    });
    // The clock is back to real time.
    expect(Math.abs((await sandboxNow(sandbox)) - Date.now())).toBeLessThan(5000);
    // The fault is gone: the next initiation works.
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
  });

  it('drops what was still due: a pending payout neither settles nor sends a webhook', async () => {
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer());
    expect(answer.status).toBe(202);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    await pause(1300); // past the old payout's real settlement time
    await advance(sandbox, 10);
    await pause(100);
    expect(receiver.received).toEqual([]);
    expect((await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts).toEqual([]);
    const wallets = (await call(sandbox, 'GET', '/__sandbox/wallets')).body.wallets;
    expect(wallets.NGN.balanceMinor).toBe(STARTING.NGN);
  });

  it('needs the key like every control', async () => {
    await initiate(sandbox);
    const answer = await call(sandbox, 'POST', '/__sandbox/reset', undefined, { key: null });
    expect(answer.status).toBe(401);
    expect((await call(sandbox, 'GET', '/__sandbox/payments')).body.payments).toHaveLength(1);
  });
});

describe('two sandboxes in one process', () => {
  it('share nothing: payments, payouts, wallets, clock or faults', async () => {
    const other = await startSandbox();
    try {
      const reference = await initiate(sandbox);
      expect((await call(other, 'GET', STATUS + reference)).status).toBe(404);
      expect((await call(other, 'GET', '/__sandbox/payments')).body.payments).toEqual([]);

      expect((await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer())).status).toBe(202);
      expect((await call(other, 'GET', '/__sandbox/payouts')).body.payouts).toEqual([]);
      const wallets = (await call(other, 'GET', '/__sandbox/wallets')).body.wallets;
      expect(wallets.NGN.balanceMinor).toBe(STARTING.NGN);

      await call(sandbox, 'POST', '/__sandbox/config', {
        faults: [{ endpoint: 'initiate', steps: [{ type: 'error', status: 500 }] }],
      });
      expect((await call(other, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
      expect((await call(other, 'GET', '/__sandbox/config')).body.faults).toEqual([]);

      await advance(sandbox, 3600);
      expect(Math.abs((await sandboxNow(other)) - Date.now())).toBeLessThan(5000);

      await call(other, 'POST', '/__sandbox/reset');
      expect((await call(sandbox, 'GET', '/__sandbox/payments')).body.payments).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('each checks its own key', async () => {
    const other = await startSandbox({ secretKey: 'sk_test_other' });
    try {
      expect((await call(other, 'GET', '/__sandbox/payments')).status).toBe(200);
      const crossed = await call(other, 'GET', '/__sandbox/payments', undefined, {
        key: sandbox.secretKey,
      });
      expect(crossed.status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
