// Every journey of the checkout through the companion over real HTTP, against a real sandbox:
// what the customer sees at each step, what the merchant's hook hears, and that the provider
// holds exactly the payments the customer meant to make.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CompanionRig,
  companionPerTest,
  control,
  ORDERS,
  recorder,
  sandboxPayments,
  startPayment,
  webhooksSettled,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_journeys_${crypto.randomUUID().replaceAll('-', '')}`;

let rig: CompanionRig;
/** Every answer the companion gave in this file's tests, scanned for the key afterwards. */
const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call } = recorder(seen);

beforeEach(async () => {
  rig = await start();
});

function initiateCalls(): number {
  return rig.providerCalls.filter((entry) => entry.path === '/api/payment/pay/initiate').length;
}

describe('PayByTransfer', () => {
  it('shows the account, and the transfer ends in SUCCESSFUL reported once to the merchant', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:t1' } });
    expect(session.status).toBe(200);
    expect(session.body.checkout).toEqual({
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
      description: ORDERS['order-ngn']?.description,
      channels: [
        { name: 'PayByTransfer', description: expect.any(String) },
        { name: 'Card', description: expect.any(String) },
      ],
      // The test companion types cards in its card entry; a merchant's default is 'hosted'.
      cardEntry: 'direct',
    });
    expect(session.body.payment).toBeNull();

    const initiated = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer', customer: { firstName: 'Ada', lastName: 'Obi' } },
    });
    expect(initiated.status, initiated.text).toBe(200);
    const payment = initiated.body.payment;
    expect(payment).toMatchObject({
      channel: 'PayByTransfer',
      status: 'PENDING',
      amount: { amountMinor: 2_500_050, currency: 'NGN' },
      bankAuthUrl: null,
      virtualAccount: {
        bank: expect.any(String),
        accountNumber: expect.stringMatching(/^\d{10}$/),
        accountName: expect.stringContaining('Ada Obi'),
      },
    });
    const expiresIn = Date.parse(payment.virtualAccount.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000);

    const before = await call(rig, 'GET', '/status', { token: initiated.body.token });
    expect(before.body).toMatchObject({ reference: payment.reference, status: 'PENDING' });

    await control(rig, 'POST', `/__sandbox/payments/${payment.reference}/transfer`);
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toEqual([
      {
        reference: payment.reference,
        status: 'SUCCESSFUL',
        orderId: 'order-ngn:t1',
        linkAlias: null,
        channel: 'PayByTransfer',
        amount: { amountMinor: 2_500_050, currency: 'NGN' },
        amountMatches: true,
        duplicate: false,
        duplicateOf: null,
      },
    ]);
    const after = await call(rig, 'GET', '/status', { token: initiated.body.token });
    expect(after.body).toMatchObject({ reference: payment.reference, status: 'SUCCESSFUL' });
    expect(rig.paymentOutcomes).toHaveLength(1);
  });

  it('reports an underpaid transfer as FAILED, once', async () => {
    const { token, payment } = await startPayment(rig, 'order-ngn:t2', 'PayByTransfer');
    await control(rig, 'POST', `/__sandbox/payments/${payment.reference}/transfer`, {
      amount: 100,
    });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      { reference: payment.reference, status: 'FAILED', orderId: 'order-ngn:t2' },
    ]);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body.status).toBe('FAILED');
  });

  it('resumes the pending payment when the customer reloads: same account, no new initiation', async () => {
    const first = await startPayment(rig, 'order-ngn:t3', 'PayByTransfer');
    // The widget sends back the key it was given (issue 20): only it sees the account again.
    const reload = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:t3', paymentKeys: [first.paymentKey] },
    });
    expect(reload.status).toBe(200);
    expect(reload.body.payment).toMatchObject({
      reference: first.payment.reference,
      status: 'PENDING',
      virtualAccount: first.payment.virtualAccount,
    });
    // The resumed token opens the same payment.
    const status = await call(rig, 'GET', '/status', { token: reload.body.token });
    expect(status.body).toMatchObject({ reference: first.payment.reference, status: 'PENDING' });
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });

  it('gives the same payment for the same order and channel twice: one payment at the provider', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:t4' } });
    const body = { channel: 'PayByTransfer' };
    const one = await call(rig, 'POST', '/initiate', { token: session.body.token, body });
    const two = await call(rig, 'POST', '/initiate', { token: session.body.token, body });
    // Another tab of the same browser holds the payment's key (issue 20).
    const otherTab = await call(rig, 'POST', '/session', {
      body: { order: 'order-ngn:t4', paymentKeys: [one.body.paymentKey] },
    });
    const three = await call(rig, 'POST', '/initiate', { token: otherTab.body.token, body });
    expect([one.status, two.status, three.status]).toEqual([200, 200, 200]);
    expect(two.body.payment.reference).toBe(one.body.payment.reference);
    expect(three.body.payment.reference).toBe(one.body.payment.reference);
    expect(two.body.payment.virtualAccount).toEqual(one.body.payment.virtualAccount);
    expect(initiateCalls()).toBe(1);
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });

  it('a double click initiates once: concurrent initiations share one provider payment', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:t5' } });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(rig, 'POST', '/initiate', {
          token: session.body.token,
          body: { channel: 'PayByTransfer' },
        }),
      ),
    );
    const references = new Set(
      answers.filter((a) => a.status === 200).map((a) => a.body.payment.reference),
    );
    expect(references.size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('conflict');
    }
    expect(initiateCalls()).toBe(1);
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });

  it('does not start a second payment for an order that is already paid', async () => {
    const paid = await startPayment(rig, 'order-ngn:t6', 'PayByTransfer');
    await control(rig, 'POST', `/__sandbox/payments/${paid.payment.reference}/transfer`);
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toHaveLength(1);

    const again = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:t6' } });
    expect(again.body.payment).toMatchObject({
      reference: paid.payment.reference,
      status: 'SUCCESSFUL',
    });
    const sameChannel = await call(rig, 'POST', '/initiate', {
      token: again.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(sameChannel.body.payment).toMatchObject({
      reference: paid.payment.reference,
      status: 'SUCCESSFUL',
    });
    // Another channel for the same, already paid order must not charge the customer again.
    const byCard = await call(rig, 'POST', '/initiate', {
      token: again.body.token,
      body: { channel: 'Card', card: testCard('4242424242424242') },
    });
    expect(initiateCalls(), 'a second initiation for a paid order').toBe(1);
    expect(await sandboxPayments(rig)).toHaveLength(1);
    if (byCard.status === 200) expect(byCard.body.payment.reference).toBe(paid.payment.reference);
    else expect(byCard.status).toBe(409);
  });
});

describe('PayByAccount', () => {
  it('opens the sandbox bank, and after approval and settlement reports SUCCESSFUL once', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-gbp:a1' } });
    expect(session.body.checkout.amount).toEqual({ amountMinor: 4_999, currency: 'GBP' });
    expect(session.body.checkout.channels.map((c: { name: string }) => c.name)).toEqual([
      'PayByAccount',
      'Card',
    ]);
    const initiated = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByAccount' },
    });
    expect(initiated.status, initiated.text).toBe(200);
    const { payment, token } = initiated.body;
    expect(payment).toMatchObject({
      channel: 'PayByAccount',
      status: 'PENDING',
      virtualAccount: null,
      amount: { amountMinor: 4_999, currency: 'GBP' },
    });
    expect(payment.bankAuthUrl).toBe(
      `${rig.sandbox.url}/pages/bank/${encodeURIComponent(payment.reference)}`,
    );

    await control(rig, 'POST', `/__sandbox/payments/${payment.reference}/bank`, { approve: true });
    // Authorised, not settled: still pending, and nothing reported yet.
    expect((await call(rig, 'GET', '/status', { token })).body.status).toBe('PENDING');
    expect(rig.paymentOutcomes).toEqual([]);

    await control(rig, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      {
        reference: payment.reference,
        status: 'SUCCESSFUL',
        orderId: 'order-gbp:a1',
        channel: 'PayByAccount',
        amount: { amountMinor: 4_999, currency: 'GBP' },
        amountMatches: true,
      },
    ]);
    await expect
      .poll(async () => (await call(rig, 'GET', '/status', { token })).body.status)
      .toBe('SUCCESSFUL');
    expect(rig.paymentOutcomes).toHaveLength(1);
  });

  it('the bank page sends the customer back to the companion’s return page', async () => {
    const { payment } = await startPayment(rig, 'order-gbp:a2', 'PayByAccount');
    const bankPage = await fetch(payment.bankAuthUrl);
    expect(bankPage.status).toBe(200);
    expect(await bankPage.text()).toContain('Approve');
    const decision = await fetch(payment.bankAuthUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    expect(decision.status).toBe(303);
    const back = new URL(decision.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(`${rig.url}/return`);
    expect(back.searchParams.get('reference')).toBe(payment.reference);

    const returnPage = await fetch(back);
    const html = await returnPage.text();
    seen.push(html);
    expect(returnPage.status).toBe(200);
    expect(html).toContain(`data-reference="${payment.reference}"`);
    await control(rig, 'POST', '/__sandbox/clock', { advanceSeconds: 2 });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      { reference: payment.reference, status: 'SUCCESSFUL' },
    ]);
  });

  it('with redirect: false the bank page closes itself instead of redirecting', async () => {
    const { payment } = await startPayment(rig, 'order-gbp:a3', 'PayByAccount', {
      redirect: false,
    });
    const decision = await fetch(payment.bankAuthUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'decline' }),
      redirect: 'manual',
    });
    expect(decision.status).toBe(200);
    expect(await decision.text()).toContain('window.close()');
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([{ reference: payment.reference, status: 'FAILED' }]);
  });
});

describe('Card', () => {
  it('without a challenge: authenticate says none is needed, finalize is SUCCESSFUL, once', async () => {
    const { token, payment } = await startPayment(rig, 'order-usd:c1', 'Card', {
      card: testCard('4242424242424242'),
    });
    expect(payment).toMatchObject({
      channel: 'Card',
      status: 'PENDING',
      amount: { amountMinor: 1_800, currency: 'USD' },
      virtualAccount: null,
      bankAuthUrl: null,
    });
    const auth = await call(rig, 'POST', '/authenticate', { token });
    expect(auth.body).toEqual({ authenticationRequired: false, challengeUrl: null });
    const finalized = await call(rig, 'POST', '/finalize', { token });
    expect(finalized.body).toEqual({ reference: payment.reference, status: 'SUCCESSFUL' });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      { reference: payment.reference, status: 'SUCCESSFUL', orderId: 'order-usd:c1' },
    ]);
    expect(rig.paymentOutcomes).toHaveLength(1);
    // The card number is nowhere in what the browser got back.
    expect(seen.some((text) => text.includes('4242424242424242'))).toBe(false);
  });

  it('with a challenge: the challenge page frames the issuer, the code passes, finalize succeeds', async () => {
    const { token, payment } = await startPayment(rig, 'order-ngn:c2', 'Card', {
      card: testCard('4000000000003220'),
    });
    const auth = await call(rig, 'POST', '/authenticate', { token });
    expect(auth.body.authenticationRequired).toBe(true);
    const challengeUrl = new URL(auth.body.challengeUrl);
    expect(`${challengeUrl.origin}${challengeUrl.pathname}`).toBe(`${rig.url}/challenge`);

    // Finalize before the challenge is refused, and nothing is charged.
    const early = await call(rig, 'POST', '/finalize', { token });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('conflict');

    const page = await fetch(challengeUrl);
    const pageHtml = await page.text();
    seen.push(pageHtml);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const frameTag = pageHtml.match(/<iframe[^>]*>/)?.[0] ?? '';
    expect(frameTag).toContain('sandbox="allow-scripts allow-forms"');
    expect(frameTag).not.toContain('allow-same-origin');
    const frameSrc = (frameTag.match(/src="([^"]+)"/)?.[1] ?? '').replaceAll('&amp;', '&');
    const frameUrl = new URL(frameSrc);
    expect(`${frameUrl.origin}${frameUrl.pathname}`).toBe(`${rig.url}/challenge/frame`);
    // A ticket of its own, not the payment's token: the issuer's markup can read its frame's URL.
    const ticket = frameUrl.searchParams.get('token');
    expect(ticket).toMatch(/^\S{20,}$/);
    expect(ticket).not.toBe(token);

    const frame = await fetch(frameUrl);
    const markup = await frame.text();
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-security-policy')).toContain(
      'sandbox allow-scripts allow-forms',
    );
    const action = (markup.match(/<form[^>]*action="([^"]+)"/)?.[1] ?? '').replaceAll('&amp;', '&');
    expect(action).toBe(`${rig.sandbox.url}/pages/challenge/${payment.reference}`);
    const result = await fetch(action, {
      method: 'POST',
      body: new URLSearchParams({ code: '123456' }),
    });
    expect(await result.text()).toContain('"outcome":"passed"');

    const finalized = await call(rig, 'POST', '/finalize', { token });
    expect(finalized.body).toEqual({ reference: payment.reference, status: 'SUCCESSFUL' });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      { reference: payment.reference, status: 'SUCCESSFUL' },
    ]);
    expect(rig.paymentOutcomes).toHaveLength(1);
  });

  it('a failed challenge fails the payment, reported once', async () => {
    const { token, payment } = await startPayment(rig, 'order-ngn:c3', 'Card', {
      card: testCard('4000000000003220'),
    });
    await call(rig, 'POST', '/authenticate', { token });
    await fetch(`${rig.sandbox.url}/pages/challenge/${payment.reference}`, {
      method: 'POST',
      body: new URLSearchParams({ code: '000000' }),
    });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([{ reference: payment.reference, status: 'FAILED' }]);
    expect((await call(rig, 'GET', '/status', { token })).body.status).toBe('FAILED');
  });

  it('a declined card ends FAILED, and the customer can then pay with another card', async () => {
    const declined = await startPayment(rig, 'order-ngn:c4', 'Card', {
      card: testCard('4000000000000002'),
    });
    await call(rig, 'POST', '/authenticate', { token: declined.token });
    const finalized = await call(rig, 'POST', '/finalize', { token: declined.token });
    // Why, in the contract's words, so the widget can say the card was declined (issue 12).
    expect(finalized.body).toEqual({
      reference: declined.payment.reference,
      status: 'FAILED',
      reason: 'card_declined',
    });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([
      { reference: declined.payment.reference, status: 'FAILED', orderId: 'order-ngn:c4' },
    ]);

    // A failed payment is not resumed: the next session offers a fresh start.
    const retry = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:c4' } });
    expect(retry.body.payment).toBeNull();
    const second = await call(rig, 'POST', '/initiate', {
      token: retry.body.token,
      body: { channel: 'Card', card: testCard('4242424242424242') },
    });
    expect(second.status).toBe(200);
    expect(second.body.payment.reference).not.toBe(declined.payment.reference);
    await call(rig, 'POST', '/authenticate', { token: second.body.token });
    const paid = await call(rig, 'POST', '/finalize', { token: second.body.token });
    expect(paid.body.status).toBe('SUCCESSFUL');
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes.map((o) => o.status)).toEqual(['FAILED', 'SUCCESSFUL']);
  });

  it('finalize twice charges once and reports once', async () => {
    const { token, payment } = await startPayment(rig, 'order-gbp:c5', 'Card', {
      card: testCard('4242424242424242'),
    });
    await call(rig, 'POST', '/authenticate', { token });
    const one = await call(rig, 'POST', '/finalize', { token });
    const two = await call(rig, 'POST', '/finalize', { token });
    expect(one.body.status).toBe('SUCCESSFUL');
    expect(two.body).toEqual({ reference: payment.reference, status: 'SUCCESSFUL' });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toHaveLength(1);
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });
});
