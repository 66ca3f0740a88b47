// The back office's client methods against a real sandbox (issue 14): payouts looked up by either
// reference and listed with the protocol's status names, requirements as form fields, the
// provider's validation failures on the client's own field names, and strict inputs refused with
// a clear error before any call.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Money } from '../../../src/protocol';
import { createProviderClient, type ProviderClient } from '../../../src/provider/client';
import { advance, call, fundTransferInput, sandboxPerTest } from '../../helpers/sandbox';

const sandbox = sandboxPerTest();
let client: ProviderClient;
let calls: string[];

beforeEach(() => {
  calls = [];
  client = createProviderClient({
    baseUrl: sandbox.url,
    secretKey: sandbox.secretKey,
    backoffMs: 5,
    fetch: (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    },
  });
});

async function sendPayout(overrides: Parameters<typeof fundTransferInput>[0] = {}) {
  const input = fundTransferInput(overrides);
  const outcome = await client.sendFundTransfer(input);
  if (outcome.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return { input, reference: outcome.reference };
}

describe('payoutRequirements as form fields', () => {
  it.each([
    ['NGN', 'NG', 'BankCode', 'Bank code', '\\d{3,6}', '\\d{10}'],
    ['GBP', 'GB', 'SortCode', 'Sort code', '\\d{2}-?\\d{2}-?\\d{2}', '\\d{8}'],
    ['USD', 'US', 'RoutingNumber', 'Routing number', '\\d{9}', '\\d{6,17}'],
  ])(
    '%s: labelled fields with pattern, length and example',
    async (currency, country, type, label, routing, account) => {
      const [requirement] = await client.payoutRequirements({
        amount: { amountMinor: 10_000, currency },
        beneficiaryBankCountry: country,
      });
      expect(requirement?.paymentMethodType).toBe(type);
      const fields = requirement?.fields ?? [];
      expect(fields.map((field) => field.label)).toEqual(['Account name', 'Account number', label]);
      const [, accountNumber, routingField] = fields;
      expect(accountNumber).toMatchObject({
        name: 'beneficiary.accountNumber',
        pattern: account,
        numeric: true,
      });
      expect(routingField).toMatchObject({
        name: 'paymentMethodValue',
        pattern: routing,
        required: true,
      });
      for (const field of fields) {
        if (field.example && field.pattern)
          expect(field.example).toMatch(new RegExp(`^(?:${field.pattern})$`));
      }
    },
  );
});

describe('validation failures on the client field names', () => {
  it('every broken rule on its field: narration, account number, routing value', async () => {
    const outcome = await client.sendFundTransfer(
      fundTransferInput({
        narration: '',
        beneficiary: { accountName: 'Ada Obi', accountNumber: '12' },
        paymentMethodValue: 'x',
      }),
    );
    expect(outcome.status).toBe('invalid');
    if (outcome.status !== 'invalid') return;
    const fields = outcome.failures.map((failure) => failure.field);
    expect(fields).toEqual(
      expect.arrayContaining(['narration', 'beneficiary.accountNumber', 'paymentMethodValue']),
    );
    expect(
      outcome.failures.find((failure) => failure.field === 'beneficiary.accountNumber')?.message,
    ).toMatch(/^Account number /);
  });
});

describe('getPayout', () => {
  it('finds a payout by reference and by tenantReference, Pending then Completed', async () => {
    const { input, reference } = await sendPayout();
    const byReference = await client.getPayout(reference);
    expect(byReference).toMatchObject({
      reference,
      tenantReference: input.tenantReference,
      status: 'Pending',
      amount: { amountMinor: 150_000, currency: 'NGN' },
    });
    await advance(sandbox, 2);
    expect((await client.getPayout(input.tenantReference))?.status).toBe('Completed');
  });

  it('a remembered payout costs one list page, even among many', async () => {
    await sendPayout();
    const { reference } = await sendPayout();
    await client.getPayout(reference);
    calls = [];
    await client.getPayout(reference);
    expect(calls.filter((url) => url.includes('/v1/api/transactions'))).toHaveLength(1);
  });

  it('a failed payout reads Failed, a reversed one Reversed; an unknown one is null', async () => {
    const failed = await sendPayout({
      beneficiary: { accountName: 'Ada Obi', accountNumber: '0000000000' },
    });
    const reversed = await sendPayout();
    await advance(sandbox, 2);
    const reverse = await call(sandbox, 'POST', `/__sandbox/payouts/${reversed.reference}/reverse`);
    expect(reverse.status).toBe(200);
    expect((await client.getPayout(failed.reference))?.status).toBe('Failed');
    expect((await client.getPayout(reversed.reference))?.status).toBe('Reversed');
    expect(await client.getPayout('no-such-payout')).toBeNull();
  });
});

describe('payouts()', () => {
  it('lists payouts only, oldest or newest first, filtered by state', async () => {
    const first = await sendPayout();
    const failing = await sendPayout({
      beneficiary: { accountName: 'Ada Obi', accountNumber: '0000000000' },
    });
    await advance(sandbox, 2);
    const third = await sendPayout();
    const all = [];
    for await (const payout of client.payouts({ perPage: 2 })) all.push(payout.reference);
    expect(all).toEqual([first.reference, failing.reference, third.reference]);
    const newest = [];
    for await (const payout of client.payouts({ newestFirst: true, perPage: 2 }))
      newest.push(payout.reference);
    expect(newest).toEqual([third.reference, failing.reference, first.reference]);
    const failed = [];
    for await (const payout of client.payouts({ status: 'Failed' })) failed.push(payout);
    expect(failed.map((payout) => [payout.reference, payout.status])).toEqual([
      [failing.reference, 'Failed'],
    ]);
  });
});

describe('strict inputs: a clear error, nothing sent', () => {
  function offline() {
    const sent: string[] = [];
    const strict = createProviderClient({
      baseUrl: 'https://api.provider.example',
      secretKey: 'sk_test_strict',
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}', { status: 500 });
      },
      sleep: async () => {},
    });
    return { strict, sent };
  }

  it('an unknown linkType', async () => {
    const { strict, sent } = offline();
    await expect(
      // @ts-expect-error 'Once' is not a link type
      strict.createPaymentLink({ name: 'Tip jar', linkType: 'Once', currency: 'NGN' }),
    ).rejects.toThrow(/linkType must be 'OneTime' or 'Reusable', not "Once"/);
    expect(sent).toEqual([]);
  });

  it('a missing beneficiary', async () => {
    const { strict, sent } = offline();
    const input = { ...fundTransferInput(), beneficiary: undefined };
    // @ts-expect-error beneficiary is required
    await expect(strict.sendFundTransfer(input)).rejects.toThrow(/beneficiary is required/);
    expect(sent).toEqual([]);
  });

  it('perPage above 100, on a page, the transactions and the payouts', async () => {
    const { strict, sent } = offline();
    await expect(strict.transactionPage(1, 101)).rejects.toThrow(
      /perPage must be a whole number from 1 to 100/,
    );
    await expect(strict.transactions({ perPage: 101 }).next()).rejects.toThrow(/perPage/);
    await expect(strict.payouts({ perPage: 500 }).next()).rejects.toThrow(/perPage/);
    expect(sent).toEqual([]);
  });

  it.each<[string, Money]>([
    ['fractional minor units (major units meant)', { amountMinor: 100.5, currency: 'NGN' }],
    ['a string', { amountMinor: '10000' as unknown as number, currency: 'NGN' }],
  ])('an amount that is %s', async (_, amount) => {
    const { strict, sent } = offline();
    await expect(strict.sendFundTransfer(fundTransferInput({ amount }))).rejects.toThrow(
      /whole number of minor units/,
    );
    expect(sent).toEqual([]);
  });

  it('an unknown payout status filter and a bad country code', async () => {
    const { strict, sent } = offline();
    // @ts-expect-error 'completed' is not a PayoutStatus
    await expect(strict.payouts({ status: 'completed' }).next()).rejects.toThrow(
      /Pending, Completed, Failed, Reversed/,
    );
    await expect(
      strict.payoutRequirements({
        amount: { amountMinor: 100, currency: 'NGN' },
        beneficiaryBankCountry: 'Nigeria',
      }),
    ).rejects.toThrow(/two-letter/);
    expect(sent).toEqual([]);
  });
});
