/**
 * Why a payment failed, told by the companion over HTTP in front of a real sandbox (issue 12,
 * items 2 and 3): a transfer short of the amount (what arrived), an account the provider expired
 * on its own clock, a card whose finalize answer was lost and which then failed, in `/status`, in
 * the event stream's stored events and in the merchant's outcome. And the provider's time in
 * `serverTime`: measured from its `Date`, our own clock when it sends none or a bad one, and a
 * malformed amount paid that leaves the amounts out but not the reason.
 */
import { describe, expect, it } from 'vitest';
import { companionPerTest, control, recorder, webhooksSettled } from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_reasons_${crypto.randomUUID().replaceAll('-', '')}`;
const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call, begin } = recorder(seen);

/** A fetch for the companion that rewrites the provider's status answers, or its headers. */
function rewriting(
  change: (body: Record<string, unknown>) => void,
  headers: (headers: Headers) => void = () => {},
): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const rewritten = new Headers(response.headers);
    headers(rewritten);
    if (!url.includes('/api/payment/pay/status/')) {
      return new Response(response.body, { status: response.status, headers: rewritten });
    }
    const body = (await response.json()) as Record<string, unknown>;
    change(body);
    return new Response(JSON.stringify(body), { status: response.status, headers: rewritten });
  };
}

describe('a transfer short of the amount', () => {
  it('is FAILED with transfer_short and what arrived, in /status, the event and the outcome', async () => {
    const rig = await start();
    const { token, reference } = await begin(rig, 'order-ngn:s1', 'PayByTransfer');
    // ₦20,000.00 of ₦25,000.50.
    await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`, { amount: 20_000 });
    await webhooksSettled(rig);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      reference,
      status: 'FAILED',
      reason: 'transfer_short',
      paid: { amountMinor: 2_000_000, currency: 'NGN' },
    });
    expect(rig.paymentOutcomes).toEqual([
      expect.objectContaining({
        reference,
        status: 'FAILED',
        reason: 'transfer_short',
        paid: { amountMinor: 2_000_000, currency: 'NGN' },
      }),
    ]);
  });

  it('keeps the reason but leaves out an amount paid that is not money', async () => {
    const rig = await start({
      fetch: rewriting((body) => {
        (body.value as Record<string, unknown>).amountPaid = {
          currencyCode: 'NGN',
          amount: 'lots',
        };
      }),
    });
    const { token, reference } = await begin(rig, 'order-ngn:s2', 'PayByTransfer');
    await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`, { amount: 100 });
    await webhooksSettled(rig);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body).toMatchObject({ status: 'FAILED', reason: 'transfer_short' });
    expect(status.body.paid).toBeUndefined();
    expect(rig.paymentOutcomes[0]?.paid).toBeUndefined();
  });

  it('is told short from what arrived even when the provider words it in a way we do not know', async () => {
    const rig = await start({
      fetch: rewriting((body) => {
        body.message = 'Transaction unsuccessful.';
      }),
    });
    const { token, reference } = await begin(rig, 'order-ngn:s3', 'PayByTransfer');
    await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`, { amount: 25_000 });
    await webhooksSettled(rig);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body).toMatchObject({
      status: 'FAILED',
      reason: 'transfer_short',
      paid: { amountMinor: 2_500_000, currency: 'NGN' },
    });
  });

  it('says no reason when the provider gives none we know and nothing short', async () => {
    const rig = await start({
      fetch: rewriting((body) => {
        body.message = 'Transaction unsuccessful.';
        delete (body.value as Record<string, unknown>).amountPaid;
      }),
    });
    const { token, reference } = await begin(rig, 'order-ngn:s4', 'PayByTransfer');
    await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`, { amount: 1 });
    await webhooksSettled(rig);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body.status).toBe('FAILED');
    expect(status.body.reason).toBeUndefined();
  });
});

describe('an account the provider expired', () => {
  it("is FAILED with expired once the provider's clock passes it, whatever ours says", async () => {
    const rig = await start();
    const { token, reference } = await begin(rig, 'order-ngn:x1', 'PayByTransfer');
    // Only the provider's clock moves: the companion's is 31 minutes behind it now.
    await control(rig, 'POST', '/__sandbox/clock', { advanceSeconds: 31 * 60 });
    await webhooksSettled(rig);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body).toMatchObject({ reference, status: 'FAILED', reason: 'expired' });
    // The provider's time, not ours: 31 minutes ahead, to the second the Date header gives.
    const ahead = Date.parse(status.body.serverTime) - Date.now();
    expect(ahead).toBeGreaterThan(31 * 60_000 - 2000);
    expect(ahead).toBeLessThan(31 * 60_000 + 2000);
    expect(rig.paymentOutcomes).toEqual([
      expect.objectContaining({ reference, status: 'FAILED', reason: 'expired' }),
    ]);
  });
});

describe("the provider's time given to the browser", () => {
  it('counts a new account from the provider clock: 30 minutes left, not 30 plus the shift', async () => {
    const rig = await start();
    await control(rig, 'POST', '/__sandbox/clock', { advanceSeconds: 31 * 60 });
    const { payment } = await begin(rig, 'order-ngn:t1', 'PayByTransfer');
    const left = Date.parse(payment.virtualAccount.expiresAt) - Date.parse(payment.serverTime);
    expect(left).toBeGreaterThan(30 * 60_000 - 2000);
    expect(left).toBeLessThanOrEqual(30 * 60_000);
  });

  it("falls back to the companion's clock when the provider sends no Date, or a bad one", async () => {
    for (const [index, date] of [null, 'not a date'].entries()) {
      const rig = await start({
        fetch: rewriting(
          () => {},
          (headers) => (date === null ? headers.delete('date') : headers.set('date', date)),
        ),
      });
      const { token, payment } = await begin(rig, `order-ngn:t2-${index}`, 'PayByTransfer');
      expect(Math.abs(Date.parse(payment.serverTime) - Date.now())).toBeLessThan(2000);
      const left = Date.parse(payment.virtualAccount.expiresAt) - Date.parse(payment.serverTime);
      expect(left).toBeGreaterThan(30 * 60_000 - 2000);
      const status = await call(rig, 'GET', '/status', { token });
      expect(status.body.status).toBe('PENDING');
      expect(Math.abs(Date.parse(status.body.serverTime) - Date.now())).toBeLessThan(2000);
      // The last one is closed after the test, as every rig of this file.
      if (index === 0) await rig.close();
    }
  });
});

describe('a card whose finalize answer was lost', () => {
  it('tells why it failed once settled: card_declined in /status and the outcome', async () => {
    const rig = await start();
    const { token, reference } = await begin(rig, 'order-ngn:c1', 'Card', {
      card: testCard('4000000000000002'),
    });
    await call(rig, 'POST', '/authenticate', { token });
    await control(rig, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'finalize', steps: [{ type: 'lostResponse' }] }],
    });
    const lost = await call(rig, 'POST', '/finalize', { token });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    await webhooksSettled(rig);
    await expect
      .poll(async () => (await call(rig, 'GET', '/status', { token })).body)
      .toMatchObject({ reference, status: 'FAILED', reason: 'card_declined' });
    await expect.poll(() => rig.paymentOutcomes.length).toBe(1);
    expect(rig.paymentOutcomes[0]).toMatchObject({ status: 'FAILED', reason: 'card_declined' });
    // Asking finalize again says the same.
    const again = await call(rig, 'POST', '/finalize', { token });
    expect(again.body).toMatchObject({ status: 'FAILED', reason: 'card_declined' });
  });
});
