/**
 * Card payments: initiate → authenticate → the challenge when asked → finalize → status, for
 * every test card of docs/sandbox.md, and the card number kept out of everything the sandbox shows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  cardInitiation,
  deliveriesEnded,
  paymentStatus,
  sandboxPerTest,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/sandbox';

const INITIATE = '/api/payment/pay/initiate';
const FINALIZE = '/api/payment/pay/finalize';

const sandbox = sandboxPerTest();

async function initiate(number: string, currency = 'NGN'): Promise<string> {
  const answer = await call(sandbox, 'POST', INITIATE, cardInitiation(number, currency));
  expect(answer.status, answer.text).toBe(200);
  const item = answer.body.value.paymentItem;
  expect(item.channel).toBe('Card');
  expect(item.paymentReference).toBe(item.reference);
  return item.paymentReference as string;
}

async function authenticate(reference: string) {
  const answer = await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value as {
    status: string;
    IsAuthenticationEnabled: boolean;
    Recommendation: string;
    message: string;
    authenticationhtml: string;
  };
}

function finalize(reference: string) {
  return call(sandbox, 'POST', FINALIZE, { paymentReference: reference });
}

/** The challenge form's action (absolute) and the name of its code input. */
function challengeForm(html: string): { action: string; input: string } {
  const action = /<form[^>]*\saction="([^"]+)"/i.exec(html)?.[1];
  const method = /<form[^>]*\smethod="([^"]+)"/i.exec(html)?.[1];
  const input = /<input[^>]*\sname="([^"]+)"/i.exec(html)?.[1];
  expect(action).toBeDefined();
  expect(method?.toLowerCase()).toBe('post');
  expect(input).toBeDefined();
  return { action: (action ?? '').replaceAll('&amp;', '&'), input: input ?? '' };
}

