// The provider's webhooks at the companion: a hint confirmed with the status operation, never
// proof; size-capped; signature-checked when secrets are configured; deduplicated; and each
// payment's outcome reported to the merchant exactly once, however the webhooks arrive.
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/provider/webhook-signature';
import type { PaymentOutcome } from '../../../src/server';
import {
  type CompanionRig,
  companionPerTest,
  control,
  recorder,
  webhooksSettled,
} from '../../helpers/companion';

const KEY = `sk_test_webhooks_${crypto.randomUUID().replaceAll('-', '')}`;
const STATUS = '/api/payment/pay/status/';

const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call } = recorder(seen);

async function begin(on: CompanionRig, order: string) {
  const session = await call(on, 'POST', '/session', { body: { order } });
  const initiated = await call(on, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(initiated.status, initiated.text).toBe(200);
  return {
    token: initiated.body.token as string,
    reference: initiated.body.payment.reference as string,
  };
}

function forgedSuccess(reference: string, id = `evt_forged_${crypto.randomUUID()}`) {
  return {
    id,
    event: 'payment.success',
    createdAt: new Date().toISOString(),
    data: {
      reference,
      paymentReference: reference,
      status: 'Successfull',
      amount: 25_000.5,
      currency: 'NGN',
    },
  };
}

function statusCalls(on: CompanionRig, reference: string, from = 0): number {
  return on.providerCalls.slice(from).filter((entry) => entry.path === `${STATUS}${reference}`)
    .length;
}

describe('delivery faults', () => {
  it('a webhook delivered twice reports the outcome once', async () => {
    const on = await start();
    const { reference } = await begin(on, 'order-ngn:w1');
    await control(on, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'duplicate' }] }],
    });
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    const { webhooks } = await control(on, 'GET', '/__sandbox/webhooks');
    expect(webhooks.filter((d: { state: string }) => d.state === 'delivered')).toHaveLength(2);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('webhooks out of order still report each payment once, with its own outcome', async () => {
    const on = await start();
    const a = await begin(on, 'order-ngn:w2a');
    const b = await begin(on, 'order-ngn:w2b');
    await control(on, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'outOfOrder' }, { type: 'duplicate' }] }],
    });
    await control(on, 'POST', `/__sandbox/payments/${a.reference}/transfer`);
    // A's webhook is held back (the sandbox has not tried to send it yet), and the companion has
    // finished whatever it was doing: nothing yet.
    const { webhooks: held } = await control(on, 'GET', '/__sandbox/webhooks');
    expect(held).toMatchObject([{ reference: a.reference, state: 'pending', attempts: 0 }]);
    await on.handler.idle();
    expect(on.paymentOutcomes).toEqual([]);
    await control(on, 'POST', `/__sandbox/payments/${b.reference}/transfer`, { amount: 1 });
    await webhooksSettled(on);
    const { webhooks } = await control(on, 'GET', '/__sandbox/webhooks');
    const order = [...webhooks]
      .sort((x: { deliveredAt: string }, y: { deliveredAt: string }) =>
        x.deliveredAt.localeCompare(y.deliveredAt),
      )
      .map((d: { reference: string }) => d.reference);
    expect(order[0]).toBe(b.reference);
    const byReference = Object.fromEntries(
      on.paymentOutcomes.map((outcome) => [outcome.reference, outcome.status]),
    );
    expect(byReference).toEqual({ [a.reference]: 'SUCCESSFUL', [b.reference]: 'FAILED' });
    expect(on.paymentOutcomes).toHaveLength(2);
  });

  it('a webhook held back until the clock moves still ends in the outcome, once', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:w3');
    await control(on, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'outOfOrder' }] }],
    });
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await control(on, 'POST', '/__sandbox/clock', { advanceSeconds: 6 });
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    expect((await call(on, 'GET', '/status', { token })).body.status).toBe('SUCCESSFUL');
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('a delivery the companion failed is retried by the provider and then counted once', async () => {
    const secret = generateWebhookSecret();
    // The companion checks signatures but the sandbox does not sign yet: deliveries are refused.
    const on = await start({ webhookSecrets: [secret] }, { webhookRetryDelaysMs: [60_000] });
    const { reference } = await begin(on, 'order-ngn:w4');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect
      .poll(async () => (await control(on, 'GET', '/__sandbox/webhooks')).webhooks[0]?.lastStatus)
      .toBe(401);
    await on.handler.idle();
    expect(on.paymentOutcomes).toEqual([]);
    // The merchant fixes the configuration; the provider's next retry goes through.
    await control(on, 'POST', '/__sandbox/config', { webhookSecret: secret });
    await control(on, 'POST', '/__sandbox/clock', { advanceSeconds: 61 });
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
  });
});

