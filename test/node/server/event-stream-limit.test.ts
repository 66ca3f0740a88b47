// One checkout token held 3,000 open event streams (issue 20, item 4). Now a checkout (its token
// and the tokens issued from it) holds at most `maxEventStreamsPerCheckout` open `/events`
// streams on an instance; the next is answered 429 with Retry-After, and a closed stream gives
// its place back. Over real sockets, through this package's Node adapter.
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHandler } from '../../../src/server';
import {
  type CompanionRig,
  companionCall,
  companionPerTest,
  control,
} from '../../helpers/companion';

const KEY = `sk_test_streams_${crypto.randomUUID().replaceAll('-', '')}`;
const seen: string[] = [];
const start = companionPerTest(KEY, seen);

interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** Everything the stream sent so far. */
  text(): string;
  close(): Promise<void>;
}

const open: OpenStream[] = [];
// Registered after companionPerTest's, so it runs first: the streams close before the companion.
afterEach(async () => {
  for (const stream of open.splice(0)) await stream.close();
});

async function openStream(on: CompanionRig, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${on.url}/events?token=${encodeURIComponent(token)}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200) {
    const text = await response.text();
    seen.push(text);
    return {
      status: response.status,
      headers: response.headers,
      text: () => text,
      close: async () => {},
    };
  }
  let text = '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // Aborted by the test.
    }
  })();
  const stream: OpenStream = {
    status: 200,
    headers: response.headers,
    text: () => text,
    async close() {
      controller.abort();
      await pump;
    },
  };
  open.push(stream);
  await expect.poll(() => text.includes('retry:'), { interval: 5 }).toBe(true);
  return stream;
}

async function begin(on: CompanionRig, order: string) {
  const session = await companionCall(on, 'POST', '/session', { body: { order } });
  expect(session.status, session.text).toBe(200);
  const initiated = await companionCall(on, 'POST', '/initiate', {
    token: session.body.token,
    body: { channel: 'PayByTransfer' },
  });
  expect(initiated.status, initiated.text).toBe(200);
  seen.push(session.text, initiated.text);
  return {
    sessionToken: session.body.token as string,
    token: initiated.body.token as string,
    reference: initiated.body.payment.reference as string,
  };
}

describe('event streams per checkout', () => {
  it('the 21st stream of one token is refused with 429 and Retry-After; a closed one frees its place', async () => {
    const on = await start();
    const attacker = await begin(on, 'order-ngn:s1');
    const held: OpenStream[] = [];
    for (let index = 0; index < 20; index++) held.push(await openStream(on, attacker.token));
    expect(held.every((stream) => stream.status === 200)).toBe(true);

    for (let index = 0; index < 5; index++) {
      const refused = await openStream(on, attacker.token);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(refused.text()).error.code).toBe('rate_limited');
    }

    // A tab closes: its place is free once the server has seen the connection go.
    await held[0]?.close();
    await expect
      .poll(async () => {
        const again = await openStream(on, attacker.token);
        return again.status;
      })
      .toBe(200);
    expect((await openStream(on, attacker.token)).status).toBe(429);
  });

  it('meanwhile the real customer, another checkout, streams and hears their payment', async () => {
    const on = await start();
    const attacker = await begin(on, 'order-ngn:s2');
    for (let index = 0; index < 20; index++) await openStream(on, attacker.token);
    expect((await openStream(on, attacker.token)).status).toBe(429);

    const customer = await begin(on, 'order-ngn:s3');
    const stream = await openStream(on, customer.token);
    expect(stream.status).toBe(200);
    await control(on, 'POST', `/__sandbox/payments/${customer.reference}/transfer`);
    await expect.poll(() => stream.text()).toContain('"SUCCESSFUL"');
    expect(on.paymentOutcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
  });

  it('counts every token issued from one checkout together, and takes its limit from the option', async () => {
    const on = await start({ maxEventStreamsPerCheckout: 2 });
    const first = await begin(on, 'order-ngn:s4');
    // Initiating again from the session token gives the live payment back with a token of its
    // own (issued a second later on the companion's clock, so a different string): the same
    // checkout all the same.
    await on.advance(1);
    const again = await companionCall(on, 'POST', '/initiate', {
      token: first.sessionToken,
      body: { channel: 'PayByTransfer' },
    });
    seen.push(again.text);
    expect(again.body.payment.reference).toBe(first.reference);
    const second = again.body.token as string;
    expect(second).not.toBe(first.token);
    expect((await openStream(on, first.token)).status).toBe(200);
    expect((await openStream(on, second)).status).toBe(200);
    expect((await openStream(on, second)).status).toBe(429);
    expect((await openStream(on, first.token)).status).toBe(429);
    // Another checkout is another count.
    const other = await begin(on, 'order-ngn:s5');
    expect((await openStream(on, other.token)).status).toBe(200);
  });

  it('refuses a bad maxEventStreamsPerCheckout at start-up', () => {
    for (const bad of [0, -1, 2.5, 1001, '20' as unknown as number]) {
      expect(() =>
        createCheckoutHandler({
          secretKey: KEY,
          baseUrl: 'http://sandbox.test',
          resolveOrder: () => null,
          maxEventStreamsPerCheckout: bad,
        }),
      ).toThrow(/maxEventStreamsPerCheckout must be a whole number from 1 to 1000/);
    }
  });
});
