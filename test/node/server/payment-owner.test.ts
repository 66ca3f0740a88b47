/**
 * Whose payment is it (issue 20, item 3): a stranger who knows only the order id does not see the
 * account the customer is paying into, nor the bank's link, and still cannot charge twice.
 */
import { describe, expect, it } from 'vitest';
import { memoryCompanion } from '../../helpers/memory-companion';

describe('a stranger opening a customer’s order', () => {
  it('does not see the account the customer is paying into; the customer, with the key, does', async () => {
    const rig = memoryCompanion();
    const token = await rig.session('order-ngn:1042', '192.0.2.1');
    const customer = await rig.call('POST', '/initiate', {
      token,
      client: '192.0.2.1',
      body: { channel: 'PayByTransfer' },
    });
    const account = customer.body.payment.virtualAccount.accountNumber as string;
    expect(customer.body.paymentKey).toMatch(/^[0-9a-f]{64}$/);

    const stranger = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:1042' },
      client: '198.51.100.66',
    });
    expect(stranger.status).toBe(200);
    expect(stranger.body.payment).toBeNull();
    expect(JSON.stringify(stranger.body)).not.toContain(account);
    // A guessed key is no key.
    const guessed = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:1042', paymentKeys: ['0'.repeat(64)] },
    });
    expect(guessed.body.payment).toBeNull();
    // Choosing the transfer gives the stranger an account of their own, never the customer's.
    const theirs = await rig.call('POST', '/initiate', {
      token: stranger.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.payment.reference).not.toBe(customer.body.payment.reference);
    expect(JSON.stringify(theirs.body)).not.toContain(account);

    // The customer comes back (a reload): their key shows their account again, and it still pays.
    const back = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:1042', paymentKeys: [customer.body.paymentKey] },
    });
    expect(back.body.payment.virtualAccount.accountNumber).toBe(account);
    const resumed = await rig.call('POST', '/initiate', {
      token: back.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(resumed.body.payment.reference).toBe(customer.body.payment.reference);
  });

  it('gets payment_pending without the bank link while the customer’s bank payment settles: no second charge', async () => {
    const rig = memoryCompanion();
    const token = await rig.session('order-gbp:77');
    const customer = await rig.call('POST', '/initiate', {
      token,
      body: { channel: 'PayByAccount' },
    });
    const link = customer.body.payment.bankAuthUrl as string;
    expect(link).toMatch(/^http/);
    // Back from the bank: the payment may complete without the customer; the order stays locked.
    const returned = await rig.handler(
      new Request(
        `http://shop.test/api/checkout/return?reference=${customer.body.payment.reference}`,
      ),
    );
    expect(returned.status).toBe(200);

    const stranger = await rig.call('POST', '/session', { body: { order: 'order-gbp:77' } });
    expect(stranger.body.payment).toMatchObject({ status: 'PENDING', bankAuthUrl: null });
    const again = await rig.call('POST', '/initiate', {
      token: stranger.body.token,
      body: { channel: 'PayByAccount' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_pending');
    expect(again.body.payment).toMatchObject({
      reference: customer.body.payment.reference,
      bankAuthUrl: null,
    });
    // The stranger's session token, bound to that payment only to watch it, does not open it.
    const fromWatch = await rig.call('POST', '/initiate', {
      token: again.body.token,
      body: { channel: 'PayByAccount' },
    });
    expect(fromWatch.body.payment.bankAuthUrl).toBeNull();
    expect(JSON.stringify([stranger.body, again.body, fromWatch.body])).not.toContain(link);
    expect(rig.initiations()).toBe(1);
  });

  it('refuses a paymentKeys list that is not keys, changing nothing', async () => {
    const rig = memoryCompanion();
    for (const paymentKeys of ['abc', ['xyz'], Array(11).fill('a'.repeat(64))]) {
      const answer = await rig.call('POST', '/session', {
        body: { order: 'order-ngn:bad', paymentKeys },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    expect(rig.providerCalls).toEqual([]);
  });

  it('keeps the customer’s key in an HttpOnly, SameSite=Strict cookie of the companion’s path, which shows their account again', async () => {
    const rig = memoryCompanion();
    const token = await rig.session('order-ngn:2001');
    const customer = await rig.call('POST', '/initiate', {
      token,
      body: { channel: 'PayByTransfer' },
    });
    const account = customer.body.payment.virtualAccount.accountNumber as string;
    const cookie = customer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^paydrop_payment_keys=[0-9a-f]{64};/);
    expect(cookie).toContain('Path=/api/checkout');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // Over plain http (this loopback shop) it cannot be Secure; over https it is.
    expect(cookie).not.toContain('Secure');
    const pair = cookie.split(';')[0] as string;

    // A reload in the same browser: the cookie alone brings the account back.
    const back = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:2001' },
      cookie: pair,
    });
    expect(back.body.payment.virtualAccount.accountNumber).toBe(account);
    // Another browser, or a forged cookie: nothing.
    const forged = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:2001' },
      cookie: `paydrop_payment_keys=${'a'.repeat(64)}`,
    });
    expect(forged.body.payment).toBeNull();
    const junk = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:2001' },
      cookie: 'paydrop_payment_keys=<script>; other=1',
    });
    expect(junk.status).toBe(200);
    expect(junk.body.payment).toBeNull();

    // A second order in the same browser: both keys are kept, the newest first.
    const second = await rig.session('order-ngn:2002');
    const next = await rig.call('POST', '/initiate', {
      token: second,
      body: { channel: 'PayByTransfer' },
      cookie: pair,
    });
    const both = (next.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(both).toBe(`paydrop_payment_keys=${next.body.paymentKey}.${customer.body.paymentKey}`);
    const first = await rig.call('POST', '/session', {
      body: { order: 'order-ngn:2001' },
      cookie: both,
    });
    expect(first.body.payment.virtualAccount.accountNumber).toBe(account);
  });
});