describe('a webhook is a hint, confirmed with the status operation', () => {
  it('a forged payment.success for a pending payment reports nothing', async () => {
    const on = await start();
    const { token, reference } = await begin(on, 'order-ngn:w5');
    const from = on.providerCalls.length;
    const answer = await call(on, 'POST', '/webhooks', { body: forgedSuccess(reference) });
    expect(answer.status).toBe(200);
    await on.handler.idle();
    expect(statusCalls(on, reference, from)).toBeGreaterThanOrEqual(1);
    expect(on.paymentOutcomes).toEqual([]);
    expect((await call(on, 'GET', '/status', { token })).body.status).toBe('PENDING');
    expect((await control(on, 'GET', '/__sandbox/payments')).payments[0].status).toBe('PENDING');

    // The real payment afterwards is still reported, once.
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('a forged webhook for a reference the provider does not know reports nothing', async () => {
    const on = await start();
    const answer = await call(on, 'POST', '/webhooks', { body: forgedSuccess('PAY_NOT_REAL') });
    expect(answer.status).toBe(200);
    await on.handler.idle();
    expect(on.paymentOutcomes).toEqual([]);
  });

  it('a forged payout webhook reports no payout', async () => {
    const on = await start();
    const answer = await call(on, 'POST', '/webhooks', {
      body: {
        id: 'evt_payout_forged',
        event: 'payout.success',
        data: { reference: 'PO_FAKE', tenantReference: 't-1', status: 'Completed', amount: '1' },
      },
    });
    expect(answer.status).toBe(200);
    await on.handler.idle();
    expect(on.payoutOutcomes).toEqual([]);
  });

  it('replaying the real webhook later changes nothing', async () => {
    const on = await start();
    const { reference } = await begin(on, 'order-ngn:w6');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    const { webhooks } = await control(on, 'GET', '/__sandbox/webhooks');
    for (let index = 0; index < 3; index++) {
      const replay = await call(on, 'POST', '/webhooks', {
        rawBody: JSON.stringify(webhooks[0].payload),
      });
      expect(replay.status).toBe(200);
    }
    await on.handler.idle();
    expect(on.paymentOutcomes).toHaveLength(1);
  });
});

describe('what the receiver refuses or ignores', () => {
  it('refuses a body over 64 KB with 413', async () => {
    const on = await start();
    const body = JSON.stringify({ ...forgedSuccess('PAY_X'), padding: 'x'.repeat(65 * 1024) });
    const answer = await call(on, 'POST', '/webhooks', { rawBody: body });
    expect(answer.status).toBe(413);
    await on.handler.idle();
    expect(on.providerCalls.filter((entry) => entry.path.startsWith(STATUS))).toEqual([]);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const on = await start();
    const answer = await call(on, 'POST', '/webhooks', { rawBody: 'event=payment.success' });
    expect(answer.status).toBe(400);
  });

  it('acknowledges an unknown event or one without a reference with 200 and does nothing', async () => {
    const on = await start();
    for (const body of [
      { id: 'evt_1', event: 'customer.created', data: { reference: 'PAY_1' } },
      { id: 'evt_2', event: 'payment.success', data: { status: 'Successfull' } },
      [],
    ]) {
      const answer = await call(on, 'POST', '/webhooks', { body });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ received: true, ignored: true });
    }
    await on.handler.idle();
    expect(on.providerCalls.filter((entry) => entry.path.startsWith(STATUS))).toEqual([]);
  });
});

