// Faults on demand (POST /__sandbox/config { faults }): what a merchant's retry logic meets, and
// whether the sandbox does, or does not, make the change behind each failure.
import { describe, expect, it } from 'vitest';
import {
  advance,
  call,
  configure,
  fundTransfer,
  listPayments,
  pause,
  type Sandbox,
  sandboxAndReceiverPerTest,
  startSandbox,
  TRANSFER_INITIATION,
} from '../../helpers/sandbox';

const INITIATE = '/api/payment/pay/initiate';
const LIST = '/v1/api/transactions';
const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';
const PAYMENT_METHODS = '/payout/Disbursement/Payout/PaymentMethods';
const VALIDATE = '/api/payment/pay/validate';

const { sandbox, receiver } = sandboxAndReceiverPerTest();

describe('operation faults', () => {
  it('a scripted 500, 500 fails two initiations without creating anything; the third succeeds', async () => {
    await configure(sandbox, {
      faults: [
        {
          endpoint: 'initiate',
          steps: [
            { type: 'error', status: 500 },
            { type: 'error', status: 500 },
          ],
        },
      ],
    });
    const first = await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION);
    const second = await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION);
    expect(first.status).toBe(500);
    expect(second.status).toBe(500);
    expect(first.body.isSuccess).toBe(false);
    expect(await listPayments(sandbox)).toEqual([]);

    const third = await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION);
    expect(third.status).toBe(200);
    const list = await listPayments(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0].reference).toBe(third.body.value.paymentItem.reference);
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
  });

  it('a scripted error touches only its own operation', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'initiate', steps: [{ type: 'error', status: 503 }] }],
    });
    expect((await call(sandbox, 'GET', LIST)).status).toBe(200);
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(503);
  });

  it('rateLimit answers 429 with Retry-After and does nothing', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'initiate', steps: [{ type: 'rateLimit', retryAfterSeconds: 2 }] }],
    });
    const answer = await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(await listPayments(sandbox)).toEqual([]);
  });

  it('latency answers no sooner than the delay, and normally', async () => {
    // The delay is long so that "the next call is not delayed" can be told apart on a loaded
    // machine: that call must come back well within it, not within a few hundred ms.
    const delayMs = 3000;
    await configure(sandbox, {
      faults: [{ endpoint: 'transactions', steps: [{ type: 'latency', ms: delayMs }] }],
    });
    const started = performance.now();
    const answer = await call(sandbox, 'GET', LIST);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(delayMs - 5);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(true);
    const quick = performance.now();
    await call(sandbox, 'GET', LIST);
    expect(performance.now() - quick).toBeLessThan(delayMs - 1000);
  });

  it('drop cuts the connection (fetch rejects) and creates nothing', async () => {
    await configure(sandbox, { faults: [{ endpoint: 'initiate', steps: [{ type: 'drop' }] }] });
    await expect(call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).rejects.toThrow();
    expect(await listPayments(sandbox)).toEqual([]);
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
    expect(await listPayments(sandbox)).toHaveLength(1);
  });

  it('drop on a fund transfer moves no money', async () => {
    await configure(sandbox, { faults: [{ endpoint: 'fundTransfer', steps: [{ type: 'drop' }] }] });
    await expect(call(sandbox, 'POST', FUND_TRANSFER, fundTransfer())).rejects.toThrow();
    expect((await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts).toEqual([]);
    const wallets = await call(sandbox, 'GET', '/__sandbox/wallets');
    expect(wallets.body.wallets.NGN.balanceMinor).toBe(1_000_000_000);
  });

  it('malformed answers 200 with a body that is not JSON, and does nothing', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'initiate', steps: [{ type: 'malformed' }] }],
    });
    const answer = await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toBe('');
    expect(() => JSON.parse(answer.text)).toThrow();
    expect(await listPayments(sandbox)).toEqual([]);
  });

  it('lostResponse on initiate makes the payment but the caller never hears of it', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'initiate', steps: [{ type: 'lostResponse' }] }],
    });
    await expect(call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).rejects.toThrow();
    const list = await listPayments(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ channel: 'PayByTransfer', status: 'PENDING', currency: 'NGN' });
  });

  it('a "none" step is a gap in the script', async () => {
    await configure(sandbox, {
      faults: [
        {
          endpoint: 'transactions',
          steps: [{ type: 'none' }, { type: 'error', status: 502 }],
        },
      ],
    });
    expect((await call(sandbox, 'GET', LIST)).status).toBe(200);
    expect((await call(sandbox, 'GET', LIST)).status).toBe(502);
    expect((await call(sandbox, 'GET', LIST)).status).toBe(200);
  });

  it('"*" applies to any operation, one step per call, then normal', async () => {
    await configure(sandbox, {
      faults: [
        {
          endpoint: '*',
          steps: [
            { type: 'error', status: 503 },
            { type: 'error', status: 503 },
          ],
        },
      ],
    });
    expect((await call(sandbox, 'GET', LIST)).status).toBe(503);
    const requirements = await call(sandbox, 'POST', PAYMENT_METHODS, {
      BeneficiaryCurrencyCode: 'NGN',
      BeneficiaryBankCountryCode: 'NG',
      CurrencyCode: 'NGN',
      Amount: '150000',
    });
    expect(requirements.status).toBe(503);
    const validate = await call(sandbox, 'POST', VALIDATE, {
      amount: { currencyCode: 'NGN', amount: 100 },
    });
    expect(validate.status).toBe(200);
  });

  it('"*" strikes the operations but never the controls, so it can be switched off', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: '*', chance: 1, step: { type: 'error', status: 503 } }],
    });
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(503);
    expect((await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer())).status).toBe(503);
    expect((await call(sandbox, 'GET', '/__sandbox/payments')).status).toBe(200);
    await configure(sandbox, { faults: [] });
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
  });
});

