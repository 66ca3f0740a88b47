// Webhooks as the merchant's endpoint receives them: retried with backoff while it fails, each
// event with its own id, and signed the Standard Webhooks way when a secret is set.
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../src/provider/webhook-signature';
import {
  advance,
  call,
  eventually,
  fundTransfer,
  pause,
  type Sandbox,
  startSandbox,
  startWebhookReceiver,
  TRANSFER_INITIATION,
  type WebhookReceiver,
} from '../../helpers/sandbox';

const FUND_TRANSFER = '/payout/Disbursement/Payout/FundTransfer';

let sandbox: Sandbox;
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await startWebhookReceiver();
});

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

function plain(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
}

async function payOut(overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(sandbox, 'POST', FUND_TRANSFER, fundTransfer(overrides));
  expect(answer.status, answer.text).toBe(202);
  return answer.body.value.reference;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('webhook delivery', () => {
  it('retries with backoff while the receiver answers 500, and delivers on the 3rd attempt', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url });
    receiver.respondWith([500, 500]);
    const reference = await payOut();
    await advance(sandbox, 2);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json).toMatchObject({ event: 'payout.success', data: { reference } });
    const log = await eventually(
      () => call(sandbox, 'GET', '/__sandbox/webhooks'),
      (answer) => answer.body.webhooks[0]?.state === 'delivered',
    );
    expect(log.body.webhooks).toHaveLength(1);
    expect(log.body.webhooks[0]).toMatchObject({
      id: webhook?.json.id,
      event: 'payout.success',
      attempts: 3,
      state: 'delivered',
    });
    // Every attempt is the same event: one delivery, one id.
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps a delivery pending while the receiver fails, with its attempts counted', async () => {
    sandbox = await startSandbox({
      webhookUrl: receiver.url,
      webhookRetryDelaysMs: [60_000],
    });
    receiver.respondWith([503]);
    await payOut();
    await advance(sandbox, 2);
    const log = await eventually(
      () => call(sandbox, 'GET', '/__sandbox/webhooks'),
      (answer) => answer.body.webhooks[0]?.lastStatus === 503,
    );
    expect(log.body.webhooks[0]).toMatchObject({ state: 'pending', attempts: 1 });
    expect(receiver.received).toHaveLength(0);
    // The retry runs on the sandbox clock: moving it delivers without waiting a minute.
    await advance(sandbox, 61);
    await receiver.waitFor(1);
    const after = await eventually(
      () => call(sandbox, 'GET', '/__sandbox/webhooks'),
      (answer) => answer.body.webhooks[0]?.state === 'delivered',
    );
    expect(after.body.webhooks[0].attempts).toBe(2);
  });

  it('gives up after the last retry and says so', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url, webhookRetryDelaysMs: [20, 20] });
    receiver.respondWith([500, 500, 500, 500]);
    await payOut();
    await advance(sandbox, 2);
    const log = await eventually(
      () => call(sandbox, 'GET', '/__sandbox/webhooks'),
      (answer) => answer.body.webhooks[0]?.state === 'failed',
    );
    expect(log.body.webhooks[0].attempts).toBe(3);
    expect(receiver.received).toHaveLength(0);
  });

  it('by default retries after 1, 2, 4 … 128 s of sandbox time: 9 attempts in all', async () => {
    // docs/sandbox.md's policy, not the helper's fast delays.
    sandbox = await startSandbox({ webhookUrl: receiver.url, webhookRetryDelaysMs: undefined });
    // Alternating failures tell each attempt's answer from the one before it.
    const failures = [500, 502, 500, 502, 500, 502, 500, 502];
    receiver.respondWith(failures);
    await payOut();
    await advance(sandbox, 2);
    const delivery = async () =>
      (await call(sandbox, 'GET', '/__sandbox/webhooks')).body.webhooks[0];
    for (const [index, seconds] of [1, 2, 4, 8, 16, 32, 64, 128].entries()) {
      const attempts = index + 1;
      await eventually(
        delivery,
        (entry) => entry?.attempts === attempts && entry.lastStatus === failures[index],
      );
      // Not before its time …
      await advance(sandbox, seconds / 2);
      await pause(40);
      expect((await delivery()).attempts, `retry ${attempts} came early`).toBe(attempts);
      // … and on time.
      await advance(sandbox, seconds / 2 + 0.1);
      await eventually(delivery, (entry) => entry?.attempts === attempts + 1);
    }
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.json.event).toBe('payout.success');
    const last = await eventually(delivery, (entry) => entry?.state === 'delivered');
    expect(last.attempts).toBe(9);
  });

  it('by default gives up after the 9th attempt', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url, webhookRetryDelaysMs: undefined });
    receiver.respondWith([500, 502, 500, 502, 500, 502, 500, 502, 500, 200]);
    await payOut();
    await advance(sandbox, 2);
    const delivery = async () =>
      (await call(sandbox, 'GET', '/__sandbox/webhooks')).body.webhooks[0];
    for (let attempts = 1; attempts < 9; attempts++) {
      const status = attempts % 2 === 1 ? 500 : 502;
      await eventually(
        delivery,
        (entry) => entry?.attempts === attempts && entry.lastStatus === status,
      );
      await advance(sandbox, 130);
    }
    const last = await eventually(delivery, (entry) => entry?.state === 'failed');
    expect(last.attempts).toBe(9);
    await advance(sandbox, 600);
    await pause(50);
    expect((await delivery()).attempts).toBe(9);
    expect(receiver.received).toHaveLength(0);
  });

  it('gives every event a unique id, matching its webhook-id header, in the documented shape', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url });
    const payment = await call(sandbox, 'POST', '/api/payment/pay/initiate', TRANSFER_INITIATION);
    const paymentReference = payment.body.value.paymentItem.reference;
    await call(sandbox, 'POST', `/__sandbox/payments/${paymentReference}/transfer`);
    const good = await payOut();
    const bad = await payOut({ beneficiaryAccountNumber: '0000000000' });
    await advance(sandbox, 2);
    await receiver.waitFor(3);
    const reversal = await call(sandbox, 'POST', `/__sandbox/payouts/${good}/reverse`);
    expect(reversal.status).toBe(200);
    const webhooks = await receiver.waitFor(4);

    const ids = webhooks.map((webhook) => webhook.json.id);
    expect(new Set(ids).size).toBe(4);
    for (const webhook of webhooks) {
      expect(typeof webhook.json.id).toBe('string');
      expect(webhook.headers['webhook-id']).toBe(webhook.json.id);
      expect(webhook.headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(Number.isNaN(Date.parse(webhook.json.createdAt))).toBe(false);
      expect(webhook.headers['content-type']).toMatch(/^application\/json/);
    }
    const byEvent = Object.fromEntries(webhooks.map((webhook) => [webhook.json.event, webhook]));
    expect(Object.keys(byEvent).sort()).toEqual([
      'payment.success',
      'payout.failed',
      'payout.reversed',
      'payout.success',
    ]);
    // Payment amounts in major units, payout amounts as minor-unit digit strings.
    expect(byEvent['payment.success']?.json.data).toMatchObject({
      reference: paymentReference,
      paymentReference,
      status: 'Successfull',
      amount: 2500.5,
      currency: 'NGN',
    });
    expect(byEvent['payout.failed']?.json.data).toMatchObject({
      reference: bad,
      status: 'Failed',
      amount: '150000',
    });
    expect(byEvent['payout.reversed']?.json.data).toMatchObject({
      reference: good,
      status: 'Reversed',
      amount: '150000',
    });
  });
});

