// The back office's payouts through createProviderClient against a real sandbox: requirements,
// every outcome of a fund transfer, and above all the retry path. A payout is sent at most once
// per tenantReference however often a lost answer forces a retry (DESIGN.md "Invariants",
// provider-api.md rule 10): one payout in the provider, one debit of the wallet.
import { beforeEach, describe, expect, it } from 'vitest';
import { ProviderUnavailableError } from '../../../src/protocol';
import { createProviderClient, type ProviderClient } from '../../../src/provider/client';
import {
  fundTransferInput,
  injectFault,
  listPayouts,
  sandboxPerTest,
  walletBalance,
} from '../../helpers/sandbox';

const NGN_START = 1_000_000_000;
const FUND_TRANSFER_PATH = '/payout/Disbursement/Payout/FundTransfer';

const sandbox = sandboxPerTest();
let client: ProviderClient;
let sent: Array<{ url: string; body: string | undefined }>;

beforeEach(() => {
  sent = [];
  const recording: typeof fetch = (input, init) => {
    sent.push({ url: String(input), body: typeof init?.body === 'string' ? init.body : undefined });
    return fetch(input, init);
  };
  client = createProviderClient({
    baseUrl: sandbox.url,
    secretKey: sandbox.secretKey,
    fetch: recording,
    backoffMs: 5,
  });
});

function fundTransferCalls() {
  return sent.filter((entry) => entry.url.endsWith(FUND_TRANSFER_PATH));
}

describe('payoutRequirements', () => {
  it.each([
    ['NGN', 'NG', 'BankCode'],
    ['GBP', 'GB', 'SortCode'],
    ['USD', 'US', 'RoutingNumber'],
  ])('%s to a %s bank needs a %s and the account fields', async (currency, country, name) => {
    const requirements = await client.payoutRequirements({
      amount: { amountMinor: 150_000, currency },
      beneficiaryBankCountry: country,
    });
    expect(JSON.parse(sent.at(-1)?.body ?? '{}')).toEqual({
      BeneficiaryCurrencyCode: currency,
      BeneficiaryBankCountryCode: country,
      CurrencyCode: currency,
      Amount: '150000',
    });
    expect(requirements).toHaveLength(1);
    const [requirement] = requirements;
    expect(requirement).toMatchObject({
      paymentMethodType: name,
      currency,
      paymentDestination: 'Local',
    });
    expect(requirement?.fields.map((field) => field.name)).toEqual([
      'beneficiary.accountName',
      'beneficiary.accountNumber',
      'paymentMethodValue',
    ]);
  });

  it("the requirement's name is the paymentMethodType a GBP transfer is accepted with", async () => {
    const [requirement] = await client.payoutRequirements({
      amount: { amountMinor: 2_500, currency: 'GBP' },
      beneficiaryBankCountry: 'GB',
    });
    const outcome = await client.sendFundTransfer(
      fundTransferInput({
        amount: { amountMinor: 2_500, currency: 'GBP' },
        beneficiary: { accountName: 'Ada Obi', accountNumber: '12345678' },
        paymentMethodType: requirement?.paymentMethodType ?? '',
        paymentMethodValue: '40-47-84',
      }),
    );
    expect(outcome.status).toBe('accepted');
    expect(await walletBalance(sandbox, 'GBP')).toBe(10_000_000 - 2_500);
  });
});

