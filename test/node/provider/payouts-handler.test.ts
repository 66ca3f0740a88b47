// The back office's handler (createPayoutsHandler, issue 14) over HTTP in front of a real sandbox
// whose webhooks go to it: a merchant doing payouts only, with no resolveOrder. Kept beside the
// client's tests: it is the client's back-office surface served to a staff page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve } from '../../../src/node/serve';
import type { PayoutEventWire } from '../../../src/protocol/back-office';
import { createPayoutsHandler, type PayoutOutcome, type PayoutsHandler } from '../../../src/server';
import {
  advance,
  call,
  configure,
  injectFault,
  type Sandbox,
  startSandbox,
} from '../../helpers/sandbox';

let sandbox: Sandbox;
let handler: PayoutsHandler;
let url: string;
let origin: string;
let admitted: boolean;
let outcomes: PayoutOutcome[];
let close: () => Promise<void>;

beforeEach(async () => {
  sandbox = await startSandbox();
  admitted = true;
  outcomes = [];
  let current: PayoutsHandler | undefined;
  const running = await serve((request) =>
    current ? current(request) : Promise.resolve(new Response(null, { status: 503 })),
  );
  handler = createPayoutsHandler({
    secretKey: sandbox.secretKey,
    baseUrl: sandbox.url,
    authorize: () => admitted,
    onPayoutOutcome: (outcome) => {
      outcomes.push(outcome);
    },
    logger: { warn: () => {}, error: () => {} },
  });
  current = handler;
  origin = running.url;
  url = `${running.url}/api/back-office`;
  await configure(sandbox, { webhookUrl: `${url}/webhooks` });
  close = async () => {
    handler.close();
    await running.close();
  };
});

afterEach(async () => {
  await close();
  await sandbox.close();
});

function post(path: string, body: unknown) {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });
}

function payout(overrides: Record<string, unknown> = {}) {
  return {
    tenantReference: `payout-${crypto.randomUUID()}`,
    amount: { amountMinor: 150_000, currency: 'NGN' },
    narration: 'Supplier invoice 88',
    paymentMethodType: 'BankCode',
    paymentMethodValue: '058',
    beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
    ...overrides,
  };
}