describe('signed webhooks (webhookSecrets)', () => {
  it('refuses unsigned, badly signed and stale webhooks with 401, and nothing happens', async () => {
    const secret = generateWebhookSecret();
    const on = await start({ webhookSecrets: [secret] }, { webhookSecret: secret });
    const { reference } = await begin(on, 'order-ngn:w7');
    // Paid for real, but the provider's own webhook is held back so only forgeries arrive.
    await control(on, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'webhook', steps: [{ type: 'delay', ms: 60_000 }] }],
    });
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    const from = on.providerCalls.length;
    const body = JSON.stringify(forgedSuccess(reference));
    const now = Math.floor(Date.now() / 1000);
    const attempts: Array<Record<string, string>> = [
      {},
      { 'webhook-id': 'evt_a', 'webhook-timestamp': String(now) },
      {
        ...(await signWebhook({
          id: 'evt_b',
          timestamp: now,
          body,
          secret: generateWebhookSecret(),
        })),
      },
      { ...(await signWebhook({ id: 'evt_c', timestamp: now - 3600, body, secret })) },
      {
        ...(await signWebhook({ id: 'evt_d', timestamp: now, body, secret })),
        'webhook-id': 'evt_other',
      },
    ];
    for (const headers of attempts) {
      const answer = await call(on, 'POST', '/webhooks', { rawBody: body, headers });
      expect(answer.status, JSON.stringify(headers)).toBe(401);
    }
    // Signed correctly but the body changed after signing.
    const signed = await signWebhook({ id: 'evt_e', timestamp: now, body, secret });
    const changed = await call(on, 'POST', '/webhooks', {
      rawBody: body.replace('25000.5', '1'),
      headers: { ...signed },
    });
    expect(changed.status).toBe(401);
    await on.handler.idle();
    expect(on.providerCalls.slice(from)).toEqual([]);
    expect(on.paymentOutcomes).toEqual([]);
  });

  it('acts on a webhook the sandbox signed with the same secret', async () => {
    const secret = generateWebhookSecret();
    const on = await start({ webhookSecrets: [secret] }, { webhookSecret: secret });
    const { reference } = await begin(on, 'order-ngn:w8');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    const { webhooks } = await control(on, 'GET', '/__sandbox/webhooks');
    expect(webhooks[0]).toMatchObject({ state: 'delivered', lastStatus: 200 });
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
  });

  it('accepts the previous secret while rotating', async () => {
    const previous = generateWebhookSecret();
    const on = await start(
      { webhookSecrets: [generateWebhookSecret(), previous] },
      { webhookSecret: previous },
    );
    const { reference } = await begin(on, 'order-ngn:w9');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
  });
});

describe('the merchant’s hook', () => {
  function throwingOnce() {
    const calls: PaymentOutcome[] = [];
    let failures = 1;
    const onPaymentOutcome = (outcome: PaymentOutcome) => {
      calls.push(outcome);
      if (failures-- > 0) throw new Error('database unavailable');
    };
    return { calls, onPaymentOutcome };
  }

  it('a hook that throws once is called again on the next confirmation, then never again', async () => {
    const hook = throwingOnce();
    const on = await start({ onPaymentOutcome: hook.onPaymentOutcome });
    const { token, reference } = await begin(on, 'order-ngn:w10');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    expect(hook.calls).toHaveLength(1);
    expect(on.logLines.some((line) => line.includes('onPaymentOutcome failed'))).toBe(true);

    const status = await call(on, 'GET', '/status', { token });
    expect(status.body.status).toBe('SUCCESSFUL');
    await on.handler.idle();
    expect(hook.calls).toHaveLength(2);
    expect(hook.calls[1]).toMatchObject({
      reference,
      status: 'SUCCESSFUL',
      orderId: 'order-ngn:w10',
    });

    await on.advance(1.1); // past the status cache, on the companion's clock
    await call(on, 'GET', '/status', { token });
    await call(on, 'POST', '/webhooks', { body: forgedSuccess(reference) });
    await on.handler.idle();
    expect(hook.calls).toHaveLength(2);
  });

  it('a hook that throws once is called again without any browser asking', async () => {
    const hook = throwingOnce();
    const on = await start({ onPaymentOutcome: hook.onPaymentOutcome });
    const { reference } = await begin(on, 'order-ngn:w11');
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(on);
    expect(hook.calls).toHaveLength(1);
    // The customer has closed the tab: only the companion itself can try again.
    await expect.poll(() => hook.calls.length, { interval: 50 }).toBe(2);
    expect(hook.calls[1]).toMatchObject({ reference, status: 'SUCCESSFUL' });
    await on.handler.idle();
    expect(hook.calls).toHaveLength(2);
  });
});