/** Submits the code as the challenge form would, and reads the postMessage of the result page. */
async function submitChallenge(html: string, code: string) {
  const { action, input } = challengeForm(html);
  const response = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ [input]: code }).toString(),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await response.text();
  const posted = /postMessage\(\s*(\{.*?\})\s*,\s*(['"])\*\2\s*\)/s.exec(page)?.[1];
  expect(posted, page).toBeDefined();
  return JSON.parse(posted ?? 'null') as { type: string; reference: string; outcome: string };
}

describe('authenticate, for each test card', () => {
  for (const [number, challenged] of [
    ['4242424242424242', false],
    ['4000000000003220', true],
    ['4000000000000002', false],
    ['4000000000009995', false],
    ['4000000000000069', false],
    ['5555555555554444', false],
  ] as const) {
    it(`${number}: IsAuthenticationEnabled ${challenged}`, async () => {
      const reference = await initiate(number);
      const value = await authenticate(reference);
      expect(value.IsAuthenticationEnabled).toBe(challenged);
      expect(typeof value.Recommendation).toBe('string');
      expect(value.Recommendation.length).toBeGreaterThan(0);
      expect(typeof value.authenticationhtml).toBe('string');
      if (challenged) expect(value.authenticationhtml.length).toBeGreaterThan(0);
    });
  }

  it('answers 404 for an unknown reference', async () => {
    const answer = await call(sandbox, 'GET', '/api/payment/pay/authenticate/PAY_DOESNOTEXIST');
    expect(answer.status).toBe(404);
    expect(answer.body.isSuccess).toBe(false);
  });
});

describe('finalize, for each test card', () => {
  for (const [number, outcome] of [
    ['4242424242424242', 'Successfull'],
    ['4000000000000002', 'FAILED'],
    ['4000000000009995', 'FAILED'],
    ['4000000000000069', 'FAILED'],
    ['5555555555554444', 'Successfull'],
  ] as const) {
    it(`${number}: finalize and status say ${outcome}`, async () => {
      const reference = await initiate(number);
      await authenticate(reference);
      expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
      const answer = await finalize(reference);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.value.status).toBe(outcome);
      expect(typeof answer.body.value.message).toBe('string');
      expect(await paymentStatus(sandbox, reference)).toBe(outcome);
    });
  }

  for (const currency of ['GBP', 'USD']) {
    it(`charges 4242… in ${currency} too`, async () => {
      const reference = await initiate('4242424242424242', currency);
      await authenticate(reference);
      expect((await finalize(reference)).body.value.status).toBe('Successfull');
      const answer = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
      expect(answer.body.value.amount).toEqual({ currencyCode: currency, amount: 1500 });
    });
  }

  it('refuses finalize before authenticate with 409, and the card is not charged', async () => {
    const reference = await initiate('4242424242424242');
    const early = await finalize(reference);
    expect(early.status).toBe(409);
    expect(early.body.isSuccess).toBe(false);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    await authenticate(reference);
    expect((await finalize(reference)).body.value.status).toBe('Successfull');
  });

  it('refuses finalize of a declining card before authenticate with 409 and leaves it PENDING', async () => {
    const reference = await initiate('4000000000000002');
    expect((await finalize(reference)).status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });

  it('answers 404 to finalize of an unknown reference', async () => {
    const answer = await finalize('PAY_DOESNOTEXIST');
    expect(answer.status).toBe(404);
    expect(answer.body.isSuccess).toBe(false);
  });
});

describe('the challenge (4000000000003220)', () => {
  it('is a full HTML document whose form posts to the sandbox', async () => {
    const reference = await initiate('4000000000003220');
    const { authenticationhtml: html } = await authenticate(reference);
    expect(html.trimStart()).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<html[\s>]/i);
    expect(html).toMatch(/<\/html>\s*$/i);
    const { action } = challengeForm(html);
    expect(action.startsWith(`${sandbox.url}/`)).toBe(true);
  });

  it('passes with 123456, tells the parent window, and finalize then charges the card', async () => {
    const reference = await initiate('4000000000003220');
    const { authenticationhtml } = await authenticate(reference);
    const message = await submitChallenge(authenticationhtml, '123456');
    expect(message).toEqual({ type: 'challenge.completed', reference, outcome: 'passed' });
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
    const answer = await finalize(reference);
    expect(answer.status).toBe(200);
    expect(answer.body.value.status).toBe('Successfull');
    expect(await paymentStatus(sandbox, reference)).toBe('Successfull');
  });

  it('fails with a wrong code, and the payment is FAILED', async () => {
    const reference = await initiate('4000000000003220');
    const { authenticationhtml } = await authenticate(reference);
    const message = await submitChallenge(authenticationhtml, '654321');
    expect(message).toEqual({ type: 'challenge.completed', reference, outcome: 'failed' });
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
    const answer = await finalize(reference);
    expect(answer.body?.value?.status ?? 'refused').not.toBe('Successfull');
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('cannot be passed after failing it', async () => {
    const reference = await initiate('4000000000003220');
    const { authenticationhtml } = await authenticate(reference);
    await submitChallenge(authenticationhtml, '000000');
    const retry = await submitChallenge(authenticationhtml, '123456');
    expect(retry.outcome).toBe('failed');
    expect(await paymentStatus(sandbox, reference)).toBe('FAILED');
  });

  it('refuses finalize with the challenge still open with 409', async () => {
    const reference = await initiate('4000000000003220');
    await authenticate(reference);
    const answer = await finalize(reference);
    expect(answer.status).toBe(409);
    expect(answer.body.isSuccess).toBe(false);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });

  it('refuses finalize before authenticate with 409', async () => {
    const reference = await initiate('4000000000003220');
    expect((await finalize(reference)).status).toBe(409);
    expect(await paymentStatus(sandbox, reference)).toBe('PENDING');
  });
});

describe('finalize twice', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    await call(sandbox, 'POST', '/__sandbox/config', { webhookUrl: receiver.url });
  });

  afterEach(async () => {
    await receiver.close();
  });

  for (const [number, event] of [
    ['4242424242424242', 'payment.success'],
    ['4000000000000002', 'payment.failed'],
  ] as const) {
    it(`${number}: gives the same answer and sends one ${event}`, async () => {
      const reference = await initiate(number);
      await authenticate(reference);
      const first = await finalize(reference);
      const second = await finalize(reference);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.value).toEqual(first.body.value);
      await receiver.waitFor(1);
      await deliveriesEnded(sandbox);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]?.json.event).toBe(event);
      expect(receiver.received[0]?.json.data.paymentReference).toBe(reference);
    });
  }
});

describe('the card number', () => {
  it('appears nowhere the sandbox shows a payment; only its last four digits', async () => {
    const receiver = await startWebhookReceiver();
    try {
      await call(sandbox, 'POST', '/__sandbox/config', { webhookUrl: receiver.url });
      const numbers = ['4242424242424242', '4000000000003220', '4000000000000002'];
      const texts: string[] = [];
      for (const number of numbers) {
        const initiated = await call(sandbox, 'POST', INITIATE, cardInitiation(number));
        texts.push(initiated.text);
        const reference = initiated.body.value.paymentItem.paymentReference as string;
        const check = await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
        texts.push(check.text);
        if (check.body.value.IsAuthenticationEnabled) {
          await submitChallenge(check.body.value.authenticationhtml, '123456');
        }
        texts.push((await finalize(reference)).text);
        texts.push((await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`)).text);
      }
      await receiver.waitFor(numbers.length);
      texts.push(...receiver.received.map((hook) => hook.body));
      texts.push((await call(sandbox, 'GET', '/__sandbox/webhooks')).text);
      texts.push((await call(sandbox, 'GET', '/v1/api/transactions?page=1&perPage=20')).text);
      const listing = await call(sandbox, 'GET', '/__sandbox/payments');
      texts.push(listing.text);

      for (const number of numbers) {
        for (const text of texts) expect(text).not.toContain(number);
      }
      for (const text of texts) expect(text).not.toMatch(/"cvv"|"cvc"/i);
      const last4 = (listing.body.payments as Array<{ card: { last4: string } | null }>).map(
        (payment) => payment.card?.last4,
      );
      expect(last4).toEqual(numbers.map((number) => number.slice(-4)));
    } finally {
      await receiver.close();
    }
  });
});
