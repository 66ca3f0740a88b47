/**
 * Endpoint 6, the status query: its answer, 404 for an unknown reference, and the per-reference
 * rate limit (more than 5 a second get 429 with Retry-After).
 */
import { describe, expect, it } from 'vitest';
import { BANK_INITIATION, call, sandboxPerTest, TRANSFER_INITIATION } from '../../helpers/sandbox';

const sandbox = sandboxPerTest();

async function initiate(body: unknown = TRANSFER_INITIATION): Promise<string> {
  const answer = await call(sandbox, 'POST', '/api/payment/pay/initiate', body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value.paymentItem.paymentReference as string;
}

function status(reference: string) {
  return call(sandbox, 'GET', `/api/payment/pay/status/${encodeURIComponent(reference)}`);
}

describe('the status answer', () => {
  it('carries paymentReference, amount and paymentStatus', async () => {
    const reference = await initiate();
    const answer = await status(reference);
    expect(answer.status).toBe(200);
    expect(answer.body.isSuccess).toBe(true);
    expect(answer.body.value).toEqual({
      paymentReference: reference,
      amount: { currencyCode: 'NGN', amount: 2500.5 },
      paymentStatus: 'PENDING',
    });
  });

  it('spells success Successfull and keeps it final', async () => {
    const reference = await initiate();
    await call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`, {});
    expect((await status(reference)).body.value.paymentStatus).toBe('Successfull');
    await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 3600 });
    expect((await status(reference)).body.value.paymentStatus).toBe('Successfull');
  });

  it('answers 404 in an envelope for an unknown reference', async () => {
    const answer = await status('PAY_DOESNOTEXIST');
    expect(answer.status).toBe(404);
    expect(answer.body.isSuccess).toBe(false);
    expect(typeof answer.body.message).toBe('string');
  });
});

describe('the rate limit', () => {
  it('answers 429 with Retry-After to the sixth query within a second', async () => {
    const reference = await initiate();
    const answers = await Promise.all(Array.from({ length: 6 }, () => status(reference)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited?.body.isSuccess).toBe(false);
    const retryAfter = limited?.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('keeps refusing within the second, then answers again once Retry-After has passed', async () => {
    const reference = await initiate();
    const first = await Promise.all(Array.from({ length: 6 }, () => status(reference)));
    const limited = first.find((answer) => answer.status === 429);
    expect(limited?.status).toBe(429);
    expect((await status(reference)).status).toBe(429);
    const wait = Number(limited?.headers.get('retry-after'));
    await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: wait });
    const again = await status(reference);
    expect(again.status).toBe(200);
    expect(again.body.value.paymentStatus).toBe('PENDING');
  });

  it('does not limit another reference', async () => {
    const busy = await initiate();
    const quiet = await initiate(BANK_INITIATION);
    await Promise.all(Array.from({ length: 6 }, () => status(busy)));
    expect((await status(busy)).status).toBe(429);
    const other = await status(quiet);
    expect(other.status).toBe(200);
    expect(other.body.value.paymentReference).toBe(quiet);
  });
});
