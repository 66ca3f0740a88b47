/**
 * Card testing and floods (issue 20, items 1 and 2), attacked as a card tester would, against the
 * real sandbox in memory on a fake clock: then the real customer still pays.
 */
import { describe, expect, it } from 'vitest';
import { memoryCompanion } from '../../helpers/memory-companion';
import { testCard } from '../../helpers/sandbox';

const DECLINED = '4000000000000002';
const INSUFFICIENT = '4000000000009995';
const GOOD = '4242424242424242';

describe('declined cards on one order', () => {
  it('reach the provider at most 10 times of 60, the rest 429 with Retry-After, from any number of addresses', async () => {
    const rig = memoryCompanion();
    const answers = [];
    for (let attempt = 0; attempt < 60; attempt++) {
      // A different address each time: the order's own limit holds whatever the addresses.
      answers.push(await rig.card('order-ngn:victim', DECLINED, `198.51.100.${attempt}`));
    }
    expect(rig.initiations()).toBeLessThanOrEqual(10);
    expect(rig.initiations()).toBe(5);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(55);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('rate_limited');
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    // The real customer: pays another way at once, and by card once the window has passed.
    const token = await rig.session('order-ngn:victim', '203.0.113.7');
    const transfer = await rig.call('POST', '/initiate', {
      token,
      client: '203.0.113.7',
      body: { channel: 'PayByTransfer' },
    });
    expect(transfer.status).toBe(200);
    expect(transfer.body.payment.virtualAccount.accountNumber).toMatch(/\d/);
    await rig.advance(3601);
    const paid = await rig.card('order-ngn:victim', GOOD, '203.0.113.7');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('SUCCESSFUL');
  });

  it('counts attempts too, so parallel initiations that are never finalized stop at 10', async () => {
    const rig = memoryCompanion();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const token = await rig.session('order-ngn:parallel', `198.51.100.${index}`);
        return rig.call('POST', '/initiate', {
          token,
          client: `198.51.100.${index}`,
          body: {
            channel: 'Card',
            card: {
              number: DECLINED,
              expiryMonth: 12,
              expiryYear: 2040,
              cvv: '123',
              holderName: 'A B',
            },
          },
        });
      }),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(20);
    expect(rig.initiations()).toBe(10);
  });
});

describe('a provider outage', () => {
  it('does not spend the customer’s tries: attempts the provider never took are given back', async () => {
    let down = false;
    const rig = memoryCompanion({ timeouts: { providerMs: 1000 } }, { providerDown: () => down });
    const token = await rig.session('order-usd:outage', '192.0.2.20');
    down = true;
    for (let attempt = 0; attempt < 12; attempt++) {
      const answer = await rig.call('POST', '/initiate', {
        token,
        client: '192.0.2.20',
        body: { channel: 'Card', card: testCard(GOOD) },
      });
      expect(answer.status).toBe(502);
    }
    down = false;
    expect((await rig.card('order-usd:outage', GOOD, '192.0.2.20')).body.status).toBe('SUCCESSFUL');
  });
});

