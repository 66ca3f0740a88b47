// Payouts as a merchant's integration sees them over HTTP: what the payout form must ask for
// (endpoint 7), the fund transfer (endpoint 8) and its life afterwards: Pending, then Completed or
// Failed, Reversed on the bank's return, with the wallet and the webhooks to match.
import { describe, expect, it } from 'vitest';
import {
  advance,
  call,
  eventually,
  fundTransfer,
  sandboxAndReceiverPerTest,
} from '../../helpers/sandbox';

const PAYMENT_METHODS = '/payout/Disbursement/Payout/PaymentMethods';
const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';
const NGN_START = 1_000_000_000;

const { sandbox, receiver } = sandboxAndReceiverPerTest();

async function balance(currency: string): Promise<number> {
  const answer = await call(sandbox, 'GET', '/__sandbox/wallets');
  expect(answer.status).toBe(200);
  return answer.body.wallets[currency].balanceMinor;
}

// biome-ignore lint/suspicious/noExplicitAny: the control's JSON as it came
async function payouts(): Promise<any[]> {
  const answer = await call(sandbox, 'GET', '/__sandbox/payouts');
  expect(answer.status).toBe(200);
  return answer.body.payouts;
}

async function send(overrides: Record<string, unknown> = {}) {
  const body = fundTransfer(overrides);
  const answer = await call(sandbox, 'POST', FUND_TRANSFER, body);
  expect(answer.status, answer.text).toBe(202);
  return { body, reference: answer.body.value.reference as string, answer };
}