describe('outages in sandbox time', () => {
  it('forSeconds strikes every call until the clock has moved past it, then none', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'validate', forSeconds: 45, step: { type: 'error', status: 503 } }],
    });
    const body = { amount: { currencyCode: 'NGN', amount: 100 } };
    expect((await call(sandbox, 'POST', VALIDATE, body)).status).toBe(503);
    await advance(sandbox, 44);
    expect((await call(sandbox, 'POST', VALIDATE, body)).status).toBe(503);
    expect((await call(sandbox, 'POST', INITIATE, TRANSFER_INITIATION)).status).toBe(200);
    await advance(sandbox, 2);
    expect((await call(sandbox, 'POST', VALIDATE, body)).status).toBe(200);
  });

  it('refuses a step with neither steps, chance nor forSeconds, and a negative duration', async () => {
    for (const rule of [
      { endpoint: 'status', step: { type: 'drop' } },
      { endpoint: 'status', forSeconds: -1, step: { type: 'drop' } },
    ]) {
      const answer = await call(sandbox, 'POST', '/__sandbox/config', { faults: [rule] });
      expect(answer.status, JSON.stringify(rule)).toBe(400);
    }
  });
});

describe('chance-based faults', () => {
  const rule = { endpoint: 'transactions', chance: 0.5, step: { type: 'error', status: 503 } };

  async function outcomes(target: Sandbox, seed: number): Promise<number[]> {
    await configure(target, { seed, faults: [rule] });
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++)
      statuses.push((await call(target, 'GET', LIST)).status);
    return statuses;
  }

  it('replays the same outcomes for the same seed, in two sandboxes', async () => {
    const other = await startSandbox();
    try {
      const a = await outcomes(sandbox, 424242);
      const b = await outcomes(other, 424242);
      expect(b).toEqual(a);
      // It is a real mix, not all or nothing.
      expect(a).toContain(200);
      expect(a).toContain(503);
      expect(new Set(a)).toEqual(new Set([200, 503]));
    } finally {
      await other.close();
    }
  });

  it('replays from the top when the same seed is set again', async () => {
    const first = await outcomes(sandbox, 7);
    const again = await outcomes(sandbox, 7);
    expect(again).toEqual(first);
  });

  it('draws a different sequence for a different seed', async () => {
    const other = await startSandbox();
    try {
      const a = await outcomes(sandbox, 1);
      const b = await outcomes(other, 2);
      expect(b).not.toEqual(a);
    } finally {
      await other.close();
    }
  });

  it('chance 0 never strikes and chance 1 always does', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'transactions', chance: 0, step: { type: 'error', status: 503 } }],
    });
    for (let index = 0; index < 5; index++)
      expect((await call(sandbox, 'GET', LIST)).status).toBe(200);
    await configure(sandbox, {
      faults: [{ endpoint: 'transactions', chance: 1, step: { type: 'error', status: 503 } }],
    });
    for (let index = 0; index < 5; index++)
      expect((await call(sandbox, 'GET', LIST)).status).toBe(503);
  });
});

