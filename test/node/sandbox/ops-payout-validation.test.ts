// Fund transfer validation: every violated rule in `failures` at once, as provider-api.md's
// ValidationException shows, and a refused transfer never creates a payout or moves money.
import { describe, expect, it } from 'vitest';
import { type Answer, call, fundTransfer, sandboxPerTest } from '../../helpers/sandbox';

const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';
const STARTING = { NGN: 1_000_000_000, GBP: 10_000_000, USD: 10_000_000 };

const REQUIRED = [
  'tenantReference',
  'amount',
  'currencyCode',
  'narration',
  'beneficiaryAccountName',
  'beneficiaryAccountNumber',
  'paymentMethodType',
  'paymentMethodValue',
];

const sandbox = sandboxPerTest();

/** The failure texts that name `field` (as a word, so `amount` does not match `amounts`). */
function naming(answer: Answer, field: string): string[] {
  const pattern = new RegExp(`\\b${field}\\b`);
  return (answer.body.failures as string[]).filter((text) => pattern.test(text));
}

function expectValidationException(answer: Answer): void {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.isSuccess).toBe(false);
  expect(answer.body.type).toBe('ValidationException');
  expect(answer.body.status).toBe(400);
  expect(Array.isArray(answer.body.failures)).toBe(true);
}

async function expectNothingChanged(): Promise<void> {
  const list = await call(sandbox, 'GET', '/__sandbox/payouts');
  expect(list.body.payouts).toEqual([]);
  const wallets = await call(sandbox, 'GET', '/__sandbox/wallets');
  for (const [currency, minor] of Object.entries(STARTING)) {
    expect(wallets.body.wallets[currency].balanceMinor).toBe(minor);
  }
  const transactions = await call(sandbox, 'GET', '/v1/api/transactions');
  expect(transactions.body.meta.total).toBe(0);
}

async function transfer(overrides: Record<string, unknown>): Promise<Answer> {
  return call(sandbox, 'POST', FUND_TRANSFER, fundTransfer(overrides));
}

describe('fund transfer validation', () => {
  it('lists all 8 required fields at once for an empty object', async () => {
    const answer = await call(sandbox, 'POST', FUND_TRANSFER, {});
    expectValidationException(answer);
    for (const field of REQUIRED) {
      expect(naming(answer, field), `${field} in ${answer.text}`).not.toEqual([]);
    }
    expect(answer.body.failures.length).toBeGreaterThanOrEqual(REQUIRED.length);
    await expectNothingChanged();
  });

  it('refuses an empty narration with the full ValidationException of provider-api.md', async () => {
    const answer = await transfer({ narration: '' });
    expectValidationException(answer);
    expect(typeof answer.body.title).toBe('string');
    expect(answer.body.title).not.toBe('');
    expect(typeof answer.body.detail).toBe('string');
    expect(answer.body.detail).not.toBe('');
    expect(typeof answer.body.extensions.traceId).toBe('string');
    expect(answer.body.extensions.traceId).not.toBe('');
    expect(answer.body.failures).toHaveLength(1);
    expect(naming(answer, 'narration')).toHaveLength(1);
    await expectNothingChanged();
  });

  it('refuses a narration of blanks as empty', async () => {
    const answer = await transfer({ narration: '   ' });
    expectValidationException(answer);
    expect(naming(answer, 'narration')).toHaveLength(1);
    await expectNothingChanged();
  });

  it('gives every failure its own trace id', async () => {
    const first = await transfer({ narration: '' });
    const second = await transfer({ narration: '' });
    expect(first.body.extensions.traceId).not.toBe(second.body.extensions.traceId);
  });

  it.each([
    ['a number instead of a string', 150000],
    ['decimals', '12.5'],
    ['a negative amount', '-5'],
    ['zero', '0'],
    ['an empty string', ''],
    ['16 digits, although the balance would be short as well', '1234567890123456'],
    ['digits with a space', '150 000'],
  ])('refuses an amount of %s', async (_, amount) => {
    const answer = await transfer({ amount });
    expectValidationException(answer);
    expect(naming(answer, 'amount')).not.toEqual([]);
    await expectNothingChanged();
  });

  it('accepts 15 digits as far as validation goes (then the balance decides)', async () => {
    const answer = await transfer({ amount: '999999999999999' });
    // Not a validation failure: the insufficient-balance answer, with extensions {}.
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBeUndefined();
    expect(answer.body.extensions).toEqual({});
    await expectNothingChanged();
  });

  it('refuses a currency with no wallet (EUR)', async () => {
    const answer = await transfer({ currencyCode: 'EUR' });
    expectValidationException(answer);
    expect(naming(answer, 'currencyCode')).not.toEqual([]);
    await expectNothingChanged();
  });

  it.each([
    ['SortCode', 'NGN'],
    ['RoutingNumber', 'NGN'],
    ['BankCode', 'GBP'],
  ])('refuses paymentMethodType %s for %s', async (paymentMethodType, currencyCode) => {
    const answer = await transfer({
      paymentMethodType,
      currencyCode,
      // A value that would suit the named type, so that only the type is wrong.
      paymentMethodValue:
        paymentMethodType === 'SortCode'
          ? '040004'
          : paymentMethodType === 'RoutingNumber'
            ? '021000021'
            : '058',
    });
    expectValidationException(answer);
    expect(naming(answer, 'paymentMethodType')).not.toEqual([]);
    await expectNothingChanged();
  });

  it.each([
    ['NGN', 'BankCode', 'ABC'],
    ['NGN', 'BankCode', '12'],
    ['GBP', 'SortCode', '12345'],
    ['USD', 'RoutingNumber', '12345678'],
  ])('refuses a malformed %s %s "%s"', async (currencyCode, paymentMethodType, value) => {
    const answer = await transfer({ currencyCode, paymentMethodType, paymentMethodValue: value });
    expectValidationException(answer);
    expect(naming(answer, 'paymentMethodValue')).not.toEqual([]);
    await expectNothingChanged();
  });

  it('refuses an unknown field, naming it', async () => {
    const answer = await transfer({ beneficiaryNickname: 'Ada' });
    expectValidationException(answer);
    expect(naming(answer, 'beneficiaryNickname')).toHaveLength(1);
    await expectNothingChanged();
  });

  it('lists several violations together', async () => {
    const answer = await transfer({
      narration: '',
      amount: '-5',
      paymentMethodValue: 'not-a-code',
      beneficiaryNickname: 'Ada',
    });
    expectValidationException(answer);
    for (const field of ['narration', 'amount', 'paymentMethodValue', 'beneficiaryNickname']) {
      expect(naming(answer, field), `${field} in ${answer.text}`).not.toEqual([]);
    }
    expect(answer.body.failures.length).toBeGreaterThanOrEqual(4);
    await expectNothingChanged();
  });

  it('refuses a body that is not JSON, and one sent as another content type', async () => {
    const broken = await call(sandbox, 'POST', FUND_TRANSFER, undefined, { rawBody: '{"amount":' });
    expectValidationException(broken);
    const form = await call(sandbox, 'POST', FUND_TRANSFER, undefined, {
      rawBody: JSON.stringify(fundTransfer()),
      headers: { 'content-type': 'text/plain' },
    });
    expectValidationException(form);
    await expectNothingChanged();
  });
});
