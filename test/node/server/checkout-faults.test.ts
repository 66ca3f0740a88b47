// Provider faults injected through the sandbox: slow, 5xx, 429, dropped, malformed and lost
// answers. Reads are retried; an initiation or a finalize is never sent blindly a second time;
// whatever happens, no payment is lost and none is made twice.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CompanionRig,
  companionPerTest,
  control,
  recorder,
  sandboxPayments,
  webhooksSettled,
} from '../../helpers/companion';
import { testCard } from '../../helpers/sandbox';

const KEY = `sk_test_faults_${crypto.randomUUID().replaceAll('-', '')}`;
const STATUS = '/api/payment/pay/status/';

let rig: CompanionRig;
const seen: string[] = [];
const start = companionPerTest(KEY, seen);
const { call, begin } = recorder(seen);

/**
 * The companion's provider deadline in this file: long enough that a call which is merely slow on
 * a loaded machine is never cut. With a 200 ms deadline for every test, calls beside a second copy
 * of the suite were cut and answered 504 where a test about a 500 expects 502, or retried and
 * counted by a test about the status cache.
 */
const PATIENT_MS = 5000;
/**
 * For the tests about slow answers only: a deadline, and an injected latency well past it. The
 * deadline is still a second, not 200 ms, so the answer that is not slowed fits in it under load.
 */
const HASTY_MS = 1000;
const SLOW = { type: 'latency', ms: 2500 };

beforeEach(async () => {
  rig = await start({ timeouts: { providerMs: PATIENT_MS } });
});

function faults(...rules: unknown[]) {
  return control(rig, 'POST', '/__sandbox/config', { faults: rules });
}

/** Restarts the companion with the short deadline that a test about slow answers needs. */
async function hastyProvider(): Promise<void> {
  await rig.close();
  rig = await start({ timeouts: { providerMs: HASTY_MS } });
}

function callsTo(prefix: string, from = 0): number {
  return rig.providerCalls.slice(from).filter((entry) => entry.path.startsWith(prefix)).length;
}

function expectCleanError(answer: { text: string; body: { error: object } }): void {
  expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'message', 'requestId']);
  expect(answer.text).not.toContain('Injected');
  expect(answer.text).not.toContain(rig.sandbox.url);
}