describe('webhook faults', () => {
  async function payOut(): Promise<{ reference: string; tenantReference: string }> {
    const body = fundTransfer();
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, body);
    expect(answer.status).toBe(202);
    return { reference: answer.body.value.reference, tenantReference: body.tenantReference };
  }

  it('duplicate delivers the same event twice with the same webhook-id', async () => {
    await configure(sandbox, { faults: [{ endpoint: 'webhook', steps: [{ type: 'duplicate' }] }] });
    const { reference } = await payOut();
    await advance(sandbox, 2);
    const [first, second] = await receiver.waitFor(2);
    expect(first?.headers['webhook-id']).toBeDefined();
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.json.id).toBe(first?.json.id);
    expect(second?.body).toBe(first?.body);
    expect(first?.json.data.reference).toBe(reference);
  });

  it('delay holds the event back until the sandbox clock reaches it', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'delay', ms: 5000 }] }],
    });
    await payOut();
    await advance(sandbox, 2); // settles; the webhook is now held for 5 s of sandbox time
    await pause(300);
    expect(receiver.received).toHaveLength(0);
    await advance(sandbox, 5);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json.event).toBe('payout.success');
  });

  it('delay delivers late in real time too', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'delay', ms: 400 }] }],
    });
    await payOut();
    await advance(sandbox, 2);
    const settledAt = performance.now();
    await receiver.waitFor(1);
    expect(performance.now() - settledAt).toBeGreaterThanOrEqual(350);
  });

  it('outOfOrder holds an event until the next one has been sent', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'outOfOrder' }] }],
    });
    const first = await payOut();
    const second = await payOut();
    await advance(sandbox, 2);
    const webhooks = await receiver.waitFor(2);
    expect(webhooks.map((webhook) => webhook.json.data.tenantReference)).toEqual([
      second.tenantReference,
      first.tenantReference,
    ]);
  });
});

describe('webhook faults, held events', () => {
  it('outOfOrder with no later event releases the held one when the hold runs out, not never', async () => {
    await configure(sandbox, {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'outOfOrder' }] }],
    });
    const body = fundTransfer();
    expect((await call(sandbox, 'POST', FUND_TRANSFER, body)).status).toBe(202);
    await advance(sandbox, 2);
    await pause(200);
    expect(receiver.received).toHaveLength(0);
    await advance(sandbox, 10);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json.data.tenantReference).toBe(body.tenantReference);
  });
});

describe('fault configuration', () => {
  const good = {
    seed: 5,
    faults: [{ endpoint: 'transactions', steps: [{ type: 'rateLimit', retryAfterSeconds: 1 }] }],
  };

  it.each([
    ['an unknown step type', [{ endpoint: 'initiate', steps: [{ type: 'explode' }] }]],
    [
      'an error with status 200',
      [{ endpoint: 'initiate', steps: [{ type: 'error', status: 200 }] }],
    ],
    [
      'an error with status 404',
      [{ endpoint: 'initiate', steps: [{ type: 'error', status: 404 }] }],
    ],
    ['a rule with neither steps nor chance', [{ endpoint: 'initiate' }]],
    ['a chance without a step', [{ endpoint: 'initiate', chance: 0.5 }]],
    ['a chance above 1', [{ endpoint: 'initiate', chance: 2, step: { type: 'drop' } }]],
    ['an unknown endpoint', [{ endpoint: 'refund', steps: [{ type: 'drop' }] }]],
    ['a webhook step on an operation', [{ endpoint: 'initiate', steps: [{ type: 'duplicate' }] }]],
    ['an operation step on webhooks', [{ endpoint: 'webhook', steps: [{ type: 'drop' }] }]],
    ['a list that is not a list', { endpoint: 'initiate' }],
  ])('refuses %s with 400 and keeps the config as it was', async (_, faults) => {
    await configure(sandbox, good);
    const before = await call(sandbox, 'GET', '/__sandbox/config');

    const answer = await call(sandbox, 'POST', '/__sandbox/config', {
      faults,
      webhookUrl: 'http://127.0.0.1:9/elsewhere',
    });
    expect(answer.status).toBe(400);
    expect(Array.isArray(answer.body.failures)).toBe(true);
    expect(answer.body.failures.length).toBeGreaterThan(0);

    const after = await call(sandbox, 'GET', '/__sandbox/config');
    expect(after.body).toEqual(before.body);
    expect(after.body.webhookUrl).toBe(receiver.url);
    // The good rule's script was neither replaced nor restarted nor used up.
    const list = await call(sandbox, 'GET', LIST);
    expect(list.status).toBe(429);
    expect((await call(sandbox, 'GET', LIST)).status).toBe(200);
  });

  it('shows the faults and seed it holds', async () => {
    await configure(sandbox, good);
    const config = await call(sandbox, 'GET', '/__sandbox/config');
    expect(config.body).toMatchObject({ seed: 5, faults: good.faults });
  });
});
