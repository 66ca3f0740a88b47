/**
 * PayByAccount (GBP open banking): the AuthUrl bank page, the customer's decision and the way
 * back to the merchant, settlement about a second after approval, and refusals of a second
 * decision.
 */
import { describe, expect, it } from 'vitest';
import {
  BANK_INITIATION,
  call,
  deliveriesEnded,
  eventually,
  paymentStatus,
  sandboxPerTest,
  startWebhookReceiver,
} from '../../helpers/sandbox';

const INITIATE = '/api/payment/pay/initiate';

const sandbox = sandboxPerTest();

async function initiate(body: unknown = BANK_INITIATION) {
  const answer = await call(sandbox, 'POST', INITIATE, body);
  expect(answer.status, answer.text).toBe(200);
  const value = answer.body.value;
  return {
    value,
    reference: value.paymentItem.paymentReference as string,
    authUrl: value.paymentItem.metaData.AuthUrl as string,
  };
}

/** Reads the status from the control listing, which has no rate limit, for polling. */
async function listedStatus(reference: string): Promise<string | undefined> {
  const answer = await call(sandbox, 'GET', '/__sandbox/payments');
  const payments = answer.body.payments as Array<{ reference: string; status: string }>;
  return payments.find((payment) => payment.reference === reference)?.status;
}

function decide(reference: string, approve: boolean) {
  return call(sandbox, 'POST', `/__sandbox/payments/${reference}/bank`, { approve });
}

function postDecision(authUrl: string, decision: string) {
  return fetch(authUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }).toString(),
    redirect: 'manual',
  });
}

describe('initiation', () => {
  it('answers REQUIRE_BANK_AUTH with an AuthUrl on the sandbox bank page', async () => {
    const { value, reference, authUrl } = await initiate();
    expect(value.paymentStatus).toBe('REQUIRE_BANK_AUTH');
    expect(value.paymentItem.channel).toBe('PayByAccount');
    expect(value.paymentItem.amount).toBe(49.99);
    expect(value.paymentItem.reference).toBe(reference);
    expect(authUrl).toBe(`${sandbox.url}/pages/bank/${encodeURIComponent(reference)}`);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });
});

describe('the bank page', () => {
  it('offers Approve and Decline for the right amount', async () => {
    const { authUrl } = await initiate();
    const page = await fetch(authUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<html/i);
    expect(html).toContain('Approve');
    expect(html).toContain('Decline');
    expect(html).toContain('49.99');
    expect(html).toMatch(/<form[^>]*method="post"/i);
  });

  it('answers 404 for an unknown reference', async () => {
    const page = await fetch(`${sandbox.url}/pages/bank/PAY_DOESNOTEXIST`);
    expect(page.status).toBe(404);
  });

  it('sends the browser to return-url with the reference after approval', async () => {
    const { reference, authUrl } = await initiate();
    const answer = await postDecision(authUrl, 'approve');
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '', 'http://invalid.example');
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/return');
    expect(location.searchParams.get('reference')).toBe(reference);
    // Authorised, not yet settled.
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it("keeps return-url's own query when it appends the reference", async () => {
    const { reference, authUrl } = await initiate({
      ...BANK_INITIATION,
      metaData: { 'return-url': 'https://shop.example/return?order=42&lang=en' },
    });
    const answer = await postDecision(authUrl, 'approve');
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.searchParams.get('order')).toBe('42');
    expect(location.searchParams.get('lang')).toBe('en');
    expect(location.searchParams.get('reference')).toBe(reference);
  });

  it('sends the browser back after a decline too, and the payment fails at once', async () => {
    const { reference, authUrl } = await initiate();
    const answer = await postDecision(authUrl, 'decline');
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.searchParams.get('reference')).toBe(reference);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('closes itself instead of redirecting when metaData.redirect is false', async () => {
    const { reference, authUrl } = await initiate({
      ...BANK_INITIATION,
      metaData: { ...BANK_INITIATION.metaData, redirect: false },
    });
    const answer = await postDecision(authUrl, 'approve');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await answer.text()).toContain('window.close');
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });

  it('offers no second decision once the customer has decided', async () => {
    const { authUrl } = await initiate();
    await postDecision(authUrl, 'approve');
    const html = await (await fetch(authUrl)).text();
    expect(html).not.toMatch(/name="decision"/);
  });

  it('does not let a decline posted after an approval fail the payment', async () => {
    const { reference, authUrl } = await initiate();
    await postDecision(authUrl, 'approve');
    await postDecision(authUrl, 'decline');
    await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });
});

describe('the bank control', () => {
  it('approve: PENDING at once, Successfull about a second later', async () => {
    const { reference } = await initiate();
    const approvedAt = Date.now();
    const answer = await decide(reference, true);
    expect(answer.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await eventually(
      () => listedStatus(reference),
      (value) => value === 'SUCCESSFUL',
      4000,
    );
    const elapsed = Date.now() - approvedAt;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('approve then a clock move of 2 s: Successfull at once', async () => {
    const { reference } = await initiate();
    await decide(reference, true);
    const moved = await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    expect(moved.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('decline: FAILED at once', async () => {
    const { reference } = await initiate();
    const answer = await decide(reference, false);
    expect(answer.status).toBe(200);
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  for (const [first, second] of [
    [true, true],
    [true, false],
    [false, true],
    [false, false],
  ] as const) {
    it(`refuses ${second ? 'approve' : 'decline'} after ${first ? 'approve' : 'decline'} with 409`, async () => {
      const { reference } = await initiate();
      expect((await decide(reference, first)).status).toBe(200);
      const again = await decide(reference, second);
      expect(again.status).toBe(409);
      await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
      expect(await paymentStatus(sandbox, reference)).toBe(first ? 'Successfull' : 'FAILED');
    });
  }

  it('sends one payment.success after settlement, and payment.failed after a decline', async () => {
    const receiver = await startWebhookReceiver();
    try {
      await call(sandbox, 'POST', '/__sandbox/config', { webhookUrl: receiver.url });
      const approved = await initiate();
      const declined = await initiate();
      await decide(approved.reference, true);
      await decide(declined.reference, false);
      await call(sandbox, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
      await receiver.waitFor(2);
      await deliveriesEnded(sandbox);
      const events = Object.fromEntries(
        receiver.received.map((hook) => [hook.json.data.paymentReference, hook.json]),
      );
      expect(receiver.received).toHaveLength(2);
      expect(events[approved.reference]?.event).toBe('payment.success');
      expect(events[approved.reference]?.data).toMatchObject({
        status: 'Successfull',
        amount: 49.99,
        currency: 'GBP',
      });
      expect(events[declined.reference]?.event).toBe('payment.failed');
    } finally {
      await receiver.close();
    }
  });
});