describe('one client declining across many orders', () => {
  it('reaches the provider at most 30 times of 60, while another address pays', async () => {
    const rig = memoryCompanion();
    const statuses: number[] = [];
    for (let order = 0; order < 60; order++) {
      statuses.push((await rig.card(`order-ngn:many-${order}`, DECLINED, '198.51.100.9')).status);
    }
    expect(rig.initiations()).toBeLessThanOrEqual(30);
    expect(rig.initiations()).toBe(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    // A customer of another address is not slowed; the tester's address is, until the window ends.
    const other = await rig.card('order-ngn:neighbour', GOOD, '198.51.100.10');
    expect(other.body.status).toBe('SUCCESSFUL');
    expect((await rig.card('order-ngn:later', GOOD, '198.51.100.9')).status).toBe(429);
    await rig.advance(3601);
    expect((await rig.card('order-ngn:later', GOOD, '198.51.100.9')).body.status).toBe(
      'SUCCESSFUL',
    );
  });

  it('counts a limit of the merchant’s own choosing', async () => {
    const rig = memoryCompanion({ limits: { cardDeclinesPerAddress: 2 } });
    for (let order = 0; order < 5; order++)
      await rig.card(`order-ngn:own-${order}`, DECLINED, '192.0.2.1');
    expect(rig.initiations()).toBe(2);
  });
});

describe('what the browser learns of a decline', () => {
  it('is a plain card_declined, while the merchant hears the precise reason', async () => {
    const rig = memoryCompanion();
    const token = await rig.session('order-ngn:funds', '192.0.2.5');
    const initiated = await rig.call('POST', '/initiate', {
      token,
      client: '192.0.2.5',
      body: {
        channel: 'Card',
        card: {
          number: INSUFFICIENT,
          expiryMonth: 12,
          expiryYear: 2040,
          cvv: '123',
          holderName: 'A B',
        },
      },
    });
    const paymentToken = initiated.body.token;
    await rig.call('POST', '/authenticate', { token: paymentToken });
    const finalized = await rig.call('POST', '/finalize', { token: paymentToken });
    expect(finalized.body).toMatchObject({ status: 'FAILED', reason: 'card_declined' });
    const status = await rig.call('GET', '/status', { token: paymentToken });
    expect(status.body).toMatchObject({ status: 'FAILED', reason: 'card_declined' });
    const again = await rig.call('POST', '/finalize', { token: paymentToken });
    expect(again.body.reason).toBe('card_declined');
    const events = await rig.store.read(`events:${initiated.body.payment.reference}`);
    expect(events.map((event) => (event.value as { reason?: string }).reason)).toEqual([
      'card_declined',
    ]);
    expect(JSON.stringify([finalized.body, status.body, events])).not.toMatch(/insufficient/i);
    expect(rig.outcomes).toEqual([
      expect.objectContaining({ status: 'FAILED', reason: 'insufficient_funds' }),
    ]);
  });
});

describe('the merchant’s own check before a card attempt', () => {
  it('refuses with 403 and no provider call when it says no, and lets the card through when it says yes', async () => {
    const seen: Array<{ orderId: string | null; address: string | null; captcha: string | null }> =
      [];
    const rig = memoryCompanion({
      beforeCardAttempt: async ({ orderId, address, request }) => {
        const captcha = request?.headers.get('x-test-client') === '192.0.2.50' ? 'solved' : null;
        seen.push({ orderId, address, captcha });
        return captcha !== null;
      },
    });
    const refused = await rig.card('order-ngn:captcha', GOOD, '192.0.2.66');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(rig.initiations()).toBe(0);
    const paid = await rig.card('order-ngn:captcha', GOOD, '192.0.2.50');
    expect(paid.body.status).toBe('SUCCESSFUL');
    expect(seen).toEqual([
      { orderId: 'order-ngn:captcha', address: '192.0.2.66', captcha: null },
      { orderId: 'order-ngn:captcha', address: '192.0.2.50', captcha: 'solved' },
    ]);
  });

  it('is not asked for a transfer', async () => {
    let asked = 0;
    const rig = memoryCompanion({
      beforeCardAttempt: () => {
        asked++;
        return false;
      },
    });
    const token = await rig.session('order-ngn:no-captcha');
    const transfer = await rig.call('POST', '/initiate', {
      token,
      body: { channel: 'PayByTransfer' },
    });
    expect(transfer.status).toBe(200);
    expect(asked).toBe(0);
  });
});

describe('bad limits', () => {
  it('are refused at start-up with the limit named', () => {
    expect(() => memoryCompanion({ limits: { cardDeclinesPerOrder: 0 } })).toThrow(
      /limits.cardDeclinesPerOrder must be a whole number from 1/,
    );
    expect(() => memoryCompanion({ limits: { cardDeclinesPerOrdr: 3 } as never })).toThrow(
      /limits.cardDeclinesPerOrdr is not a limit/,
    );
    expect(() => memoryCompanion({ limits: { lockWaitMs: 1.5 } })).toThrow(/lockWaitMs/);
    expect(() => memoryCompanion({ trustProxy: 0 })).toThrow(/trustProxy hops/);
  });
});