describe('payout requirements (endpoint 7)', () => {
  it.each([
    ['NGN', 'NG', 'BankCode'],
    ['GBP', 'GB', 'SortCode'],
    ['USD', 'US', 'RoutingNumber'],
  ])(
    '%s to a %s bank needs a %s and the beneficiary account fields',
    async (currency, country, name) => {
      const answer = await call(sandbox, 'POST', PAYMENT_METHODS, {
        BeneficiaryCurrencyCode: currency,
        BeneficiaryBankCountryCode: country,
        CurrencyCode: currency,
        Amount: '150000',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.isSuccess).toBe(true);
      expect(Array.isArray(answer.body.value)).toBe(true);
      expect(answer.body.value).toHaveLength(1);
      const [requirement] = answer.body.value;
      expect(requirement.name).toBe(name);
      expect(requirement.currency).toBe(currency);
      expect(typeof requirement.requireFileUpload).toBe('boolean');
      expect(typeof requirement.paymentDestination).toBe('string');
      expect(requirement.metaData).toHaveProperty('beneficiaryAccountNumber');
      expect(requirement.metaData).toHaveProperty('beneficiaryAccountName');
    },
  );

  it.each([
    [
      'cross-currency (GBP beneficiary from the NGN wallet)',
      { BeneficiaryCurrencyCode: 'GBP', BeneficiaryBankCountryCode: 'GB', CurrencyCode: 'NGN' },
      /BeneficiaryCurrencyCode/,
    ],
    [
      'an NGN payout to a British bank',
      { BeneficiaryCurrencyCode: 'NGN', BeneficiaryBankCountryCode: 'GB', CurrencyCode: 'NGN' },
      /BeneficiaryBankCountryCode/,
    ],
    [
      'a currency that does not exist',
      { BeneficiaryCurrencyCode: 'XYZ', BeneficiaryBankCountryCode: 'NG', CurrencyCode: 'XYZ' },
      /CurrencyCode/,
    ],
    [
      'a currency with no wallet (EUR)',
      { BeneficiaryCurrencyCode: 'EUR', BeneficiaryBankCountryCode: 'DE', CurrencyCode: 'EUR' },
      /CurrencyCode/,
    ],
  ])('refuses %s with a ValidationException', async (_, fields, named) => {
    const answer = await call(sandbox, 'POST', PAYMENT_METHODS, { ...fields, Amount: '150000' });
    expect(answer.status).toBe(400);
    expect(answer.body.isSuccess).toBe(false);
    expect(answer.body.type).toBe('ValidationException');
    expect(answer.body.failures.some((text: string) => named.test(text))).toBe(true);
  });

  it('lists every missing field at once', async () => {
    const answer = await call(sandbox, 'POST', PAYMENT_METHODS, {});
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('ValidationException');
    for (const field of [
      'BeneficiaryCurrencyCode',
      'BeneficiaryBankCountryCode',
      'CurrencyCode',
      'Amount',
    ]) {
      expect(
        answer.body.failures.some((text: string) => text.startsWith(`${field} `)),
        `${field} in ${JSON.stringify(answer.body.failures)}`,
      ).toBe(true);
    }
  });
});

describe('fund transfer (endpoint 8)', () => {
  it('accepts with 202, is Pending, and debits the wallet at once', async () => {
    const { body, answer } = await send();
    expect(answer.body.isSuccess).toBe(true);
    expect(answer.body.message).toMatch(/process/i);
    expect(typeof answer.body.value.reference).toBe('string');
    expect(answer.body.value.reference).not.toBe('');
    expect(answer.body.value.tenantReference).toBe(body.tenantReference);

    const [payout, ...others] = await payouts();
    expect(others).toEqual([]);
    expect(payout).toMatchObject({
      reference: answer.body.value.reference,
      tenantReference: body.tenantReference,
      status: 'Pending',
      amount: '150000',
      currency: 'NGN',
    });
    expect(await balance('NGN')).toBe(NGN_START - 150_000);
    expect(receiver.received).toHaveLength(0);
  });

  it('completes when the clock moves, with a payout.success webhook; the debit stands', async () => {
    const { body, reference } = await send();
    await advance(sandbox, 2);
    expect((await payouts())[0].status).toBe('Completed');
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json).toMatchObject({
      event: 'payout.success',
      data: {
        reference,
        tenantReference: body.tenantReference,
        status: 'Completed',
        amount: '150000',
        currency: 'NGN',
      },
    });
    expect(await balance('NGN')).toBe(NGN_START - 150_000);
  });

  it('completes about a second later in real time without any clock control', async () => {
    const started = Date.now();
    const { reference } = await send();
    expect((await payouts())[0].status).toBe('Pending');
    const settled = await eventually(payouts, (list) => list[0]?.status === 'Completed', 4000);
    expect(settled[0].reference).toBe(reference);
    // "About a second": not instantly, and not long after.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json.event).toBe('payout.success');
  });

  it('fails for beneficiary account 0000000000, sends payout.failed and restores the wallet', async () => {
    const { body, reference } = await send({ beneficiaryAccountNumber: '0000000000' });
    expect(await balance('NGN')).toBe(NGN_START - 150_000);
    await advance(sandbox, 2);
    expect((await payouts())[0]).toMatchObject({ reference, status: 'Failed' });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json).toMatchObject({
      event: 'payout.failed',
      data: { reference, tenantReference: body.tenantReference, status: 'Failed' },
    });
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('pays out from the GBP and USD wallets with their own routing fields', async () => {
    await send({
      currencyCode: 'GBP',
      paymentMethodType: 'SortCode',
      paymentMethodValue: '040004',
    });
    await send({
      currencyCode: 'USD',
      amount: '2500',
      paymentMethodType: 'RoutingNumber',
      paymentMethodValue: '021000021',
    });
    expect(await balance('GBP')).toBe(10_000_000 - 150_000);
    expect(await balance('USD')).toBe(10_000_000 - 2500);
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('reverses a Completed payout: Reversed, payout.reversed, wallet credited back', async () => {
    const { reference } = await send();
    await advance(sandbox, 2);
    await receiver.waitFor(1);
    const answer = await call(sandbox, 'POST', `/__sandbox/payouts/${reference}/reverse`);
    expect(answer.status).toBe(200);
    expect(answer.body.payout).toMatchObject({ reference, status: 'Reversed' });
    expect((await payouts())[0].status).toBe('Reversed');
    const webhooks = await receiver.waitFor(2);
    expect(webhooks.map((webhook) => webhook.json.event)).toEqual([
      'payout.success',
      'payout.reversed',
    ]);
    expect(webhooks[1]?.json.data).toMatchObject({ reference, status: 'Reversed' });
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('refuses to reverse a Pending payout with 409 and leaves it be', async () => {
    const { reference } = await send();
    const answer = await call(sandbox, 'POST', `/__sandbox/payouts/${reference}/reverse`);
    expect(answer.status).toBe(409);
    expect((await payouts())[0].status).toBe('Pending');
    expect(await balance('NGN')).toBe(NGN_START - 150_000);
  });

  it('refuses to reverse a Failed payout with 409: the money is not credited twice', async () => {
    const { reference } = await send({ beneficiaryAccountNumber: '0000000000' });
    await advance(sandbox, 2);
    expect((await payouts())[0].status).toBe('Failed');
    const answer = await call(sandbox, 'POST', `/__sandbox/payouts/${reference}/reverse`);
    expect(answer.status).toBe(409);
    expect((await payouts())[0].status).toBe('Failed');
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('refuses to reverse a payout twice', async () => {
    const { reference } = await send();
    await advance(sandbox, 2);
    expect((await call(sandbox, 'POST', `/__sandbox/payouts/${reference}/reverse`)).status).toBe(
      200,
    );
    const again = await call(sandbox, 'POST', `/__sandbox/payouts/${reference}/reverse`);
    expect(again.status).toBe(409);
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('answers 404 when reversing an unknown payout', async () => {
    const answer = await call(sandbox, 'POST', '/__sandbox/payouts/PO_DOESNOTEXIST/reverse');
    expect(answer.status).toBe(404);
    expect(await payouts()).toEqual([]);
  });

  it('answers 401 without the key and creates nothing', async () => {
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer(), { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body.isSuccess).toBe(false);
    const wrong = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer(), { key: 'sk_wrong' });
    expect(wrong.status).toBe(401);
    expect(await payouts()).toEqual([]);
    expect(await balance('NGN')).toBe(NGN_START);
  });
});

describe('insufficient balance', () => {
  it('answers 400 exactly as provider-api.md shows and debits nothing', async () => {
    const answer = await call(
      sandbox,
      'POST',
      FUND_TRANSFER,
      fundTransfer({ amount: '1000000001' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.isSuccess).toBe(false);
    expect(answer.body.status).toBe(400);
    expect(answer.body.extensions).toEqual({});
    expect(typeof answer.body.error).toBe('string');
    expect(typeof answer.body.message).toBe('string');
    for (const text of [answer.body.error, answer.body.message]) {
      expect(text).toMatch(/balance/i);
      expect(text).toMatch(/not sufficient|insufficient/i);
    }
    // A balance problem, not a validation problem: no ValidationException, no failures.
    expect(answer.body.type).toBeUndefined();
    expect(answer.body.failures).toBeUndefined();
    expect(await payouts()).toEqual([]);
    expect(await balance('NGN')).toBe(NGN_START);
  });

  it('accepts a payout of exactly the whole balance, then refuses the next kobo', async () => {
    await send({ amount: String(NGN_START) });
    expect(await balance('NGN')).toBe(0);
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer({ amount: '1' }));
    expect(answer.status).toBe(400);
    expect(answer.body.extensions).toEqual({});
    expect(await payouts()).toHaveLength(1);
  });
});
