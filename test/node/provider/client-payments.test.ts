// The provider client's payment links and payment operations against a real sandbox over HTTP,
// as the companion and a merchant's back office use them: clean types out, minor units in and
// out, the provider's spellings (`Reuseable`, `Successfull`) never leaking through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient, type ProviderClient } from '../../../src/provider/client';
import { call, type Sandbox, startSandbox } from '../../helpers/sandbox';

interface Sent {
  readonly method: string;
  readonly url: string;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON body as the client sent it
  readonly body: any;
}

let sandbox: Sandbox;
let client: ProviderClient;
const sent: Sent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  const recording: typeof fetch = (input, init) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return fetch(input, init);
  };
  client = createProviderClient({
    baseUrl: sandbox.url,
    secretKey: sandbox.secretKey,
    fetch: recording,
    backoffMs: 5,
  });
});

afterAll(async () => {
  await sandbox.close();
});

function lastSent(): Sent {
  const last = sent.at(-1);
  if (!last) throw new Error('nothing was sent');
  return last;
}

describe('createPaymentLink', () => {
  it('a one-time link with a fixed amount comes back clean, and its page is served', async () => {
    const link = await client.createPaymentLink({
      name: 'Adire tote bag',
      description: 'Hand-dyed',
      linkType: 'OneTime',
      currency: 'NGN',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
    });
    expect(lastSent().body).toMatchObject({
      linkType: 0,
      amountType: 0,
      currencyCode: 'NGN',
      amountInfo: { currencyCode: 'NGN', amount: 25000.5 },
    });
    expect(link).toMatchObject({
      name: 'Adire tote bag',
      description: 'Hand-dyed',
      linkType: 'OneTime',
      status: 'New',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
    });
    expect(link.alias).toMatch(/\S/);
    expect(link.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(link.createdAt))).toBe(false);

    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Adire tote bag');
    expect(html).toContain(link.alias);
  });

  it('sends returnUrl as metaData.return-url, and the hosted page offers the way back', async () => {
    const returnUrl = 'http://127.0.0.1:9/return?order=1042';
    const link = await client.createPaymentLink({
      name: 'Order 1042',
      linkType: 'OneTime',
      currency: 'NGN',
      amount: { amountMinor: 150_000, currency: 'NGN' },
      returnUrl,
    });
    expect(lastSent().body.metaData).toEqual({ 'return-url': returnUrl });
    const page = await fetch(link.url);
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:9;",
    );
    expect(await page.text()).toContain('Cancel and return to the merchant');
    const cancelled = await fetch(`${link.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`${returnUrl}&alias=${link.alias}&cancelled=1`);
  });

  it('sends no metaData without a returnUrl', async () => {
    await client.createPaymentLink({ name: 'Tip jar', linkType: 'Reusable', currency: 'NGN' });
    expect(lastSent().body).not.toHaveProperty('metaData');
  });

  it('a reusable link reads as Reusable (the wire says Reuseable), amount chosen by the payer', async () => {
    const link = await client.createPaymentLink({
      name: 'Tip jar',
      linkType: 'Reusable',
      currency: 'GBP',
    });
    expect(lastSent().body).toMatchObject({ linkType: 1, amountType: 1, currencyCode: 'GBP' });
    expect(lastSent().body.amountInfo).toBeUndefined();
    expect(link.linkType).toBe('Reusable');
    expect(link.amount).toBeNull();
    expect((await fetch(link.url)).status).toBe(200);

    const raw = await call(sandbox, 'POST', '/api/payment/payment-link', {
      name: 'Raw',
      linkType: 1,
      amountType: 1,
      currencyCode: 'GBP',
    });
    expect(raw.body.value.linkType).toBe('Reuseable');
  });

  it('a link is payable by its alias through initiatePayment', async () => {
    const link = await client.createPaymentLink({
      name: 'Merino scarf',
      linkType: 'OneTime',
      currency: 'NGN',
      amount: { amountMinor: 150_000, currency: 'NGN' },
    });
    const payment = await client.initiatePayment({
      channel: 'PayByTransfer',
      amount: { amountMinor: 150_000, currency: 'NGN' },
      linkAlias: link.alias,
    });
    expect(lastSent().body.link).toEqual({ alias: link.alias });
    const stored = (await call(sandbox, 'GET', '/__sandbox/payments')).body.payments.find(
      (entry: { reference: string }) => entry.reference === payment.reference,
    );
    expect(stored.linkAlias).toBe(link.alias);
  });
});

describe('validateChannels', () => {
  it('lists the channels that take NGN, amount sent in major units', async () => {
    const result = await client.validateChannels({ amountMinor: 250_050, currency: 'NGN' });
    expect(lastSent().body).toEqual({ amount: { currencyCode: 'NGN', amount: 2500.5 } });
    expect(result.isValid).toBe(true);
    const names = result.channels.map((channel) => channel.name).sort();
    expect(names).toEqual(['Card', 'PayByTransfer']);
    for (const channel of result.channels) expect(channel.alias).toMatch(/\S/);
  });

  it('asks only about the channels given', async () => {
    const result = await client.validateChannels({ amountMinor: 4_999, currency: 'GBP' }, [
      'PayByAccount',
    ]);
    expect(lastSent().body.channels).toEqual(['PayByAccount']);
    expect(result.channels.map((channel) => channel.name)).toEqual(['PayByAccount']);
  });
});

describe('initiatePayment and paymentStatus', () => {
  it('PayByTransfer: 250050 kobo goes out as 2500.5 naira and returns a virtual account', async () => {
    const before = Date.now();
    const payment = await client.initiatePayment({
      channel: 'PayByTransfer',
      amount: { amountMinor: 250_050, currency: 'NGN' },
      customer: { firstName: 'Ada', lastName: 'Obi', email: 'ada@example.com' },
    });
    expect(lastSent().body).toMatchObject({
      amount: 2500.5,
      channel: 'PayByTransfer',
      currency: 'NGN',
      userInformation: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada@example.com' },
    });
    expect(payment.paymentStatus).toBe('REQUIRE_USER_OFFLINE_ACTION');
    expect(payment.amount).toEqual({ amountMinor: 250_050, currency: 'NGN' });
    expect(payment.paymentReference).toBe(payment.reference);
    expect(payment.bankAuthUrl).toBeNull();
    const account = payment.virtualAccount;
    expect(account?.accountNumber).toMatch(/^\d{10}$/);
    expect(account?.bank).toMatch(/\S/);
    // An ISO 8601 UTC instant, about 30 minutes ahead.
    expect(account?.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    const expiresIn = Date.parse(account?.expiresAt ?? '') - before;
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThan(31 * 60_000);

    const stored = (await call(sandbox, 'GET', '/__sandbox/payments')).body.payments.find(
      (entry: { reference: string }) => entry.reference === payment.reference,
    );
    expect(stored.amount).toBe(2500.5);
    expect(stored.amountMinor).toBe(250_050);
    expect(stored.virtualAccount.accountNumber).toBe(account?.accountNumber);
  });

  it("paymentStatus reads the wire's 'Successfull' as SUCCESSFUL, in minor units", async () => {
    const payment = await client.initiatePayment({
      channel: 'PayByTransfer',
      amount: { amountMinor: 250_050, currency: 'NGN' },
    });
    const pending = await client.paymentStatus(payment.paymentReference);
    expect(pending.paymentStatus).toBe('PENDING');

    const paid = await call(sandbox, 'POST', `/__sandbox/payments/${payment.reference}/transfer`);
    expect(paid.status).toBe(200);
    const raw = await call(sandbox, 'GET', `/api/payment/pay/status/${payment.reference}`);
    expect(raw.body.value.paymentStatus).toBe('Successfull');

    const report = await client.paymentStatus(payment.paymentReference);
    expect(lastSent().url).toBe(`${sandbox.url}/api/payment/pay/status/${payment.reference}`);
    expect(report).toEqual({
      paymentReference: payment.reference,
      amount: { amountMinor: 250_050, currency: 'NGN' },
      paymentStatus: 'SUCCESSFUL',
      message: 'Payment successful.',
      // What arrived in the account (the sandbox's amountPaid), here all of it.
      amountPaid: { amountMinor: 250_050, currency: 'NGN' },
    });
  });

  it('PayByAccount: the bank page URL comes back, return-url sent in metaData', async () => {
    const payment = await client.initiatePayment({
      channel: 'PayByAccount',
      amount: { amountMinor: 4_999, currency: 'GBP' },
      returnUrl: 'https://shop.example/return',
      redirect: false,
    });
    expect(lastSent().body.metaData).toEqual({
      'return-url': 'https://shop.example/return',
      redirect: false,
    });
    expect(lastSent().body.amount).toBe(49.99);
    expect(payment.paymentStatus).toBe('REQUIRE_BANK_AUTH');
    expect(payment.bankAuthUrl).toBe(`${sandbox.url}/pages/bank/${payment.reference}`);
    expect(payment.virtualAccount).toBeNull();
    expect((await client.paymentStatus(payment.reference)).paymentStatus).toBe('PENDING');
  });

  it('an unknown reference is a typed 404, not an undefined', async () => {
    await expect(client.paymentStatus('PAY-does-not-exist')).rejects.toMatchObject({
      name: 'ProviderNotFoundError',
      status: 404,
    });
  });
});
