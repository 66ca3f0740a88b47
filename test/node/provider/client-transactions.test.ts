// The transaction list through createProviderClient: `transactions()` walks every page until
// provider-api.md's rule 11 says the last (meta.page >= meta.pageCount), in creation order,
// with perPage capped at the provider's 100; `transactionPage` refuses what the provider would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../../src/protocol';
import { createProviderClient, type ProviderClient } from '../../../src/provider/client';
import { call, fundTransfer, type Sandbox, startSandbox } from '../../helpers/sandbox';

const LIST_PATH = '/v1/api/transactions';
const COUNT = 250;

interface Rig {
  readonly sandbox: Sandbox;
  readonly client: ProviderClient;
  /** Every URL the client fetched. */
  readonly urls: string[];
}

async function startRig(): Promise<Rig> {
  const sandbox = await startSandbox();
  const urls: string[] = [];
  const recording: typeof fetch = (input, init) => {
    urls.push(String(input));
    return fetch(input, init);
  };
  const client = createProviderClient({
    baseUrl: sandbox.url,
    secretKey: sandbox.secretKey,
    fetch: recording,
  });
  return { sandbox, client, urls };
}

/** The list queries sent since `from`, as { page, perPage }. */
function listQueries(rig: Rig, from = 0): Array<{ page: string | null; perPage: string | null }> {
  return rig.urls
    .slice(from)
    .map((url) => new URL(url))
    .filter((url) => url.pathname === LIST_PATH)
    .map((url) => ({
      page: url.searchParams.get('page'),
      perPage: url.searchParams.get('perPage'),
    }));
}