describe('status: a read, retried where safe', () => {
  it('rides out 500, 500 and answers 200', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f1', 'PayByTransfer');
    await faults({
      endpoint: 'status',
      steps: [
        { type: 'error', status: 500 },
        { type: 'error', status: 500 },
      ],
    });
    const from = rig.providerCalls.length;
    const answer = await call(rig, 'GET', '/status', { token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ reference, status: 'PENDING' });
    expect(callsTo(STATUS, from)).toBe(3);
  });

  it('waits out a 429 as long as Retry-After says, then answers 200', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f2', 'PayByTransfer');
    await faults({ endpoint: 'status', steps: [{ type: 'rateLimit', retryAfterSeconds: 1 }] });
    const from = rig.providerCalls.length;
    const started = Date.now();
    const answer = await call(rig, 'GET', '/status', { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reference, status: 'PENDING' });
    // A lower bound on a wait the companion makes itself (the transport's real sleep, which the
    // handler does not let a test replace): a loaded machine only lengthens it, so this cannot
    // fail falsely.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(callsTo(STATUS, from)).toBe(2);
  });

  it('answers 429 rate_limited with Retry-After when the provider keeps refusing', async () => {
    const { token } = await begin(rig, 'order-ngn:f3', 'PayByTransfer');
    const limit = { type: 'rateLimit', retryAfterSeconds: 0 };
    await faults({ endpoint: 'status', steps: [limit, limit, limit] });
    const answer = await call(rig, 'GET', '/status', { token });
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe('rate_limited');
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expectCleanError(answer);
  });

  it('retries a dropped connection', async () => {
    const { token } = await begin(rig, 'order-ngn:f4', 'PayByTransfer');
    await faults({ endpoint: 'status', steps: [{ type: 'drop' }] });
    const answer = await call(rig, 'GET', '/status', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('PENDING');
  });

  it('retries a slow answer past the deadline, and answers 504 timeout when every try is slow', async () => {
    await hastyProvider();
    const first = await begin(rig, 'order-ngn:f5a', 'PayByTransfer');
    const second = await begin(rig, 'order-ngn:f5b', 'PayByTransfer');
    await faults({ endpoint: 'status', steps: [SLOW] });
    const once = await call(rig, 'GET', '/status', { token: first.token });
    expect(once.status).toBe(200);

    await faults({ endpoint: 'status', steps: [SLOW, SLOW, SLOW] });
    const from = rig.providerCalls.length;
    const always = await call(rig, 'GET', '/status', { token: second.token });
    expect(always.status).toBe(504);
    expect(always.body.error.code).toBe('timeout');
    // Each of the three tries was cut at the deadline, and then it stopped trying.
    expect(callsTo(STATUS, from)).toBe(3);
    expectCleanError(always);
  });

  it('answers 502 unavailable for a malformed answer, and the next query works', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f6', 'PayByTransfer');
    await faults({ endpoint: 'status', steps: [{ type: 'malformed' }] });
    const bad = await call(rig, 'GET', '/status', { token });
    expect(bad.status).toBe(502);
    expect(bad.body.error.code).toBe('unavailable');
    expect(bad.text).not.toContain('REQUI');
    expectCleanError(bad);
    const good = await call(rig, 'GET', '/status', { token });
    expect(good.body).toMatchObject({ reference, status: 'PENDING' });
  });

  it('a hundred waiting tabs cost at most two provider status calls, and all hear the same', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f7', 'PayByTransfer');
    // The cache holds an answer for one second of the companion's clock; held still, a hundred
    // calls that take longer than that on a loaded machine still fall in the same second.
    const release = rig.holdClock();
    const from = rig.providerCalls.length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => call(rig, 'GET', '/status', { token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    for (const answer of answers)
      expect(answer.body).toMatchObject({ reference, status: 'PENDING' });
    expect(callsTo(STATUS, from)).toBeLessThanOrEqual(2);
    release();
  });

  it('twenty reloads of the bank’s return page cost at most two provider status calls', async () => {
    const { reference } = await begin(rig, 'order-gbp:f8', 'PayByAccount');
    await control(rig, 'POST', `/__sandbox/payments/${reference}/bank`, { approve: true });
    const release = rig.holdClock();
    const from = rig.providerCalls.length;
    const pages = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${rig.url}/return?reference=${reference}`).then((r) => r.status),
      ),
    );
    expect(pages).toEqual(Array(20).fill(200));
    // Each page schedules a confirmation the picker runs in the background: wait for all of it.
    await rig.handler.idle();
    expect(callsTo(STATUS, from)).toBeGreaterThanOrEqual(1);
    expect(callsTo(STATUS, from)).toBeLessThanOrEqual(2);
    release();
  });
});

describe('initiate: never sent blindly twice', () => {
  it('answers 502 unavailable on a 500 after exactly one initiation, and the browser’s retry pays once', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:f10' } });
    await faults({ endpoint: 'initiate', steps: [{ type: 'error', status: 500 }] });
    const from = rig.providerCalls.length;
    const failed = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe('unavailable');
    expectCleanError(failed);
    expect(callsTo('/api/payment/pay/initiate', from)).toBe(1);
    expect(await sandboxPayments(rig)).toEqual([]);

    const retried = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(retried.status).toBe(200);
    expect(callsTo('/api/payment/pay/initiate', from)).toBe(2);
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });

  it('answers 502 on a dropped connection after one initiation, nothing made', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:f11' } });
    await faults({ endpoint: 'initiate', steps: [{ type: 'drop' }] });
    const from = rig.providerCalls.length;
    const failed = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(failed.status).toBe(502);
    expect(callsTo('/api/payment/pay/initiate', from)).toBe(1);
    expect(await sandboxPayments(rig)).toEqual([]);
  });

  it('reports a lost answer to the browser and does not initiate again on its own', async () => {
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:f12' } });
    await faults({ endpoint: 'initiate', steps: [{ type: 'lostResponse' }] });
    const from = rig.providerCalls.length;
    const failed = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(['unavailable', 'timeout']).toContain(failed.body.error.code);
    await rig.handler.idle();
    expect(callsTo('/api/payment/pay/initiate', from)).toBe(1);
    expect(await sandboxPayments(rig)).toHaveLength(1);
  });

  it('answers 504 timeout when the provider is slower than timeouts.providerMs, after one initiation', async () => {
    await hastyProvider();
    const session = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:f13' } });
    await faults({ endpoint: 'initiate', steps: [SLOW] });
    const from = rig.providerCalls.length;
    const failed = await call(rig, 'POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    // 504 timeout: the companion's own deadline cut the call (had it waited for the provider's
    // answer, that answer would have been a 200).
    expect(failed.status).toBe(504);
    expect(failed.body.error.code).toBe('timeout');
    expectCleanError(failed);
    // A second initiation could only come from the call (answered now) or from background work:
    // once that is idle too, the count is final.
    await rig.handler.idle();
    expect(callsTo('/api/payment/pay/initiate', from)).toBe(1);
  });

  it('a failed session lookup is retried: validate is a read', async () => {
    await faults({
      endpoint: 'validate',
      steps: [{ type: 'error', status: 503 }, { type: 'drop' }],
    });
    const answer = await call(rig, 'POST', '/session', { body: { order: 'order-ngn:f14' } });
    expect(answer.status, answer.text).toBe(200);
    expect(callsTo('/api/payment/pay/validate')).toBe(3);
  });
});

describe('card steps under faults', () => {
  it('retries the authentication check (a read) through 500, 500', async () => {
    const { token } = await begin(rig, 'order-ngn:f20', 'Card', {
      card: testCard('4000000000003220'),
    });
    await faults({
      endpoint: 'authenticate',
      steps: [
        { type: 'error', status: 500 },
        { type: 'error', status: 502 },
      ],
    });
    const answer = await call(rig, 'POST', '/authenticate', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.authenticationRequired).toBe(true);
  });

  it('does not retry finalize on a 500: one call, 502, and the browser’s retry charges once', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f21', 'Card', {
      card: testCard('4242424242424242'),
    });
    await call(rig, 'POST', '/authenticate', { token });
    await faults({ endpoint: 'finalize', steps: [{ type: 'error', status: 500 }] });
    const from = rig.providerCalls.length;
    const failed = await call(rig, 'POST', '/finalize', { token });
    expect(failed.status).toBe(502);
    expect(callsTo('/api/payment/pay/finalize', from)).toBe(1);
    const retried = await call(rig, 'POST', '/finalize', { token });
    expect(retried.body).toMatchObject({ reference, status: 'SUCCESSFUL' });
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    expect(rig.paymentOutcomes).toHaveLength(1);
  });

  it('a finalize whose answer is lost still ends SUCCESSFUL, reported once', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f22', 'Card', {
      card: testCard('4242424242424242'),
    });
    await call(rig, 'POST', '/authenticate', { token });
    await faults({ endpoint: 'finalize', steps: [{ type: 'lostResponse' }] });
    const from = rig.providerCalls.length;
    const lost = await call(rig, 'POST', '/finalize', { token });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect(callsTo('/api/payment/pay/finalize', from)).toBe(1);
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toMatchObject([{ reference, status: 'SUCCESSFUL' }]);
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body).toMatchObject({ reference, status: 'SUCCESSFUL' });
    expect(rig.paymentOutcomes).toHaveLength(1);
    expect((await sandboxPayments(rig)).map((payment) => payment.status)).toEqual(['SUCCESSFUL']);
  });
});

describe('nothing lost', () => {
  it('a webhook whose confirmation fails is confirmed again later, and reported once', async () => {
    const { token, reference } = await begin(rig, 'order-ngn:f30', 'PayByTransfer');
    const down = { type: 'error', status: 503 };
    await faults({ endpoint: 'status', steps: [down, down, down] });
    await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`);
    await webhooksSettled(rig);
    expect(rig.paymentOutcomes).toEqual([]);
    await expect.poll(() => rig.paymentOutcomes.length).toBe(1);
    expect(rig.paymentOutcomes[0]).toMatchObject({ reference, status: 'SUCCESSFUL' });
    const status = await call(rig, 'GET', '/status', { token });
    expect(status.body.status).toBe('SUCCESSFUL');
    expect(rig.paymentOutcomes).toHaveLength(1);
  });

  it('under random faults on every operation, each paid order is reported exactly once', async () => {
    const references: string[] = [];
    for (let index = 0; index < 6; index++) {
      references.push((await begin(rig, `order-ngn:f31-${index}`, 'PayByTransfer')).reference);
    }
    await control(rig, 'POST', '/__sandbox/config', {
      seed: 7,
      faults: [
        { endpoint: 'status', chance: 0.3, step: { type: 'error', status: 503 } },
        { endpoint: 'webhook', chance: 0.5, step: { type: 'duplicate' } },
      ],
    });
    for (const reference of references) {
      await control(rig, 'POST', `/__sandbox/payments/${reference}/transfer`);
    }
    await webhooksSettled(rig);
    await expect.poll(() => rig.paymentOutcomes.length).toBe(6);
    await rig.handler.idle();
    expect(rig.paymentOutcomes.map((outcome) => outcome.reference).sort()).toEqual(
      references.sort(),
    );
  });
});
