/**
 * Endpoint 2, validate channels: which channels a checkout may offer for a currency and amount.
 */
import { describe, expect, it } from 'vitest';
import { call, sandboxPerTest } from '../../helpers/sandbox';

const VALIDATE = '/api/payment/pay/validate';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sandbox = sandboxPerTest();

async function validate(currencyCode: string, amount: number, channels?: string[]) {
  const answer = await call(sandbox, 'POST', VALIDATE, {
    amount: { currencyCode, amount },
    ...(channels ? { channels } : {}),
  });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.isSuccess).toBe(true);
  const value = answer.body.value as {
    isValid: boolean;
    channels: Array<{ id: string; name: string; alias: string; description: string | null }>;
  };
  return { value, names: value.channels.map((channel) => channel.name).sort() };
}

describe('validate without a filter lists every channel for the currency', () => {
  for (const [currency, amount, expected] of [
    ['NGN', 2500.5, ['Card', 'PayByTransfer']],
    ['GBP', 49.99, ['Card', 'PayByAccount']],
    ['USD', 10, ['Card']],
  ] as const) {
    it(`${currency}: ${expected.join(' and ')}`, async () => {
      const { value, names } = await validate(currency, amount);
      expect(value.isValid).toBe(true);
      expect(names).toEqual([...expected]);
      for (const channel of value.channels) {
        expect(channel.id).toMatch(UUID);
        expect(typeof channel.alias).toBe('string');
        expect(channel.alias.length).toBeGreaterThan(0);
        expect(channel.description === null || typeof channel.description === 'string').toBe(true);
      }
      // Each channel has its own id.
      expect(new Set(value.channels.map((channel) => channel.id)).size).toBe(expected.length);
    });
  }

  it('gives a channel the same id for every currency it takes', async () => {
    const ngn = await validate('NGN', 100);
    const usd = await validate('USD', 100);
    const card = (list: typeof ngn.value.channels) => list.find((c) => c.name === 'Card')?.id;
    expect(card(ngn.value.channels)).toBeDefined();
    expect(card(ngn.value.channels)).toBe(card(usd.value.channels));
  });
});

describe('validate with a channels filter lists only those', () => {
  it('NGN filtered to Card gives Card alone', async () => {
    const { value, names } = await validate('NGN', 2500.5, ['Card']);
    expect(value.isValid).toBe(true);
    expect(names).toEqual(['Card']);
  });

  it('NGN filtered to PayByTransfer gives PayByTransfer alone', async () => {
    const { value, names } = await validate('NGN', 2500.5, ['PayByTransfer']);
    expect(value.isValid).toBe(true);
    expect(names).toEqual(['PayByTransfer']);
  });

  it('GBP filtered to PayByAccount and PayByTransfer gives PayByAccount alone', async () => {
    const { value, names } = await validate('GBP', 49.99, ['PayByAccount', 'PayByTransfer']);
    expect(value.isValid).toBe(true);
    expect(names).toEqual(['PayByAccount']);
  });

  it('NGN filtered to PayByAccount (a channel that does not take NGN) is not valid', async () => {
    const { value, names } = await validate('NGN', 2500.5, ['PayByAccount']);
    expect(value.isValid).toBe(false);
    expect(names).toEqual([]);
  });
});

describe('a currency no channel takes', () => {
  for (const [currency, amount] of [
    ['JPY', 1500],
    ['KWD', 1.5],
    ['EUR', 20],
  ] as const) {
    it(`${currency} gives isValid false and no channels`, async () => {
      const { value } = await validate(currency, amount);
      expect(value.isValid).toBe(false);
      expect(value.channels).toEqual([]);
    });
  }

  it('validate creates no payment', async () => {
    await validate('NGN', 2500.5);
    const payments = await call(sandbox, 'GET', '/__sandbox/payments');
    expect(payments.body.payments).toEqual([]);
  });
});
