/**
 * PayByTransfer (NGN): a virtual account per payment, the customer's transfer, under- and
 * overpayment, the 30-minute expiry and the webhooks the merchant's fulfilment runs on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  deliveriesEnded,
  paymentStatus,
  sandboxPerTest,
  startWebhookReceiver,
  TRANSFER_INITIATION,
  type WebhookReceiver,
} from '../../helpers/sandbox';

const INITIATE = '/api/payment/pay/initiate';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const sandbox = sandboxPerTest();

async function initiate(body: unknown = TRANSFER_INITIATION) {
  const answer = await call(sandbox, 'POST', INITIATE, body);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.isSuccess).toBe(true);
  return answer.body.value;
}

function transfer(reference: string, body: unknown = {}) {
  return call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`, body);
}

function advance(seconds: number) {
  return call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: seconds });
}

describe('initiation', () => {
  it('answers REQUIRE_USER_OFFLINE_ACTION with the virtual account to pay into', async () => {
    const before = Date.now();
    const value = await initiate();
    const after = Date.now();
    expect(value.paymentStatus).toBe('REQUIRE_USER_OFFLINE_ACTION');
    expect(value.bankAuthURL).toBeNull();
    const item = value.paymentItem;
    expect(item.channel).toBe('PayByTransfer');
    expect(item.amount).toBe(2500.5);
    expect(typeof item.fees).toBe('number');
    expect(typeof item.reference).toBe('string');
    expect(item.reference.length).toBeGreaterThan(0);
    expect(item.paymentReference).toBe(item.reference);

    const info = item.metaData['transfer-info'];
    expect(typeof info.bank).toBe('string');
    expect(info.bank.length).toBeGreaterThan(0);
    expect(info.account_number).toMatch(/^\d{10}$/);
    expect(typeof info.account_name).toBe('string');
    expect(info.account_name.length).toBeGreaterThan(0);
    expect(typeof info.note).toBe('string');
    expect(info.mode).toBe('banktransfer');
    expect(info.expiration).toMatch(ISO_UTC);
    const expiresAt = Date.parse(info.expiration);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 60_000 - 5000);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * 60_000 + 5000);
  });

  it('gives two payments two different references and account numbers', async () => {
    const first = await initiate();
    const second = await initiate();
    expect(second.paymentItem.reference).not.toBe(first.paymentItem.reference);
    expect(second.paymentItem.metaData['transfer-info'].account_number).not.toBe(
      first.paymentItem.metaData['transfer-info'].account_number,
    );
  });

  it('keeps the exact amount (2500.55 NGN is not 2500.54)', async () => {
    const value = await initiate({ ...TRANSFER_INITIATION, amount: 2500.55 });
    expect(value.paymentItem.amount).toBe(2500.55);
    const answer = await call(
      sandbox,
      'GET',
      `/api/payment/pay/status/${value.paymentItem.reference}`,
    );
    expect(answer.body.value.amount).toEqual({ currencyCode: 'NGN', amount: 2500.55 });
  });
});

describe('the transfer', () => {
  it('is PENDING until the customer transfers, then Successfull at once', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    const paid = await transfer(reference);
    expect(paid.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('fails the payment when less than the amount arrives', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    const paid = await transfer(reference, { amount: 2500.49 });
    expect(paid.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('succeeds when more than the amount arrives', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    const paid = await transfer(reference, { amount: 3000 });
    expect(paid.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('refuses a second transfer on a settled payment with 409, and the status stands', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    expect((await transfer(reference)).status).toBe(200);
    const again = await transfer(reference, { amount: 1 });
    expect(again.status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('refuses a transfer after an underpayment with 409, and the payment stays FAILED', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    expect((await transfer(reference, { amount: 100 })).status).toBe(200);
    expect((await transfer(reference)).status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('answers 404 for a transfer to an unknown reference', async () => {
    expect((await transfer('PAY_DOESNOTEXIST')).status).toBe(404);
  });

  it('is reported by finalize, which changes nothing for this channel', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    const finalize = await call(sandbox, 'POST', '/api/payment/pay/finalize', {
      paymentReference: reference,
    });
    expect(finalize.status).toBe(200);
    expect(finalize.body.value.status).toBe('PENDING');
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await transfer(reference);
    const after = await call(sandbox, 'POST', '/api/payment/pay/finalize', {
      paymentReference: reference,
    });
    expect(after.body.value.status).toBe('Successfull');
  });
});

describe('expiry of the virtual account', () => {
  it('still takes a transfer ten seconds before the 30 minutes are up', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    expect((await advance(30 * 60 - 10)).status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    expect((await transfer(reference)).status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('fails the payment after 30 minutes and refuses a late transfer with 409', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    expect((await advance(1801)).status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
    const late = await transfer(reference);
    expect(late.status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('does not fail a payment that was already paid', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    await transfer(reference);
    await advance(1801);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });
});

describe('webhooks', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    const configured = await call(sandbox, 'POST', '/__sandbox/config', {
      webhookUrl: receiver.url,
    });
    expect(configured.status).toBe(200);
  });

  afterEach(async () => {
    await receiver.close();
  });

  /** Every delivery has ended: a duplicate or a retry would have reached the receiver by now. */
  async function settleQuietly() {
    await deliveriesEnded(sandbox);
  }

  it('sends exactly one payment.success with the payment and the delivery headers', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    await transfer(reference);
    const [hook] = await receiver.waitFor(1);
    await settleQuietly();
    expect(receiver.received).toHaveLength(1);

    expect(hook?.json.event).toBe('payment.success');
    expect(typeof hook?.json.id).toBe('string');
    expect(Date.parse(hook?.json.createdAt)).not.toBeNaN();
    expect(hook?.json.data).toMatchObject({
      paymentReference: reference,
      status: 'Successfull',
      amount: 2500.5,
      currency: 'NGN',
    });
    const id = hook?.headers['webhook-id'];
    const timestamp = hook?.headers['webhook-timestamp'];
    expect(typeof id).toBe('string');
    expect(id).toBe(hook?.json.id);
    expect(timestamp).toMatch(/^\d+$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);

    const webhooks = await call(sandbox, 'GET', '/__sandbox/webhooks');
    expect(webhooks.body.webhooks).toHaveLength(1);
  });

  it('sends payment.failed when the account expires', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    await advance(1801);
    const [hook] = await receiver.waitFor(1);
    await settleQuietly();
    expect(receiver.received).toHaveLength(1);
    expect(hook?.json.event).toBe('payment.failed');
    expect(hook?.json.data).toMatchObject({
      paymentReference: reference,
      status: 'FAILED',
      amount: 2500.5,
      currency: 'NGN',
    });
    expect(typeof hook?.headers['webhook-id']).toBe('string');
  });

  it('sends payment.failed on an underpayment, and nothing more on a refused second transfer', async () => {
    const reference = (await initiate()).paymentItem.reference as string;
    await transfer(reference, { amount: 2000 });
    await receiver.waitFor(1);
    expect((await transfer(reference)).status).toBe(409);
    await settleQuietly();
    expect(receiver.received.map((hook) => hook.json.event)).toEqual(['payment.failed']);
  });
});