async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms = 5000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('createPayoutsHandler', () => {
  it('refuses to start without authorize, or under the checkout path', () => {
    expect(() =>
      // @ts-expect-error authorize is required
      createPayoutsHandler({ secretKey: sandbox.secretKey, baseUrl: sandbox.url }),
    ).toThrow(/authorize is required/);
    expect(() =>
      createPayoutsHandler({
        secretKey: sandbox.secretKey,
        baseUrl: sandbox.url,
        authorize: () => true,
        basePath: '/api/checkout/payouts',
      }),
    ).toThrow(/must not be under/);
  });

  it('answers nothing until authorize admits the request; another origin is refused', async () => {
    admitted = false;
    const refused = await fetch(`${url}/payouts`);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthorized');
    admitted = true;
    const foreign = await fetch(`${url}/payouts`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify(payout()),
    });
    expect(foreign.status).toBe(403);
    expect(await call(sandbox, 'GET', '/__sandbox/payouts')).toMatchObject({
      body: { payouts: [] },
    });
  });

  it('answers CORS with credentials to an allowed back-office origin only', async () => {
    const allowed = createPayoutsHandler({
      secretKey: sandbox.secretKey,
      baseUrl: sandbox.url,
      authorize: () => true,
      allowedOrigins: ['https://staff.example'],
    });
    const preflight = await allowed(
      new Request('https://api.example/api/back-office/payouts', {
        method: 'OPTIONS',
        headers: { origin: 'https://staff.example' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://staff.example');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await allowed(
      new Request('https://api.example/api/back-office/payouts', {
        headers: { origin: 'https://evil.example' },
      }),
    );
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    allowed.close();
  });

  it('serves the requirements of a currency as form fields', async () => {
    const answer = await fetch(`${url}/requirements?currency=GBP`);
    expect(answer.status).toBe(200);
    const { requirements } = await answer.json();
    expect(requirements[0].paymentMethodType).toBe('SortCode');
    expect(requirements[0].fields.map((field: { label: string }) => field.label)).toEqual([
      'Account name',
      'Account number',
      'Sort code',
    ]);
  });

  it('sends a payout, pushes Pending then Completed over SSE, and lists it', async () => {
    const events = await fetch(`${url}/events`);
    const reader = events.body?.getReader();
    const seen: PayoutEventWire[] = [];
    let buffer = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        buffer += decoder.decode(chunk.value);
        for (const block of buffer.split('\n\n').slice(0, -1)) {
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) seen.push(JSON.parse(data));
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
      }
    })();
    const sent = await post('/payouts', payout());
    expect(sent.status).toBe(202);
    const body = await sent.json();
    expect(body).toMatchObject({ status: 'accepted', payout: { status: 'Pending' } });
    await advance(sandbox, 2);
    await until(() =>
      seen.some((event) => event.payout.status === 'Completed') ? true : undefined,
    );
    expect(seen.map((event) => event.payout.status)).toEqual(['Pending', 'Completed']);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['Completed']);
    const listed = await (await fetch(`${url}/payouts`)).json();
    expect(listed.payouts[0]).toMatchObject({
      reference: body.payout.reference,
      status: 'Completed',
    });
    await reader?.cancel();
    await reading;
  });

  it("a failed payout's reason, then a reversal, reach the list", async () => {
    const failing = await (
      await post(
        '/payouts',
        payout({ beneficiary: { accountName: 'Ada Obi', accountNumber: '0000000000' } }),
      )
    ).json();
    const reversing = await (await post('/payouts', payout())).json();
    await advance(sandbox, 2);
    await until(() => (outcomes.length >= 2 ? true : undefined));
    await call(sandbox, 'POST', `/__sandbox/payouts/${reversing.payout.reference}/reverse`);
    await until(() =>
      outcomes.some((outcome) => outcome.status === 'Reversed') ? true : undefined,
    );
    await handler.idle();
    const { payouts } = await (await fetch(`${url}/payouts`)).json();
    const byReference = Object.fromEntries(
      payouts.map((entry: { reference: string }) => [entry.reference, entry]),
    );
    expect(byReference[failing.payout.reference]).toMatchObject({
      status: 'Failed',
      reason: 'Invalid beneficiary account details.',
    });
    expect(byReference[reversing.payout.reference]).toMatchObject({ status: 'Reversed' });
    const one = await (await fetch(`${url}/payouts/${failing.payout.tenantReference}`)).json();
    expect(one.payout.status).toBe('Failed');
  });

  it('validation failures come back on their fields, insufficient balance plainly, nothing sent', async () => {
    const invalid = await post('/payouts', payout({ narration: '', paymentMethodValue: '1' }));
    expect(invalid.status).toBe(422);
    const body = await invalid.json();
    expect(body.status).toBe('invalid');
    expect(body.failures.map((failure: { field: string }) => failure.field)).toEqual(
      expect.arrayContaining(['narration', 'paymentMethodValue']),
    );
    const poor = await post(
      '/payouts',
      payout({ amount: { amountMinor: 2_000_000_000, currency: 'NGN' } }),
    );
    expect(await poor.json()).toMatchObject({ status: 'insufficient_balance' });
    expect((await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts).toHaveLength(0);
  });

  it('a lost answer is retried with the same tenantReference: one transfer', async () => {
    await injectFault(sandbox, 'fundTransfer', [{ type: 'lostResponse' }]);
    const input = payout();
    const first = await post('/payouts', input);
    const again = await post('/payouts', input);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    const payouts = (await call(sandbox, 'GET', '/__sandbox/payouts')).body.payouts;
    expect(payouts).toHaveLength(1);
    expect((await first.json()).payout.reference).toBe((await again.json()).payout.reference);
  });

  it('pages the transaction list and creates and lists payment links', async () => {
    for (let i = 0; i < 3; i++) await post('/payouts', payout());
    const page = await (await fetch(`${url}/transactions?page=2&perPage=2`)).json();
    expect(page).toMatchObject({ page: 2, pageCount: 2, total: 3, perPage: 2 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ kind: 'payout', status: 'Pending' });
    const tooMany = await fetch(`${url}/transactions?perPage=101`);
    expect(tooMany.status).toBe(400);
    const created = await post('/links', {
      name: 'Gift card',
      linkType: 'OneTime',
      currency: 'GBP',
      amountMinor: 2_000,
    });
    expect(created.status).toBe(201);
    const { link } = await created.json();
    expect(link).toMatchObject({
      linkType: 'OneTime',
      status: 'New',
      amount: { amountMinor: 2_000, currency: 'GBP' },
    });
    const badType = await post('/links', { name: 'x', linkType: 'Once', currency: 'GBP' });
    expect(badType.status).toBe(400);
    const { links } = await (await fetch(`${url}/links`)).json();
    expect(links.map((entry: { alias: string }) => entry.alias)).toEqual([link.alias]);
  });
});
