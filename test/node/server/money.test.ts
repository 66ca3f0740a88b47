// Issue 9 over real HTTP against the sandbox's faults: a customer is never charged twice, and no
// outcome is ever lost, whatever happens to the provider's answers. Each scenario is one the
// companion used to get wrong: a second charge, an outcome never reported, a duplicate not
// flagged, forged webhooks that cost memory and provider calls, a 500 for a malformed Host.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDemoOrder } from '../../../demo/catalogue';
import { PATHS } from '../../../src/protocol/paths';
import { createProviderClient } from '../../../src/provider/client';
import { createMemoryStore } from '../../../src/server';
import {
  type CompanionRig,
  companionCall as call,
  control,
  sandboxPayments,
  startCompanion,
  webhooksSettled,
} from '../../helpers/companion';
import { askWithMalformedHosts } from '../../helpers/malformed-host';
import { fundTransferInput, testCard } from '../../helpers/sandbox';

const STATUS = '/api/payment/pay/status/';
const SUCCESS_CARD = testCard('4242424242424242');

let rig: CompanionRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function started(...args: Parameters<typeof startCompanion>): Promise<CompanionRig> {
  rig = await startCompanion(...args);
  return rig;
}

async function faults(on: CompanionRig, rules: unknown[]): Promise<void> {
  await control(on, 'POST', '/__sandbox/config', { faults: rules });
}

/** A card checkout up to the moment finalize is sent: its tokens and reference. */
async function cardUpToFinalize(on: CompanionRig, order: string) {
  const session = await call(on, 'POST', '/session', { body: { order } });
  expect(session.status, session.text).toBe(200);
  const initiated = await call(on, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'Card', card: SUCCESS_CARD },
  });
  expect(initiated.status, initiated.text).toBe(200);
  const token = initiated.body.token as string;
  expect((await call(on, 'POST', '/authenticate', { token })).status).toBe(200);
  return {
    sessionToken: session.body.token as string,
    token,
    reference: initiated.body.payment.reference as string,
  };
}

/**
 * The real fetch, except that the first finalize runs to its end at the provider however soon
 * the companion gives up on it, as a real provider's would: `landed()` resolves once the provider
 * has answered it, the moment a late charge would happen. The companion still sees its own
 * deadline: its signal rejects the call.
 */
function finalizeLeftRunning() {
  let landed: Promise<void> | undefined;
  const leaving: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (landed || url.pathname !== PATHS.finalize) return fetch(input, init);
    const { signal, ...rest } = init ?? {};
    const answered = fetch(input, rest);
    landed = answered.then(async (response) => {
      await response.arrayBuffer();
    });
    return new Promise<Response>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      answered.then(resolve, reject);
    });
  };
  return {
    fetch: leaving,
    landed: () => landed ?? Promise.reject(new Error('finalize was never sent')),
  };
}

/** Card payments the sandbox charged (SUCCESSFUL), whatever the companion thinks. */
async function charged(on: CompanionRig): Promise<number> {
  return (await sandboxPayments(on)).filter((payment) => payment.status === 'SUCCESSFUL').length;
}

/** The customer tries again the way the card form used to: a new initiation for the order. */
async function tryAgainWithCard(on: CompanionRig, sessionToken: string) {
  return call(on, 'POST', '/initiate', {
    token: sessionToken,
    body: { channel: 'Card', card: SUCCESS_CARD },
  });
}

