/**
 * Budgets on what strangers can make the provider and the store hold (issue 20, item 2): payments
 * per order per day and per address per hour, card initiations never finalized dropped within
 * hours, and a flood on one order id that does not turn the real customer away with 409.
 */
import { describe, expect, it } from 'vitest';
import { memoryCompanion } from '../../helpers/memory-companion';
import { testCard } from '../../helpers/sandbox';

const GOOD = '4242424242424242';

/** A card initiation never finalized, as a tester's abandoned attempt is. */
async function abandonedCard(
  rig: ReturnType<typeof memoryCompanion>,
  order: string,
  client?: string,
) {
  const token = await rig.session(order, client);
  return rig.call('POST', '/initiate', {
    token,
    client,
    body: { channel: 'Card', card: testCard(GOOD) },
  });
}

describe('payments per order', () => {
  it('stop at the day’s budget, 429 with Retry-After; the next day the customer pays', async () => {
    const rig = memoryCompanion({ limits: { paymentsPerOrderPerDay: 3 } });
    const statuses = [];
    for (let index = 0; index < 6; index++)
      statuses.push((await abandonedCard(rig, 'order-ngn:budget', `192.0.2.${index}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(rig.initiations()).toBe(3);
    const refused = await abandonedCard(rig, 'order-ngn:budget');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3600);
    await rig.advance(24 * 3600 + 1);
    expect((await rig.card('order-ngn:budget', GOOD, '203.0.113.1')).body.status).toBe(
      'SUCCESSFUL',
    );
  });
});

describe('calls that make no payment', () => {
  it('give their places back: resumed payments and a provider outage never lock the customer out', async () => {
    let down = false;
    const rig = memoryCompanion(
      { limits: { paymentsPerOrderPerDay: 3 }, timeouts: { providerMs: 1000 } },
      { providerDown: () => down },
    );
    const token = await rig.session('order-ngn:no-lockout', '192.0.2.30');
    const transfer = (await rig.call('POST', '/initiate', {
      token,
      client: '192.0.2.30',
      body: { channel: 'PayByTransfer' },
    })) as { status: number; body: { payment: { reference: string } } };
    expect(transfer.status).toBe(200);
    // The customer comes back to the transfer six times: the same payment, picked up again.
    for (let again = 0; again < 6; again++) {
      const resumed = await rig.call('POST', '/initiate', {
        token,
        client: '192.0.2.30',
        body: { channel: 'PayByTransfer' },
      });
      expect(resumed.status).toBe(200);
      expect(resumed.body.payment.reference).toBe(transfer.body.payment.reference);
    }
    // Then tries a card six times while the provider is down: it never took one.
    down = true;
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await rig.call('POST', '/initiate', {
        token,
        client: '192.0.2.30',
        body: { channel: 'Card', card: testCard(GOOD) },
      });
      expect(answer.status).toBe(502);
    }
    down = false;
    // Twelve calls on a budget of 3, one payment made: the card, the order's second, is taken.
    expect((await rig.card('order-ngn:no-lockout', GOOD, '192.0.2.30')).body.status).toBe(
      'SUCCESSFUL',
    );
  });
});

describe('a full budget', () => {
  it('refuses a new payment only: a customer whose order is paid is shown it, not 429', async () => {
    const rig = memoryCompanion({ limits: { paymentsPerOrderPerDay: 1 } });
    expect((await rig.card('order-ngn:paid-then-full', GOOD)).body.status).toBe('SUCCESSFUL');
    const token = await rig.session('order-ngn:paid-then-full');
    const again = await rig.call('POST', '/initiate', {
      token,
      body: { channel: 'PayByTransfer' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_paid');
    expect(rig.initiations()).toBe(1);
    // The same budget refuses an order with nothing to show: 429 with Retry-After.
    await abandonedCard(rig, 'order-ngn:unpaid-full');
    const refused = await abandonedCard(rig, 'order-ngn:unpaid-full');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3600);
  });
});

describe('payments per address', () => {
  it('stop at the hour’s budget across orders, while another address pays', async () => {
    const rig = memoryCompanion({ limits: { paymentsPerAddressPerHour: 4 } });
    const statuses = [];
    for (let order = 0; order < 8; order++) {
      const token = await rig.session(`order-ngn:junk-${order}`, '198.51.100.3');
      statuses.push(
        (
          await rig.call('POST', '/initiate', {
            token,
            client: '198.51.100.3',
            body: { channel: 'PayByTransfer' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    expect(rig.initiations()).toBe(4);
    const token = await rig.session('order-ngn:real', '203.0.113.9');
    const real = await rig.call('POST', '/initiate', {
      token,
      client: '203.0.113.9',
      body: { channel: 'PayByTransfer' },
    });
    expect(real.status).toBe(200);
  });
});

describe('a card never finalized', () => {
  it('is dropped, record and re-check job, within hours, while a transfer is still re-checked', async () => {
    const rig = memoryCompanion();
    const card = await abandonedCard(rig, 'order-ngn:abandoned');
    const token = await rig.session('order-ngn:transfer-kept');
    const bank = await rig.call('POST', '/initiate', { token, body: { channel: 'PayByTransfer' } });
    expect(bank.status).toBe(200);
    const reference = card.body.payment.reference as string;
    expect(await rig.store.get(`payment:${reference}`)).toBeDefined();
    expect(await rig.store.pending('payments')).toBe(2);
    for (let hour = 0; hour < 7; hour++) await rig.advance(3600);
    expect(await rig.store.get(`payment:${reference}`)).toBeUndefined();
    expect(await rig.store.pending('payments')).toBe(1);
    const statusCalls = rig.providerCalls.filter((line) =>
      line.includes(`/status/${reference}`),
    ).length;
    await rig.advance(24 * 3600);
    expect(rig.providerCalls.filter((line) => line.includes(`/status/${reference}`)).length).toBe(
      statusCalls,
    );
  });

  it('is kept as long as any payment once finalize was sent', async () => {
    const rig = memoryCompanion();
    const paid = await rig.card('order-ngn:finalized', GOOD);
    expect(paid.body.status).toBe('SUCCESSFUL');
    await rig.advance(7 * 3600);
    expect(await rig.store.get(`payment:${paid.body.reference}`)).toBeDefined();
  });
});

describe('a flood on one order id', () => {
  async function flood(lockWaitMs: number) {
    // Each provider initiation takes 40 ms, as over a network, so the order's lock is held.
    const rig = memoryCompanion({ limits: { lockWaitMs } }, { initiateDelayMs: 40 });
    const transfer = async (client: string) => {
      const token = await rig.session('order-ngn:flooded', client);
      return rig.call('POST', '/initiate', { token, client, body: { channel: 'PayByTransfer' } });
    };
    const attackers = Array.from({ length: 6 }, (_, index) => transfer(`198.51.100.${index}`));
    const customer = transfer('203.0.113.5');
    await Promise.all(attackers);
    return (await customer).status;
  }

  it('does not turn the real customer away with 409: the lock is waited for', async () => {
    expect(await flood(3000)).toBe(200);
  });

  it('would have, without the wait (the attack this stops)', async () => {
    expect(await flood(0)).toBe(409);
  });
});