async function collect(
  iterator: AsyncIterable<TransactionListItem>,
): Promise<TransactionListItem[]> {
  const items: TransactionListItem[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

/** Creates `count` payouts one after another; amount 1000 + i tells them apart. */
async function createPayouts(sandbox: Sandbox, count: number): Promise<string[]> {
  const references: string[] = [];
  for (let index = 0; index < count; index++) {
    const answer = await call(
      sandbox,
      'POST',
      '/payout/Disbursement/Payout/FundTransfer',
      fundTransfer({ amount: String(1000 + index) }),
    );
    if (answer.status !== 202) throw new Error(`payout ${index} refused: ${answer.text}`);
    references.push(answer.body.value.reference);
  }
  return references;
}

describe('a list of 250', () => {
  let rig: Rig;
  let created: string[];

  beforeAll(async () => {
    rig = await startRig();
    created = await createPayouts(rig.sandbox, COUNT);
  });

  afterAll(async () => {
    await rig.sandbox.close();
  });

  it('perPage 100: three pages fetched, 250 distinct items in creation order, in minor units', async () => {
    const from = rig.urls.length;
    const items = await collect(rig.client.transactions({ perPage: 100 }));
    expect(listQueries(rig, from)).toEqual([
      { page: '1', perPage: '100' },
      { page: '2', perPage: '100' },
      { page: '3', perPage: '100' },
    ]);
    expect(items).toHaveLength(COUNT);
    expect(new Set(items.map((item) => item.id)).size).toBe(COUNT);
    expect(items.map((item) => item.id)).toEqual(created);
    items.forEach((item, index) => {
      expect(item.amount).toEqual({ amountMinor: 1000 + index, currency: 'NGN' });
    });
    expect(items[0]?.raw.tenantReference).toEqual(expect.stringMatching(/^t-/));
  });

  it('perPage 500 is refused before any call: the provider allows at most 100 (issue 14)', async () => {
    const from = rig.urls.length;
    await expect(collect(rig.client.transactions({ perPage: 500 }))).rejects.toThrow(
      /perPage must be a whole number from 1 to 100/,
    );
    expect(rig.urls.length).toBe(from);
  });

  it('without perPage it walks pages of 100', async () => {
    const from = rig.urls.length;
    const items = await collect(rig.client.transactions());
    expect(listQueries(rig, from).map((query) => query.perPage)).toEqual(['100', '100', '100']);
    expect(items).toHaveLength(COUNT);
  });

  it('a smaller perPage walks more pages and still gets every item once, in order', async () => {
    const from = rig.urls.length;
    const items = await collect(rig.client.transactions({ perPage: 60 }));
    expect(listQueries(rig, from).map((query) => query.page)).toEqual(['1', '2', '3', '4', '5']);
    expect(items.map((item) => item.id)).toEqual(created);
  });

  it('stopping early fetches no further page', async () => {
    const from = rig.urls.length;
    let seen = 0;
    for await (const _ of rig.client.transactions({ perPage: 100 })) {
      seen += 1;
      if (seen === 150) break;
    }
    expect(listQueries(rig, from)).toHaveLength(2);
  });

  it('works when taken off the client object, as `const { transactions } = client`', async () => {
    const { transactions } = rig.client;
    const items = await collect(transactions({ perPage: 100 }));
    expect(items).toHaveLength(COUNT);
  });

  it('transactionPage: the last page says so, a page past it is empty', async () => {
    const third = await rig.client.transactionPage(3, 100);
    expect(third.items).toHaveLength(50);
    expect(third.meta).toEqual({ page: 3, pageCount: 3, total: COUNT, perPage: 100, skipped: 200 });
    expect(third.isLastPage).toBe(true);
    const first = await rig.client.transactionPage(1, 100);
    expect(first.isLastPage).toBe(false);
    const past = await rig.client.transactionPage(4, 100);
    expect(past.items).toEqual([]);
  });

  it('transactionPage refuses perPage 101 rather than quietly capping it', async () => {
    const from = rig.urls.length;
    await expect(rig.client.transactionPage(1, 101)).rejects.toThrow(TypeError);
    expect(rig.urls.length).toBe(from);
  });

  it.each([
    ['page 0', 0, 20],
    ['page -1', -1, 20],
    ['page 1.5', 1.5, 20],
    ['perPage 0', 1, 0],
    ['perPage 2.5', 1, 2.5],
  ])('transactionPage refuses %s with a TypeError and no call', async (_, page, perPage) => {
    const from = rig.urls.length;
    await expect(rig.client.transactionPage(page, perPage)).rejects.toThrow(TypeError);
    expect(rig.urls.length).toBe(from);
  });
});

describe('small lists', () => {
  it('an empty list yields nothing after one call', async () => {
    const rig = await startRig();
    try {
      const items = await collect(rig.client.transactions({ perPage: 100 }));
      expect(items).toEqual([]);
      expect(listQueries(rig)).toEqual([{ page: '1', perPage: '100' }]);
    } finally {
      await rig.sandbox.close();
    }
  });

  it('an exact multiple of perPage stops at the last full page, with no empty extra call', async () => {
    const rig = await startRig();
    try {
      const created = await createPayouts(rig.sandbox, 10);
      const items = await collect(rig.client.transactions({ perPage: 5 }));
      expect(items.map((item) => item.id)).toEqual(created);
      expect(listQueries(rig).map((query) => query.page)).toEqual(['1', '2']);
    } finally {
      await rig.sandbox.close();
    }
  });

  it('the list is read from listBaseUrl, not baseUrl', async () => {
    const sandbox = await startSandbox();
    try {
      const created = await createPayouts(sandbox, 3);
      const urls: string[] = [];
      const client = createProviderClient({
        // Nothing listens here: a call to baseUrl would fail.
        baseUrl: 'http://127.0.0.1:9',
        listBaseUrl: sandbox.url,
        secretKey: sandbox.secretKey,
        attempts: 1,
        fetch: (input, init) => {
          urls.push(String(input));
          return fetch(input, init);
        },
      });
      const items = await collect(client.transactions());
      expect(items.map((item) => item.id)).toEqual(created);
      expect(urls.every((url) => url.startsWith(`${sandbox.url}${LIST_PATH}?`))).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