describe('never charged twice', () => {
  it('finalize answer lost, then "Try again": already_paid with the first payment, one charge, one outcome', async () => {
    const on = await started();
    const { sessionToken, token, reference } = await cardUpToFinalize(on, 'order-ngn:m1');
    await faults(on, [{ endpoint: 'finalize', steps: [{ type: 'lostResponse' }] }]);
    const lost = await call(on, 'POST', '/finalize', { token });
    expect(lost.status).toBeGreaterThanOrEqual(500);

    const again = await tryAgainWithCard(on, sessionToken);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe('already_paid');
    expect(again.body.payment).toMatchObject({ reference, status: 'SUCCESSFUL', channel: 'Card' });
    const status = await call(on, 'GET', '/status', { token: again.body.token });
    expect(status.body).toMatchObject({ reference, status: 'SUCCESSFUL' });

    await webhooksSettled(on);
    expect(await charged(on)).toBe(1);
    expect((await sandboxPayments(on)).length).toBe(1);
    expect(on.paymentOutcomes).toMatchObject([
      { reference, status: 'SUCCESSFUL', duplicate: false },
    ]);
  });

  it('finalize 503 before the provider acted: /status finalizes again and learns SUCCESSFUL, one charge', async () => {
    const on = await started();
    const { token, reference } = await cardUpToFinalize(on, 'order-ngn:m2');
    await faults(on, [{ endpoint: 'finalize', steps: [{ type: 'error', status: 503 }] }]);
    const failed = await call(on, 'POST', '/finalize', { token });
    expect(failed.status).toBe(502);
    expect(await charged(on)).toBe(0);

    // The widget asks for status after a finalize error: the companion settles the payment.
    const status = await call(on, 'GET', '/status', { token });
    expect(status.body).toMatchObject({ reference, status: 'SUCCESSFUL' });
    await webhooksSettled(on);
    expect(await charged(on)).toBe(1);
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('finalize slower than the deadline, then "Try again": the slow one charges, the retry does not', async () => {
    const provider = finalizeLeftRunning();
    // A deadline of a second (not a few hundred ms) so that the calls that are not slowed fit in
    // it on a loaded machine; the finalize is slowed well past it.
    const on = await started({ timeouts: { providerMs: 1000 }, fetch: provider.fetch });
    const { sessionToken, token, reference } = await cardUpToFinalize(on, 'order-ngn:m3');
    await faults(on, [{ endpoint: 'finalize', steps: [{ type: 'latency', ms: 2500 }] }]);
    const slow = await call(on, 'POST', '/finalize', { token });
    expect(slow.status).toBe(504);
    expect(slow.body.error.code).toBe('timeout');

    // While the slow finalize is still on its way the payment may yet succeed: not a new one.
    const again = await tryAgainWithCard(on, sessionToken);
    expect(again.status, again.text).toBe(409);
    expect(['payment_pending', 'already_paid']).toContain(again.body.error.code);
    expect(again.body.payment.reference).toBe(reference);

    await expect
      .poll(
        async () => (await call(on, 'GET', '/status', { token: again.body.token })).body.status,
        { timeout: 15_000, interval: 100 },
      )
      .toBe('SUCCESSFUL');
    await provider.landed(); // the slow finalize has reached the provider: a late charge is made by now
    await webhooksSettled(on);
    expect(await charged(on)).toBe(1);
    expect((await sandboxPayments(on)).length).toBe(1);
    expect(on.paymentOutcomes).toHaveLength(1);
    expect(on.paymentOutcomes[0]).toMatchObject({ reference, status: 'SUCCESSFUL' });

    // A returning customer is shown that success, not a card form.
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m3' } });
    expect(session.body.payment).toMatchObject({ reference, status: 'SUCCESSFUL' });
  });

  it('a returning customer whose card finalize is unanswered sees that payment, not a form', async () => {
    const on = await started();
    const { token, reference } = await cardUpToFinalize(on, 'order-ngn:m4');
    await faults(on, [{ endpoint: '*', forSeconds: 3600, step: { type: 'error', status: 503 } }]);
    expect((await call(on, 'POST', '/finalize', { token })).status).toBe(502);
    await faults(on, [
      { endpoint: 'finalize', forSeconds: 3600, step: { type: 'error', status: 503 } },
    ]);
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m4' } });
    expect(session.status, session.text).toBe(200);
    expect(session.body.payment).toMatchObject({ reference, status: 'PENDING', channel: 'Card' });
    const again = await tryAgainWithCard(on, session.body.token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_pending');
    expect(again.body.payment).toMatchObject({ reference, status: 'PENDING' });
    expect((await sandboxPayments(on)).length).toBe(1);
  });
});

/**
 * A provider outage seen from the companion: time moves on 5 s at a time, and the outage
 * ends once it has lasted `seconds` of provider time AND the companion has failed `attempts`
 * times (a companion that gives up sooner never sees it end). Then waits for `done`.
 */
/** How much provider time an outage and its aftermath may take before the test gives up. */
const OUTAGE_LIMIT_SECONDS = 30 * 60;
/**
 * The wall time an outage test may take. It walks the rig's clock in hundreds of small steps, each
 * a few HTTP calls: about 2 s on a quiet machine, but over 20 s beside a second copy of the suite
 * (the steady check, session 10). A companion that never reports is caught by
 * `OUTAGE_LIMIT_SECONDS`, in the rig's time, so this limit only has to bound a hang.
 */
const OUTAGE_TEST_MS = 120_000;

async function outage(
  on: CompanionRig,
  options: { marker: string; seconds: number; attempts: number; done: () => boolean },
): Promise<number> {
  let elapsed = 0;
  let over = false;
  const failures = () => on.logLines.filter((line) => line.includes(options.marker)).length;
  while (!options.done()) {
    // Bounded in provider time, not the machine's: a companion that gave up never gets there.
    if (elapsed > OUTAGE_LIMIT_SECONDS)
      throw new Error(`not done after ${failures()} failed attempts: ${on.logLines.join('\n')}`);
    if (!over && elapsed >= options.seconds && failures() >= options.attempts) {
      await faults(on, []);
      over = true;
    }
    await on.advance(5);
    elapsed += 5;
    await on.handler.idle();
  }
  return failures();
}

describe('never lost, however long the provider is down', { timeout: OUTAGE_TEST_MS }, () => {
  it("status down for 45 s around a transfer's webhook, no browser watching: reported once", async () => {
    const on = await started();
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m10' } });
    const initiated = await call(on, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    const reference = initiated.body.payment.reference as string;
    await faults(on, [
      { endpoint: 'status', forSeconds: 3600, step: { type: 'error', status: 503 } },
    ]);
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    // The webhook was taken (200) while nothing could be confirmed; the customer has gone.
    const failures = await outage(on, {
      marker: 'could not confirm a payment',
      seconds: 45,
      attempts: 6,
      done: () => on.paymentOutcomes.length > 0,
    });
    expect(failures).toBeGreaterThanOrEqual(6);
    await on.handler.idle();
    expect(on.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    const deliveries = (await control(on, 'GET', '/__sandbox/webhooks')).webhooks;
    expect(deliveries.map((delivery: { state: string }) => delivery.state)).toEqual(['delivered']);
    // Settled: a replay of the webhook later changes nothing and costs no provider call.
    const from = on.providerCalls.length;
    await on.advance(3600);
    // Whatever the hour made due has run (advance), and every webhook the sandbox had to send
    // has been delivered and handled: nothing is left that could still ask.
    await webhooksSettled(on);
    expect(on.providerCalls.slice(from).filter((entry) => entry.path.startsWith(STATUS))).toEqual(
      [],
    );
    expect(on.paymentOutcomes).toHaveLength(1);
  });

  it('transaction list down around a payout webhook: the payout is still reported, once', async () => {
    const on = await started();
    const client = createProviderClient({
      baseUrl: on.sandbox.url,
      secretKey: on.sandbox.secretKey,
    });
    const payout = await client.sendFundTransfer(fundTransferInput());
    if (payout.status !== 'accepted') throw new Error(`payout not accepted: ${payout.status}`);
    await faults(on, [
      { endpoint: 'transactions', forSeconds: 3600, step: { type: 'error', status: 503 } },
    ]);
    await on.advance(2); // the payout settles; its webhook reaches the companion
    const failures = await outage(on, {
      marker: 'could not read the transaction list',
      seconds: 45,
      attempts: 4,
      done: () => on.payoutOutcomes.length > 0,
    });
    expect(failures).toBeGreaterThanOrEqual(4);
    await on.handler.idle();
    expect(on.payoutOutcomes).toMatchObject([
      { reference: payout.reference, status: 'Completed', amount: { amountMinor: 150_000 } },
    ]);
  });

  it('a merchant hook down for an hour: the outcome is reported once it is back, then never again', async () => {
    let down = true;
    let failed = 0;
    const returned: string[] = [];
    const on = await started({
      onPaymentOutcome: (outcome) => {
        if (down) {
          failed += 1;
          throw new Error('database unavailable');
        }
        returned.push(outcome.reference);
      },
    });
    const session = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m12' } });
    const initiated = await call(on, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    const reference = initiated.body.payment.reference as string;
    await control(on, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await expect.poll(() => failed).toBeGreaterThanOrEqual(1);
    for (let minute = 0; minute < 60; minute += 5) await on.advance(300);
    expect(failed).toBeGreaterThanOrEqual(5); // tried all along the hour
    expect(returned).toEqual([]);
    down = false;
    await on.advance(3600);
    await on.handler.idle();
    expect(returned).toEqual([reference]);
    await on.advance(7200);
    await on.handler.idle();
    expect(returned).toEqual([reference]);
  });
});

describe('duplicates flagged', () => {
  it('one order paid by transfer and by card: two outcomes, the second a duplicate of the first', async () => {
    const on = await started();
    const first = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m20' } });
    const transfer = await call(on, 'POST', '/initiate', {
      token: first.body.token,
      body: { channel: 'PayByTransfer' },
    });
    const transferReference = transfer.body.payment.reference as string;
    // The customer changes their mind and pays by card in another tab…
    const { token, reference: cardReference } = await cardUpToFinalize(on, 'order-ngn:m20');
    expect((await call(on, 'POST', '/finalize', { token })).body.status).toBe('SUCCESSFUL');
    // …and the transfer they had started arrives too.
    await control(on, 'POST', `/__sandbox/payments/${transferReference}/transfer`);
    await webhooksSettled(on);
    await expect.poll(() => on.paymentOutcomes.length).toBe(2);
    const byReference = new Map(on.paymentOutcomes.map((outcome) => [outcome.reference, outcome]));
    expect(byReference.get(cardReference)).toMatchObject({
      status: 'SUCCESSFUL',
      orderId: 'order-ngn:m20',
      duplicate: false,
      duplicateOf: null,
    });
    expect(byReference.get(transferReference)).toMatchObject({
      status: 'SUCCESSFUL',
      orderId: 'order-ngn:m20',
      duplicate: true,
      duplicateOf: cardReference,
    });
    // The customer keeps seeing the first success.
    const again = await call(on, 'POST', '/session', { body: { order: 'order-ngn:m20' } });
    expect(again.body.payment).toMatchObject({ reference: cardReference, status: 'SUCCESSFUL' });
  });
});

describe('a bounded webhook receiver', () => {
  it('300 forged webhooks with 60 KB ids are refused with 400 and keep nothing', async () => {
    const store = createMemoryStore();
    const on = await started({ store });
    const before = store.size();
    for (let index = 0; index < 300; index++) {
      const answer = await call(on, 'POST', '/webhooks', {
        body: {
          id: `evt_${index}_${'x'.repeat(60_000)}`,
          event: 'payment.success',
          data: { reference: `PAY_FORGED_${index}`, status: 'Successfull' },
        },
      });
      expect(answer.status).toBe(400);
    }
    await on.handler.idle();
    expect(store.size()).toBe(before);
    expect(await store.pending('payments')).toBe(0);
    expect(on.providerCalls.filter((entry) => entry.path.startsWith(STATUS))).toEqual([]);
  });

  it('forged webhooks naming unknown references cost one provider call per reference per minute', async () => {
    const store = createMemoryStore();
    const on = await started({ store });
    const references = Array.from({ length: 50 }, (_, index) => `PAY_UNKNOWN_${index}`);
    for (let round = 0; round < 3; round++) {
      for (const reference of references) {
        const answer = await call(on, 'POST', '/webhooks', {
          body: {
            id: `evt_${round}_${reference}`,
            event: 'payment.success',
            data: { reference, status: 'Successfull' },
          },
        });
        expect(answer.status).toBe(200);
      }
    }
    // Everything the webhooks started has run (idle); then half a minute passes on the
    // companion's clock and what came due in it runs too. No real time is waited: the count
    // below is final, not a sample.
    await on.handler.idle();
    await on.advance(30);
    await on.handler.idle();
    const calls = on.providerCalls.filter((entry) => entry.path.startsWith(STATUS));
    for (const reference of references) {
      expect(
        calls.filter((entry) => entry.path === `${STATUS}${reference}`).length,
      ).toBeLessThanOrEqual(1);
    }
    expect(on.paymentOutcomes).toEqual([]);
    // The provider does not know them: nothing is kept waiting.
    expect(await store.pending('payments')).toBe(0);
  });
});

describe('junk at the edges', () => {
  it("the demo's catalogue answers {order: '__proto__'} with 404 order_not_found, not a 500", async () => {
    const on = await started({ resolveOrder: resolveDemoOrder });
    for (const order of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const answer = await call(on, 'POST', '/session', { body: { order } });
      expect(answer.status, order).toBe(404);
      expect(answer.body.error.code).toBe('order_not_found');
    }
    expect(on.logLines.filter((line) => line.startsWith('error'))).toEqual([]);
  });

  it('a malformed Host gets 400, never a 500, and logs no stack', async () => {
    const on = await started();
    const { heads, errors } = await askWithMalformedHosts(
      Number(new URL(on.url).port),
      '/api/checkout/session',
    );
    for (const [host, head] of Object.entries(heads))
      expect(head, host).toMatch(/^HTTP\/1\.1 400 /);
    expect(errors).toEqual([]);
  });
});
