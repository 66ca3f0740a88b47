// Bad input gets a clear error and changes nothing (DESIGN.md "Invariants"): the provider client
// refuses amounts that are not money, unknown currencies and missing references with a TypeError
// before any HTTP call, so a bug in a merchant's back office never reaches the provider.
import { describe, expect, it } from 'vitest';
import type { Money } from '../../../src/protocol';
import { createProviderClient } from '../../../src/provider/client';
import { fundTransferInput } from '../../helpers/sandbox';

function offline() {
  const calls: string[] = [];
  const client = createProviderClient({
    baseUrl: 'https://api.provider.example',
    secretKey: 'sk_test_inputs',
    fetch: async (input) => {
      calls.push(String(input));
      return new Response('{}', { status: 500 });
    },
    sleep: async () => {},
  });
  return { client, calls };
}

const BAD_AMOUNTS: ReadonlyArray<[string, Money, RegExp]> = [
  ['zero', { amountMinor: 0, currency: 'NGN' }, /amountMinor/],
  ['negative', { amountMinor: -150_000, currency: 'NGN' }, /amountMinor/],
  ['fractional minor units', { amountMinor: 1.5, currency: 'NGN' }, /amountMinor/],
  ['NaN', { amountMinor: Number.NaN, currency: 'NGN' }, /amountMinor/],
  ['Infinity', { amountMinor: Number.POSITIVE_INFINITY, currency: 'NGN' }, /amountMinor/],
  ['beyond safe integers', { amountMinor: 2 ** 53, currency: 'NGN' }, /amountMinor/],
  ['an unknown currency', { amountMinor: 150_000, currency: 'XYZ' }, /currency.*XYZ|XYZ.*currency/],
  ['a prototype name as currency', { amountMinor: 150_000, currency: 'toString' }, /currency/],
  ['an empty currency', { amountMinor: 150_000, currency: '' }, /currency/],
];

describe('sendFundTransfer refuses before any call', () => {
  it.each(BAD_AMOUNTS)('an amount that is %s', async (_, amount, message) => {
    const { client, calls } = offline();
    const error = await client
      .sendFundTransfer(fundTransferInput({ tenantReference: 'refund-1042', amount }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(message);
    expect(calls).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('an %s tenantReference', async (_, tenantReference) => {
    const { client, calls } = offline();
    await expect(client.sendFundTransfer(fundTransferInput({ tenantReference }))).rejects.toThrow(
      /tenantReference/,
    );
    await expect(
      client.sendFundTransfer(fundTransferInput({ tenantReference })),
    ).rejects.toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });
});

describe('createPaymentLink refuses before any call', () => {
  const link = {
    name: 'Adire tote bag',
    linkType: 'OneTime' as const,
    currency: 'NGN',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
  };

  it('an amount in another currency than the link', async () => {
    const { client, calls } = offline();
    const error = await client
      .createPaymentLink({ ...link, amount: { amountMinor: 4_999, currency: 'GBP' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/currency/);
    expect(calls).toEqual([]);
  });

  it.each(BAD_AMOUNTS.filter(([name]) => !name.includes('currency')))(
    'an amount that is %s',
    async (_, amount, message) => {
      const { client, calls } = offline();
      await expect(client.createPaymentLink({ ...link, amount })).rejects.toThrow(message);
      expect(calls).toEqual([]);
    },
  );

  it('an unknown link currency', async () => {
    const { client, calls } = offline();
    await expect(
      client.createPaymentLink({ name: 'Tip jar', linkType: 'Reusable', currency: 'XYZ' }),
    ).rejects.toThrow(TypeError);
    expect(calls).toEqual([]);
  });

  it('an empty name', async () => {
    const { client, calls } = offline();
    await expect(client.createPaymentLink({ ...link, name: ' ' })).rejects.toThrow(/name/);
    expect(calls).toEqual([]);
  });

  it.each([
    ['relative', '/return'],
    ['javascript:', 'javascript:alert(1)'],
    ['ftp:', 'ftp://shop.example/return'],
    ['empty', ''],
    ['over 2048 characters', `https://shop.example/${'a'.repeat(2028)}`],
    ['not a string', 42 as unknown as string],
  ])('a returnUrl that is %s', async (_, returnUrl) => {
    const { client, calls } = offline();
    await expect(client.createPaymentLink({ ...link, returnUrl })).rejects.toThrow(
      /returnUrl must be an absolute http: or https: URL of at most 2048 characters/,
    );
    expect(calls).toEqual([]);
  });
});

describe('payment operations refuse before any call', () => {
  it.each(BAD_AMOUNTS)('initiatePayment with an amount that is %s', async (_, amount, message) => {
    const { client, calls } = offline();
    await expect(client.initiatePayment({ channel: 'PayByTransfer', amount })).rejects.toThrow(
      message,
    );
    expect(calls).toEqual([]);
  });

  it.each(BAD_AMOUNTS)('validateChannels with an amount that is %s', async (_, amount) => {
    const { client, calls } = offline();
    await expect(client.validateChannels(amount)).rejects.toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });

  it.each(BAD_AMOUNTS)('payoutRequirements with an amount that is %s', async (_, amount) => {
    const { client, calls } = offline();
    await expect(
      client.payoutRequirements({ amount, beneficiaryBankCountry: 'NG' }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });

  it('payoutRequirements without a bank country', async () => {
    const { client, calls } = offline();
    await expect(
      client.payoutRequirements({
        amount: { amountMinor: 150_000, currency: 'NGN' },
        beneficiaryBankCountry: '',
      }),
    ).rejects.toThrow(/beneficiaryBankCountry/);
    expect(calls).toEqual([]);
  });

  it.each([
    ['paymentStatus', (client: ReturnType<typeof offline>['client']) => client.paymentStatus('')],
    [
      'checkAuthentication',
      (client: ReturnType<typeof offline>['client']) => client.checkAuthentication(' '),
    ],
    [
      'finalizePayment',
      (client: ReturnType<typeof offline>['client']) => client.finalizePayment(''),
    ],
  ])('%s without a reference', async (_, run) => {
    const { client, calls } = offline();
    await expect(run(client)).rejects.toThrow(/reference/);
    expect(calls).toEqual([]);
  });
});

describe('creation', () => {
  it.each([
    ['no baseUrl', { baseUrl: undefined as unknown as string, secretKey: 'sk_test_x' }],
    ['a relative baseUrl', { baseUrl: '/api', secretKey: 'sk_test_x' }],
    ['no secretKey', { baseUrl: 'https://api.provider.example', secretKey: '' }],
  ])('with %s throws TypeError at once', (_, options) => {
    expect(() => createProviderClient(options)).toThrow(TypeError);
  });
});