describe('sendFundTransfer outcomes', () => {
  it('accepted: the reference and our tenantReference, Pending, wallet debited', async () => {
    const input = fundTransferInput();
    const outcome = await client.sendFundTransfer(input);
    expect(outcome).toEqual({
      status: 'accepted',
      reference: expect.stringMatching(/\S/),
      tenantReference: input.tenantReference,
    });
    expect(JSON.parse(fundTransferCalls()[0]?.body ?? '{}')).toMatchObject({
      tenantReference: input.tenantReference,
      amount: '150000',
      currencyCode: 'NGN',
      narration: 'Refund for order 1042',
      beneficiaryAccountName: 'Ada Obi',
      beneficiaryAccountNumber: '0123456789',
      paymentMethodType: 'BankCode',
      paymentMethodValue: '058',
    });
    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      reference: outcome.status === 'accepted' ? outcome.reference : '',
      tenantReference: input.tenantReference,
      status: 'Pending',
      amount: '150000',
    });
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('invalid: an empty narration comes back with failures naming narration, nothing sent', async () => {
    const outcome = await client.sendFundTransfer(fundTransferInput({ narration: '' }));
    expect(outcome.status).toBe('invalid');
    if (outcome.status !== 'invalid') return;
    expect(outcome.failures).toContainEqual({
      field: 'narration',
      message: expect.stringMatching(/^Narration /),
    });
    expect(outcome.providerFailures.some((failure) => /narration/i.test(failure))).toBe(true);
    expect(outcome.message).toMatch(/\S/);
    expect(await listPayouts(sandbox)).toHaveLength(0);
    expect(await walletBalance(sandbox)).toBe(NGN_START);
  });

  it('insufficient_balance: a payout above the wallet is refused, balance untouched', async () => {
    const outcome = await client.sendFundTransfer(
      fundTransferInput({ amount: { amountMinor: NGN_START + 1, currency: 'NGN' } }),
    );
    expect(outcome.status).toBe('insufficient_balance');
    if (outcome.status !== 'insufficient_balance') return;
    expect(outcome.message).toMatch(/balance/i);
    expect(await listPayouts(sandbox)).toHaveLength(0);
    expect(await walletBalance(sandbox)).toBe(NGN_START);
  });

  it('conflict: the same tenantReference with another amount is refused, the original stands', async () => {
    const input = fundTransferInput();
    const first = await client.sendFundTransfer(input);
    expect(first.status).toBe('accepted');
    const clash = await client.sendFundTransfer({
      ...input,
      amount: { amountMinor: 150_001, currency: 'NGN' },
    });
    expect(clash.status).toBe('conflict');
    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0].amount).toBe('150000');
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('the same transfer sent twice in a row is the one payout', async () => {
    const input = fundTransferInput();
    const first = await client.sendFundTransfer(input);
    const again = await client.sendFundTransfer(input);
    expect(again).toEqual(first);
    expect(await listPayouts(sandbox)).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });
});

describe('the retry path', () => {
  it('a lost response (the provider made the payout, the answer never came) is retried into the one payout', async () => {
    await injectFault(sandbox, 'fundTransfer', [{ type: 'lostResponse' }]);
    const input = fundTransferInput();
    const outcome = await client.sendFundTransfer(input);
    expect(outcome.status).toBe('accepted');
    if (outcome.status !== 'accepted') return;
    expect(outcome.tenantReference).toBe(input.tenantReference);

    const calls = fundTransferCalls();
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toBe(calls[0]?.body);

    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      reference: outcome.reference,
      tenantReference: input.tenantReference,
    });
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('a dropped connection then a 503 are retried with the same body into one payout', async () => {
    await injectFault(sandbox, 'fundTransfer', [{ type: 'drop' }, { type: 'error', status: 503 }]);
    const input = fundTransferInput();
    const outcome = await client.sendFundTransfer(input);
    expect(outcome).toMatchObject({ status: 'accepted', tenantReference: input.tenantReference });

    const calls = fundTransferCalls();
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((entry) => entry.body)).size).toBe(1);
    expect(JSON.parse(calls[0]?.body ?? '{}').tenantReference).toBe(input.tenantReference);

    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0].tenantReference).toBe(input.tenantReference);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('when every attempt is lost it throws (outcome unknown); a later retry finds the one payout', async () => {
    await injectFault(sandbox, 'fundTransfer', [
      { type: 'lostResponse' },
      { type: 'drop' },
      { type: 'drop' },
    ]);
    const input = fundTransferInput();
    await expect(client.sendFundTransfer(input)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await listPayouts(sandbox)).toHaveLength(1);

    const later = await client.sendFundTransfer(input);
    expect(later).toMatchObject({ status: 'accepted', tenantReference: input.tenantReference });
    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(later.status === 'accepted' && later.reference).toBe(list[0].reference);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('a rate limit is waited out (Retry-After 0) and the transfer goes through once', async () => {
    await injectFault(sandbox, 'fundTransfer', [{ type: 'rateLimit', retryAfterSeconds: 0 }]);
    const outcome = await client.sendFundTransfer(fundTransferInput());
    expect(outcome.status).toBe('accepted');
    expect(fundTransferCalls()).toHaveLength(2);
    expect(await listPayouts(sandbox)).toHaveLength(1);
  });

  it('20 concurrent sends of the same transfer make one payout and one debit', async () => {
    const input = fundTransferInput();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => client.sendFundTransfer(input)),
    );
    const references = new Set<string>();
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('accepted');
      if (outcome.status === 'accepted') {
        expect(outcome.tenantReference).toBe(input.tenantReference);
        references.add(outcome.reference);
      }
    }
    expect(references.size).toBe(1);
    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(references.has(list[0].reference)).toBe(true);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });
});