describe('webhook signatures', () => {
  it('signs with the configured secret so that verifyWebhook accepts it, and only with that secret', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url });
    const secret = generateWebhookSecret();
    const config = await call(sandbox, 'POST', '/__sandbox/config', { webhookSecret: secret });
    expect(config.status).toBe(200);
    expect(config.body.webhookSecretSet).toBe(true);
    // The secret is write-only.
    expect(config.text).not.toContain(secret.slice('whsec_'.length));

    await payOut();
    await advance(sandbox, 2);
    const [webhook] = await receiver.waitFor(1);
    if (!webhook) throw new Error('no webhook');
    const headers = plain(webhook.headers);
    expect(headers['webhook-signature']).toMatch(/^v1,/);

    const verified = await verifyWebhook({ headers, body: webhook.body, secrets: [secret] });
    expect(verified.id).toBe(webhook.json.id);

    const otherSecret = await rejection(
      verifyWebhook({ headers, body: webhook.body, secrets: [generateWebhookSecret()] }),
    );
    expect(otherSecret).toBeInstanceOf(WebhookVerificationError);
    expect((otherSecret as WebhookVerificationError).reason).toBe('bad-signature');

    const tampered = await rejection(
      verifyWebhook({
        headers,
        body: webhook.body.replace('150000', '950000'),
        secrets: [secret],
      }),
    );
    expect((tampered as WebhookVerificationError).reason).toBe('bad-signature');
  });

  it('signs so that the receiver verifies on its own clock even after the sandbox clock moved', async () => {
    // A merchant moves the clock 31 minutes to expire a virtual account; their receiver checks
    // webhook-timestamp against real time (Standard Webhooks, 5 minutes' tolerance).
    const secret = generateWebhookSecret();
    sandbox = await startSandbox({ webhookUrl: receiver.url, webhookSecret: secret });
    const payment = await call(sandbox, 'POST', '/api/payment/pay/initiate', TRANSFER_INITIATION);
    expect(payment.status).toBe(200);
    await advance(sandbox, 31 * 60);
    const [webhook] = await receiver.waitFor(1);
    if (!webhook) throw new Error('no webhook');
    expect(webhook.json.event).toBe('payment.failed');
    const timestamp = Number(webhook.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    await expect(
      verifyWebhook({ headers: plain(webhook.headers), body: webhook.body, secrets: [secret] }),
    ).resolves.toMatchObject({ id: webhook.json.id });
  });

  it('signs from the start when the secret is given at creation', async () => {
    const secret = generateWebhookSecret();
    sandbox = await startSandbox({ webhookUrl: receiver.url, webhookSecret: secret });
    await payOut();
    await advance(sandbox, 2);
    const [webhook] = await receiver.waitFor(1);
    if (!webhook) throw new Error('no webhook');
    await expect(
      verifyWebhook({ headers: plain(webhook.headers), body: webhook.body, secrets: [secret] }),
    ).resolves.toMatchObject({ id: webhook.json.id });
  });

  it('sends no webhook-signature header without a secret, but still the id and timestamp', async () => {
    sandbox = await startSandbox({ webhookUrl: receiver.url });
    await payOut();
    await advance(sandbox, 2);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.headers['webhook-signature']).toBeUndefined();
    expect(webhook?.headers['webhook-id']).toBe(webhook?.json.id);
    expect(webhook?.headers['webhook-timestamp']).toMatch(/^\d+$/);
  });

  it('stops signing when the secret is cleared', async () => {
    sandbox = await startSandbox({
      webhookUrl: receiver.url,
      webhookSecret: generateWebhookSecret(),
    });
    const cleared = await call(sandbox, 'POST', '/__sandbox/config', { webhookSecret: null });
    expect(cleared.body.webhookSecretSet).toBe(false);
    await payOut();
    await advance(sandbox, 2);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.headers['webhook-signature']).toBeUndefined();
  });
});
