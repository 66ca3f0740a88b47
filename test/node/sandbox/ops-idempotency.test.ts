// A payout is sent at most once per tenantReference, however often a timeout forces a retry
// (provider-api.md rule 10, DESIGN.md): concurrent duplicates, clashes, and a lost response.
import { describe, expect, it } from 'vitest';
import {
  advance,
  call,
  fundTransfer,
  listPayouts,
  pause,
  sandboxAndReceiverPerTest,
  walletBalance,
} from '../../helpers/sandbox';

const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';
const NGN_START = 1_000_000_000;

const { sandbox, receiver } = sandboxAndReceiverPerTest();

describe('fund transfer idempotency', () => {
  it('20 concurrent sends of one transfer make one payout, one debit and one webhook', async () => {
    const body = fundTransfer();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(sandbox, 'POST', FUND_TRANSFER, body)),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body.isSuccess).toBe(true);
      expect(answer.body.value.tenantReference).toBe(body.tenantReference);
    }
    const references = new Set(answers.map((answer) => answer.body.value.reference));
    expect(references.size).toBe(1);

    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    expect(list[0].reference).toBe(answers[0]?.body.value.reference);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);

    await advance(sandbox, 2);
    await receiver.waitFor(1);
    await pause(300); // room for a second webhook, were there one
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.json.event).toBe('payout.success');
    expect(receiver.received[0]?.json.data.tenantReference).toBe(body.tenantReference);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks')).body.webhooks).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('a retry after settlement returns the same transfer and sends nothing again', async () => {
    const body = fundTransfer();
    const first = await call(sandbox, 'POST', FUND_TRANSFER, body);
    await advance(sandbox, 2);
    await receiver.waitFor(1);
    const retry = await call(sandbox, 'POST', FUND_TRANSFER, body);
    expect(retry.status).toBe(202);
    expect(retry.body.value.reference).toBe(first.body.value.reference);
    await advance(sandbox, 2);
    await pause(150);
    expect(await listPayouts(sandbox)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('a retry in another key order is the same transfer', async () => {
    const body = fundTransfer();
    const first = await call(sandbox, 'POST', FUND_TRANSFER, body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await call(sandbox, 'POST', FUND_TRANSFER, reordered);
    expect(retry.status).toBe(202);
    expect(retry.body.value.reference).toBe(first.body.value.reference);
    expect(await listPayouts(sandbox)).toHaveLength(1);
  });

  it.each([
    ['amount', { amount: '150001' }],
    ['beneficiary account', { beneficiaryAccountNumber: '0123456780' }],
    ['narration', { narration: 'Another refund' }],
  ])(
    'refuses the same tenantReference with a different %s: 409, original stands',
    async (_, change) => {
      const body = fundTransfer();
      const first = await call(sandbox, 'POST', FUND_TRANSFER, body);
      expect(first.status).toBe(202);
      const clash = await call(sandbox, 'POST', FUND_TRANSFER, { ...body, ...change });
      expect(clash.status).toBe(409);
      expect(clash.body.isSuccess).toBe(false);
      const list = await listPayouts(sandbox);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        reference: first.body.value.reference,
        tenantReference: body.tenantReference,
        amount: '150000',
        beneficiaryAccountNumber: body.beneficiaryAccountNumber,
        status: 'Pending',
      });
      expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
      // And the original still settles as sent.
      await advance(sandbox, 2);
      const [webhook] = await receiver.waitFor(1);
      expect(webhook?.json.data).toMatchObject({ amount: '150000', status: 'Completed' });
    },
  );

  it('racing sends of two bodies under one tenantReference: one payout, the other body 409', async () => {
    const body = fundTransfer();
    const other = { ...body, amount: '150001' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(sandbox, 'POST', FUND_TRANSFER, index % 2 === 0 ? body : other),
      ),
    );
    const list = await listPayouts(sandbox);
    expect(list).toHaveLength(1);
    const winner = list[0].amount === '150000' ? 0 : 1;
    for (const [index, answer] of answers.entries()) {
      if (index % 2 === winner) {
        expect(answer.status, answer.text).toBe(202);
        expect(answer.body.value.reference).toBe(list[0].reference);
      } else {
        expect(answer.status, answer.text).toBe(409);
      }
    }
    expect(await walletBalance(sandbox)).toBe(NGN_START - Number(list[0].amount));
  });

  it('different tenantReferences are different transfers', async () => {
    const a = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer());
    const b = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer());
    expect(a.body.value.reference).not.toBe(b.body.value.reference);
    expect(await listPayouts(sandbox)).toHaveLength(2);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 300_000);
  });

  it('a retry while the first request is still in flight (slow provider) is the same transfer', async () => {
    await call(sandbox, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'fundTransfer', steps: [{ type: 'latency', ms: 300 }] }],
    });
    const body = fundTransfer();
    const slow = call(sandbox, 'POST', FUND_TRANSFER, body);
    await pause(50); // the merchant's client times out and retries
    const retry = await call(sandbox, 'POST', FUND_TRANSFER, body);
    const first = await slow;
    expect(retry.status).toBe(202);
    expect(first.status).toBe(202);
    expect(first.body.value.reference).toBe(retry.body.value.reference);
    expect(await listPayouts(sandbox)).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });

  it('a retry after a lost response returns the original transfer; there is still one payout', async () => {
    const config = await call(sandbox, 'POST', '/__sandbox/config', {
      faults: [{ endpoint: 'fundTransfer', steps: [{ type: 'lostResponse' }] }],
    });
    expect(config.status).toBe(200);
    const body = fundTransfer();
    // The change is made, then the connection is cut: the merchant sees a network error.
    await expect(call(sandbox, 'POST', FUND_TRANSFER, body)).rejects.toThrow();
    const made = await listPayouts(sandbox);
    expect(made).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);

    const retry = await call(sandbox, 'POST', FUND_TRANSFER, body);
    expect(retry.status).toBe(202);
    expect(retry.body.value.reference).toBe(made[0].reference);
    expect(retry.body.value.tenantReference).toBe(body.tenantReference);
    expect(await listPayouts(sandbox)).toHaveLength(1);
    expect(await walletBalance(sandbox)).toBe(NGN_START - 150_000);
  });
});
