// Endpoint 9, the transaction list: its own envelope, integer subunit amounts, and pages a
// merchant can walk with provider-api.md's rule "the last page is when meta.page >= meta.pageCount".
import { describe, expect, it } from 'vitest';
import { call, fundTransfer, sandboxPerTest, TRANSFER_INITIATION } from '../../helpers/sandbox';

const LIST = '/v1/api/transactions';
const INITIATE = '/api/payment/pay/initiate';
const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';

const sandbox = sandboxPerTest();

async function pay(amount: number = TRANSFER_INITIATION.amount): Promise<string> {
  const answer = await call(sandbox, 'POST', INITIATE, { ...TRANSFER_INITIATION, amount });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value.paymentItem.reference;
}

async function payOut(amount = '150000'): Promise<string> {
  const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer({ amount }));
  expect(answer.status, answer.text).toBe(202);
  return answer.body.value.reference;
}

/** Creates `count` transactions one after another, payments and payouts mixed. */
async function create(count: number): Promise<string[]> {
  const references: string[] = [];
  for (let index = 0; index < count; index++) {
    references.push(index % 3 === 2 ? await payOut(String(1000 + index)) : await pay(100 + index));
  }
  return references;
}

describe('transactions list', () => {
  it('defaults to page 1 of 20 with exactly the meta of provider-api.md', async () => {
    await create(3);
    const answer = await call(sandbox, 'GET', LIST);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(true);
    expect(Object.keys(answer.body.meta).sort()).toEqual(
      ['page', 'pageCount', 'perPage', 'skipped', 'total'].sort(),
    );
    expect(answer.body.meta).toEqual({ page: 1, pageCount: 1, total: 3, perPage: 20, skipped: 0 });
    expect(answer.body.data).toHaveLength(3);
  });

  it('answers an empty list when there is nothing yet', async () => {
    const answer = await call(sandbox, 'GET', LIST);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(true);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta.total).toBe(0);
    expect(answer.body.meta.page).toBe(1);
  });

  it('lists amounts as integers in subunits: a 2500.5 NGN payment is 250050', async () => {
    const payment = await pay(2500.5);
    const payout = await payOut('150000');
    const answer = await call(sandbox, 'GET', LIST);
    const [first, second] = answer.body.data;
    expect(first).toMatchObject({ id: payment, amount: 250050, currency: 'NGN' });
    expect(second).toMatchObject({ id: payout, amount: 150000, currency: 'NGN' });
    for (const item of answer.body.data) {
      expect(Number.isInteger(item.amount)).toBe(true);
      expect(typeof item.id).toBe('string');
      expect(typeof item.status).toBe('string');
    }
  });

  it('shows each transaction status as it moves', async () => {
    const payment = await pay();
    const payout = await payOut();
    const before = await call(sandbox, 'GET', LIST);
    expect(before.body.data.map((item: { status: string }) => item.status)).toEqual([
      'pending',
      'pending',
    ]);
    await call(sandbox, 'POST', `/__sandbox/payments/${payment}/transfer`);
    await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    const after = await call(sandbox, 'GET', LIST);
    expect(after.body.data.map((item: { id: string }) => item.id)).toEqual([payment, payout]);
    expect(after.body.data.map((item: { status: string }) => item.status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('walks 25 transactions in pages of 10 in creation order, each once', async () => {
    const created = await create(25);
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const answer = await call(sandbox, 'GET', `${LIST}?page=${page}&perPage=10`);
      expect(answer.status).toBe(200);
      expect(answer.body.meta).toEqual({
        page,
        pageCount: 3,
        total: 25,
        perPage: 10,
        skipped: (page - 1) * 10,
      });
      expect(answer.body.data.length).toBe(page < 3 ? 10 : 5);
      seen.push(...answer.body.data.map((item: { id: string }) => item.id));
      if (answer.body.meta.page >= answer.body.meta.pageCount) break;
      page += 1;
      expect(page).toBeLessThanOrEqual(3);
    }
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual(created);
  });

  it('keeps earlier pages stable while new transactions arrive during a walk', async () => {
    const created = await create(12);
    const first = await call(sandbox, 'GET', `${LIST}?page=1&perPage=10`);
    const late = await pay(7);
    const second = await call(sandbox, 'GET', `${LIST}?page=2&perPage=10`);
    const ids = [...first.body.data, ...second.body.data].map((item: { id: string }) => item.id);
    expect(ids).toEqual([...created, late]);
    expect(second.body.meta.total).toBe(13);
  });

  it('answers an empty page past the last one', async () => {
    await create(5);
    const answer = await call(sandbox, 'GET', `${LIST}?page=2&perPage=10`);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(true);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta).toMatchObject({ page: 2, pageCount: 1, total: 5, skipped: 10 });
    const far = await call(sandbox, 'GET', `${LIST}?page=999&perPage=10`);
    expect(far.body.data).toEqual([]);
  });

  it('takes perPage 100 and perPage 1', async () => {
    await create(3);
    const hundred = await call(sandbox, 'GET', `${LIST}?page=1&perPage=100`);
    expect(hundred.status).toBe(200);
    expect(hundred.body.meta.perPage).toBe(100);
    expect(hundred.body.data).toHaveLength(3);
    const one = await call(sandbox, 'GET', `${LIST}?page=2&perPage=1`);
    expect(one.status).toBe(200);
    expect(one.body.meta).toMatchObject({ page: 2, pageCount: 3, perPage: 1, skipped: 1 });
    expect(one.body.data).toHaveLength(1);
  });

  it.each([
    ['perPage=101'],
    ['perPage=0'],
    ['page=0'],
    ['page=-1'],
    ['page=abc'],
    ['perPage=abc'],
    ['page=1.5'],
  ])('refuses %s with 400 and status false', async (query) => {
    const answer = await call(sandbox, 'GET', `${LIST}?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.status).toBe(false);
    expect(typeof answer.body.message).toBe('string');
    expect(answer.body.message).not.toBe('');
  });

  it('answers a wrong key with 401 in the list envelope (status false)', async () => {
    // docs/sandbox.md: "The list endpoint answers { status: false, message }". A merchant's list client
    // checks `status`; a truthy number there reads as success.
    const answer = await call(sandbox, 'GET', LIST, undefined, { key: 'sk_wrong' });
    expect(answer.status).toBe(401);
    expect(answer.body.status).toBe(false);
    expect(typeof answer.body.message).toBe('string');
  });
});
