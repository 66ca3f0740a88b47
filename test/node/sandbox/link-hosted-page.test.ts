/**
 * The hosted page of a payment link takes cards (issue 19, the provider's side): endpoint 1's
 * `metaData.return-url`, the card form and its headers, every outcome of the test cards, the
 * challenge, the way back to the merchant, cancelling, the webhook's `link.alias`, and every kind
 * of bad form input. In memory, through the sandbox handler; webhooks go to a fake fetch.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureReasonOf } from '../../../src/protocol/failure-reason';
import { createSandboxHandler, type SandboxHandler } from '../../../src/sandbox';
import { SANDBOX_TEST_KEY } from '../../../src/sandbox/test-data';

const BASE = 'http://sandbox.test';
const RETURN_URL = 'https://shop.example/api/checkout/return?order=1042';
const NEXT_YEAR = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const GOOD = { name: 'Ada Obi', number: '4242424242424242', expiry: `12/${NEXT_YEAR}`, cvc: '123' };

interface Sent {
  readonly url: string;
  // biome-ignore lint/suspicious/noExplicitAny: the webhook payload under test
  readonly body: any;
}

let handler: SandboxHandler;
let webhooks: Sent[];

beforeEach(() => {
  webhooks = [];
  handler = createSandboxHandler({
    webhookUrl: 'https://merchant.example/webhooks',
    fetch: async (url, init) => {
      webhooks.push({ url: String(url), body: JSON.parse(String(init?.body)) });
      return new Response(null, { status: 200 });
    },
  });
});

afterEach(() => handler.close());

interface ApiAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  readonly body: any;
}

async function api(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const response = await handler(
    new Request(BASE + path, {
      method,
      headers: { 'X-Api': SANDBOX_TEST_KEY, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

interface LinkOptions {
  readonly linkType?: 0 | 1;
  readonly dynamic?: boolean;
  readonly returnUrl?: string | null;
}

async function createLink({
  linkType = 0,
  dynamic = false,
  returnUrl = RETURN_URL,
}: LinkOptions = {}): Promise<{ alias: string; link: string }> {
  const answer = await api('POST', '/api/payment/payment-link', {
    name: 'Invoice 1042',
    description: 'Two bags of rice',
    linkType,
    amountType: dynamic ? 1 : 0,
    currencyCode: 'NGN',
    ...(dynamic ? {} : { amountInfo: { currencyCode: 'NGN', amount: 5000 } }),
    ...(returnUrl ? { metaData: { 'return-url': returnUrl } } : {}),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.value;
}

function get(path: string): Promise<Response> {
  return handler(new Request(BASE + path));
}

function post(
  path: string,
  fields: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return handler(
    new Request(BASE + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    }),
  );
}

const pay = (alias: string, fields: Record<string, string> | string, headers = {}) =>
  post(`/pages/link/${alias}/pay`, fields, headers);

function payments() {
  return [...handler.world().state.payments.values()];
}

function onlyPayment() {
  const all = payments();
  expect(all).toHaveLength(1);
  return all[0] as NonNullable<(typeof all)[number]>;
}

async function status(reference: string) {
  const answer = await api('GET', `/api/payment/pay/status/${reference}`);
  expect(answer.status).toBe(200);
  return {
    status: answer.body.value.paymentStatus as string,
    message: answer.body.message as string,
  };
}

/** The return URL the page sent the browser to, with its query read. */
function returnedTo(response: Response): URL {
  expect(response.status).toBe(303);
  const location = response.headers.get('location');
  expect(location).not.toBeNull();
  return new URL(location ?? '');
}

/** The inline error of one field, as the customer reads it. */
function fieldError(html: string, field: string): string | undefined {
  return new RegExp(`<p class="error" id="${field}-error">([^<]*)</p>`).exec(html)?.[1];
}

describe("endpoint 1's metaData", () => {
  it('keeps the return-url on the link, and its page offers to cancel back to it', async () => {
    const { alias } = await createLink();
    expect(handler.world().state.links.get(alias)?.returnUrl).toBe(RETURN_URL);
    const html = await (await get(`/pages/link/${alias}`)).text();
    expect(html).toContain(`<form method="post" action="/pages/link/${alias}/cancel">`);
    expect(html).toContain('Cancel and return to the merchant');
  });

  it.each([
    ['a relative URL', 'shop/return', /metaData\.return-url must be an absolute URL/],
    [
      'a javascript: URL',
      'javascript:alert(1)',
      /metaData\.return-url must be an http: or https: URL/,
    ],
    [
      'an ftp: URL',
      'ftp://shop.example/return',
      /metaData\.return-url must be an http: or https: URL/,
    ],
    [
      'a URL of 2049 characters',
      `https://shop.example/${'a'.repeat(2049 - 21)}`,
      /at most 2048 characters/,
    ],
    ['a number', 42, /metaData\.return-url must be a string/],
  ])(
    'refuses %s with a ValidationException, and creates nothing',
    async (_, returnUrl, failure) => {
      const answer = await api('POST', '/api/payment/payment-link', {
        name: 'Invoice',
        linkType: 0,
        amountType: 1,
        currencyCode: 'NGN',
        metaData: { 'return-url': returnUrl },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('ValidationException');
      expect(answer.body.failures.join(' ')).toMatch(failure);
      expect(handler.world().state.links.size).toBe(0);
    },
  );

  it('refuses a metaData without return-url, or with another field', async () => {
    for (const [metaData, failure] of [
      [{}, 'metaData.return-url is required.'],
      [
        { 'return-url': RETURN_URL, redirect: false },
        'metaData.redirect is not a field of this request.',
      ],
    ] as const) {
      const answer = await api('POST', '/api/payment/payment-link', {
        name: 'Invoice',
        linkType: 0,
        amountType: 1,
        currencyCode: 'NGN',
        metaData,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.failures).toContain(failure);
    }
    expect(handler.world().state.links.size).toBe(0);
  });

  it('accepts a 2048-character return-url', async () => {
    const long = `https://shop.example/${'a'.repeat(2048 - 21)}`;
    expect(long).toHaveLength(2048);
    const { alias } = await createLink({ returnUrl: long });
    expect(handler.world().state.links.get(alias)?.returnUrl).toBe(long);
  });
});

describe('the page of a payable link', () => {
  it('shows the name, description, amount and a labelled card form with autofill hints', async () => {
    const { alias, link } = await createLink();
    expect(link).toBe(`${BASE}/pages/link/${alias}`);
    const response = await get(`/pages/link/${alias}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<h1>Invoice 1042</h1>');
    expect(html).toContain('Two bags of rice');
    expect(html).toContain('NGN 5,000.00');
    expect(html).toContain(`<form method="post" action="/pages/link/${alias}/pay">`);
    for (const [id, label, autocomplete] of [
      ['name', 'Name on card', 'cc-name'],
      ['number', 'Card number', 'cc-number'],
      ['expiry', 'Expiry (MM/YY)', 'cc-exp'],
      ['cvc', 'Security code', 'cc-csc'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
      const input = new RegExp(`<input id="${id}" name="${id}"[^>]*>`).exec(html)?.[0] ?? '';
      expect(input).toContain(`autocomplete="${autocomplete}"`);
      if (id !== 'name') expect(input).toContain('inputmode="numeric"');
    }
    expect(html).toContain('<button type="submit">Pay NGN 5,000.00</button>');
    expect(html).not.toContain('name="amount"');
    // No script at all: the page that takes the card runs no code.
    expect(html).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
    expect(html).toContain('@media (prefers-color-scheme:dark)');
  });

  it("answers with a CSP that allows posting only to itself and the return URL's origin, and no framing", async () => {
    const { alias } = await createLink({ returnUrl: 'http://127.0.0.1:43210/back?x=1' });
    const response = await get(`/pages/link/${alias}`);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:43210; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('lists no other origin in form-action when the link has no return URL', async () => {
    const { alias } = await createLink({ returnUrl: null });
    const response = await get(`/pages/link/${alias}`);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(await response.text()).not.toContain('/cancel');
  });

  it("posts under the sandbox's base path when it is mounted inside another server", async () => {
    const mounted = createSandboxHandler({ basePath: '/sandbox' });
    try {
      const created = await mounted(
        new Request(`${BASE}/sandbox/api/payment/payment-link`, {
          method: 'POST',
          headers: { 'X-Api': SANDBOX_TEST_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Tip', linkType: 1, amountType: 1, currencyCode: 'NGN' }),
        }),
      );
      const { alias, link } = ((await created.json()) as { value: { alias: string; link: string } })
        .value;
      expect(link).toBe(`${BASE}/sandbox/pages/link/${alias}`);
      const html = await (await mounted(new Request(link))).text();
      expect(html).toContain(`action="/sandbox/pages/link/${alias}/pay"`);
    } finally {
      mounted.close();
    }
  });

  it('asks for the amount on a link of dynamic amount', async () => {
    const { alias } = await createLink({ dynamic: true, linkType: 1 });
    const html = await (await get(`/pages/link/${alias}`)).text();
    expect(html).toContain('<label for="amount">Amount (NGN)</label>');
    expect(html).toMatch(/<input id="amount" name="amount" inputmode="decimal"/);
    expect(html).toContain('<button type="submit">Pay</button>');
  });

  it('answers 404 for an unknown alias, under the same headers', async () => {
    const response = await get('/pages/link/nosuchalias');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Payment link not found');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect((await pay('nosuchalias', GOOD)).status).toBe(404);
    expect((await post('/pages/link/nosuchalias/cancel', '')).status).toBe(404);
    expect(payments()).toHaveLength(0);
  });

  it('never takes the card in a URL: the pay route answers GET with 405', async () => {
    const { alias } = await createLink();
    const response = await get(`/pages/link/${alias}/pay?${new URLSearchParams(GOOD)}`);
    expect(response.status).toBe(405);
    expect(await response.text()).not.toContain(GOOD.number);
    expect(payments()).toHaveLength(0);
  });
});

describe('paying by card on the page', () => {
  it('charges 4242…, sends the customer back with reference and alias, and the webhook names the link', async () => {
    const { alias } = await createLink();
    const back = returnedTo(await pay(alias, GOOD));
    const payment = onlyPayment();
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/api/checkout/return');
    expect([...back.searchParams]).toEqual([
      ['order', '1042'],
      ['reference', payment.reference],
      ['alias', alias],
    ]);
    expect(payment).toMatchObject({ channel: 'Card', linkAlias: alias, amountMinor: 500_000 });
    expect(await status(payment.reference)).toEqual({
      status: 'Successfull',
      message: 'Payment successful.',
    });
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]?.body).toMatchObject({
      event: 'payment.success',
      data: {
        reference: payment.reference,
        paymentReference: payment.reference,
        status: 'Successfull',
        amount: 5000,
        currency: 'NGN',
        channel: 'Card',
        link: { alias },
      },
    });
    // One-time and paid: the page says so, and a second card is refused.
    const html = await (await get(`/pages/link/${alias}`)).text();
    expect(html).toContain('This link has already been paid');
    expect(html).not.toContain('<form');
    const again = await pay(alias, GOOD);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already been paid');
    expect(payments()).toHaveLength(1);
    expect(
      (
        await api('POST', '/api/payment/pay/initiate', {
          amount: 5000,
          channel: 'Card',
          currency: 'NGN',
          link: { alias },
          card: {
            number: GOOD.number,
            expiryMonth: 12,
            expiryYear: 2099,
            cvv: '123',
            holderName: 'A',
          },
        })
      ).status,
    ).toBe(409);
  });

  it('keeps no card data beyond the last four digits, and logs none', async () => {
    const logged = vi.fn();
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(logged),
    );
    try {
      const { alias } = await createLink();
      const card = { ...GOOD, number: '4000 0000 0000 3220', cvc: '987' };
      const challenge = await pay(alias, card);
      const html = await challenge.text();
      const reference = onlyPayment().reference;
      const done = await post(`/pages/link/${alias}/challenge/${reference}`, { code: '123456' });
      const kept = JSON.stringify([...handler.world().state.payments.values()]);
      for (const where of [
        kept,
        html,
        JSON.stringify(webhooks),
        done.headers.get('location') ?? '',
      ]) {
        expect(where).not.toContain('4000000000003220');
        expect(where).not.toContain('4000 0000 0000 3220');
        // The code stands alone: the same digits inside a timestamp are not the code.
        expect(where).not.toMatch(/(^|\D)987(\D|$)/);
      }
      expect(onlyPayment().card).toEqual({ last4: '3220', behaviour: 'challenge' });
      expect(logged).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('shows a result page instead when the link has no return URL', async () => {
    const { alias } = await createLink({ returnUrl: null });
    const response = await pay(alias, GOOD);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Payment successful');
    expect(html).toContain(onlyPayment().reference);
  });

  it.each([
    ['4000000000000002', 'The card was declined.', 'card_declined'],
    ['4000000000009995', 'The card has insufficient funds.', 'insufficient_funds'],
    ['4000000000000069', 'The card has expired.', 'card_expired'],
  ] as const)(
    'fails %s as the API path does, sends the customer back, and the link stays payable',
    async (number, message, reason) => {
      const { alias } = await createLink();
      const back = returnedTo(await pay(alias, { ...GOOD, number }));
      const payment = onlyPayment();
      expect(back.searchParams.get('reference')).toBe(payment.reference);
      expect(back.searchParams.get('alias')).toBe(alias);
      const report = await status(payment.reference);
      expect(report).toEqual({ status: 'FAILED', message });
      expect(failureReasonOf(report.message)).toBe(reason);

      // The same card through endpoints 3, 4 and 5 with link.alias ends with the same words.
      const initiated = await api('POST', '/api/payment/pay/initiate', {
        amount: 5000,
        channel: 'Card',
        currency: 'NGN',
        link: { alias },
        card: {
          number,
          expiryMonth: 12,
          expiryYear: 2000 + Number(NEXT_YEAR),
          cvv: '123',
          holderName: 'Ada',
        },
      });
      const apiReference = initiated.body.value.paymentItem.paymentReference as string;
      await api('GET', `/api/payment/pay/authenticate/${apiReference}`);
      await api('POST', '/api/payment/pay/finalize', { paymentReference: apiReference });
      expect(await status(apiReference)).toEqual(report);

      expect(webhooks.map((sent) => [sent.body.event, sent.body.data.link])).toEqual([
        ['payment.failed', { alias }],
        ['payment.failed', { alias }],
      ]);
      expect(webhooks[0]?.body.data.reason).toBe(message);
      expect(handler.world().state.links.get(alias)?.status).toBe('New');
      expect(await (await get(`/pages/link/${alias}`)).text()).toContain('name="number"');
      // Another card later pays the one-time link.
      returnedTo(await pay(alias, GOOD));
      expect(handler.world().state.links.get(alias)?.status).toBe('Paid');
    },
  );

  it('says why a card failed on a link without a return URL, and offers another card', async () => {
    const { alias } = await createLink({ returnUrl: null });
    const html = await (await pay(alias, { ...GOOD, number: '4000000000000002' })).text();
    expect(html).toContain('Payment failed');
    expect(html).toContain('The card was declined.');
    expect(html).toContain(`<a href="/pages/link/${alias}">Try another card</a>`);
  });

  it('runs the challenge for 4000…3220: the code 123456 passes and the payment is charged', async () => {
    const { alias } = await createLink();
    const response = await pay(alias, { ...GOOD, number: '4000000000003220' });
    expect(response.status).toBe(200);
    const payment = onlyPayment();
    const html = await response.text();
    expect(html).toContain(
      `<form method="post" action="/pages/link/${alias}/challenge/${payment.reference}">`,
    );
    expect(html).toContain('<label for="code">One-time code</label>');
    expect(html).toContain('autocomplete="one-time-code"');
    expect(response.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://shop.example;",
    );
    expect(await status(payment.reference)).toMatchObject({ status: 'PENDING' });
    expect(webhooks).toHaveLength(0);

    const back = returnedTo(
      await post(`/pages/link/${alias}/challenge/${payment.reference}`, { code: ' 123456 ' }),
    );
    expect(back.searchParams.get('reference')).toBe(payment.reference);
    expect(await status(payment.reference)).toMatchObject({ status: 'Successfull' });
    expect(webhooks.map((sent) => [sent.body.event, sent.body.data.link])).toEqual([
      ['payment.success', { alias }],
    ]);
    // A second post (the back button, a double click) charges nothing more and says the same.
    const again = returnedTo(
      await post(`/pages/link/${alias}/challenge/${payment.reference}`, { code: '123456' }),
    );
    expect(again.href).toBe(back.href);
    expect(webhooks).toHaveLength(1);
  });

  it('fails the payment on a wrong code, in words the companion reads as a failed verification', async () => {
    const { alias } = await createLink();
    await pay(alias, { ...GOOD, number: '4000000000003220' });
    const payment = onlyPayment();
    const back = returnedTo(
      await post(`/pages/link/${alias}/challenge/${payment.reference}`, { code: '000000' }),
    );
    expect(back.searchParams.get('reference')).toBe(payment.reference);
    const report = await status(payment.reference);
    expect(report.status).toBe('FAILED');
    expect(failureReasonOf(report.message)).toBe('verification_failed');
    expect(webhooks.map((sent) => sent.body.event)).toEqual(['payment.failed']);
    expect(handler.world().state.links.get(alias)?.status).toBe('New');
  });

  it('asks again for an empty code, and the challenge stays open', async () => {
    const { alias } = await createLink();
    await pay(alias, { ...GOOD, number: '4000000000003220' });
    const payment = onlyPayment();
    const response = await post(`/pages/link/${alias}/challenge/${payment.reference}`, {
      code: '',
    });
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), 'code')).toBe('Enter the one-time code.');
    expect(payment.challenge).toBe('required');
    expect(await status(payment.reference)).toMatchObject({ status: 'PENDING' });
  });

  it("answers 404 for a reference that is not this link's payment", async () => {
    const { alias } = await createLink();
    const other = await createLink();
    await pay(alias, { ...GOOD, number: '4000000000003220' });
    const payment = onlyPayment();
    for (const path of [
      `/pages/link/${other.alias}/challenge/${payment.reference}`,
      `/pages/link/${alias}/challenge/PAY_NOSUCHREFERENCE`,
    ]) {
      const response = await post(path, { code: '123456' });
      expect(response.status).toBe(404);
    }
    expect(payment.challenge).toBe('required');
  });

  it('pays the amount the customer chose on a link of dynamic amount, many times if reusable', async () => {
    const { alias } = await createLink({ dynamic: true, linkType: 1 });
    returnedTo(await pay(alias, { ...GOOD, amount: '1,500.50' }));
    returnedTo(await pay(alias, { ...GOOD, amount: '20' }));
    expect(payments().map((payment) => [payment.amountMinor, payment.status])).toEqual([
      [150_050, 'SUCCESSFUL'],
      [2000, 'SUCCESSFUL'],
    ]);
    expect(webhooks.map((sent) => sent.body.data.amount)).toEqual([1500.5, 20]);
    expect(await (await get(`/pages/link/${alias}`)).text()).toContain('name="number"');
  });

  it('charges the fixed amount of a static link whatever amount is posted', async () => {
    const { alias } = await createLink();
    returnedTo(await pay(alias, { ...GOOD, amount: '1' }));
    expect(onlyPayment().amountMinor).toBe(500_000);
  });

  it('gives endpoint 3 payments on a link the same link.alias in their webhook', async () => {
    const { alias } = await createLink({ linkType: 1, dynamic: true });
    const initiated = await api('POST', '/api/payment/pay/initiate', {
      amount: 2500,
      channel: 'PayByTransfer',
      currency: 'NGN',
      link: { alias },
    });
    const reference = initiated.body.value.paymentItem.paymentReference as string;
    await api('POST', `/__sandbox/payments/${reference}/transfer`, {});
    expect(webhooks[0]?.body).toMatchObject({
      event: 'payment.success',
      data: { reference, link: { alias } },
    });
    // A payment that is no link's carries no link.
    const plain = await api('POST', '/api/payment/pay/initiate', {
      amount: 2500,
      channel: 'PayByTransfer',
      currency: 'NGN',
    });
    await api(
      'POST',
      `/__sandbox/payments/${plain.body.value.paymentItem.paymentReference}/transfer`,
      {},
    );
    expect(webhooks[1]?.body.data).not.toHaveProperty('link');
  });
});

describe('cancelling', () => {
  it('sends the customer back with alias and cancelled=1, and charges nothing', async () => {
    const { alias } = await createLink();
    const back = returnedTo(await post(`/pages/link/${alias}/cancel`, ''));
    expect([...back.searchParams]).toEqual([
      ['order', '1042'],
      ['alias', alias],
      ['cancelled', '1'],
    ]);
    expect(payments()).toHaveLength(0);
    expect(webhooks).toHaveLength(0);
    expect(handler.world().state.links.get(alias)?.status).toBe('New');
  });

  it('says it is cancelled when the link has no return URL', async () => {
    const { alias } = await createLink({ returnUrl: null });
    const response = await post(`/pages/link/${alias}/cancel`, '');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Payment cancelled');
    expect(payments()).toHaveLength(0);
  });
});

describe('bad form input changes nothing and says what is wrong', () => {
  async function refused(
    fields: Record<string, string> | string,
    options: { dynamic?: boolean } = {},
  ): Promise<string> {
    const { alias } = await createLink({ dynamic: options.dynamic ?? false, linkType: 1 });
    const response = await pay(alias, fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(payments()).toHaveLength(0);
    expect(webhooks).toHaveLength(0);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    return html;
  }

  it('names every empty field', async () => {
    const html = await refused({ name: '', number: '', expiry: '', cvc: '' });
    expect(fieldError(html, 'name')).toBe('Enter the name on the card.');
    expect(fieldError(html, 'number')).toBe('Enter the card number.');
    expect(fieldError(html, 'expiry')).toBe('Enter the expiry date as MM/YY.');
    expect(fieldError(html, 'cvc')).toBe('Enter the security code.');
    expect(html).toContain('4 fields need your attention.');
    expect(html).toContain('aria-invalid="true" aria-describedby="name-error" autofocus');
  });

  it('names every missing field', async () => {
    const html = await refused({ name: 'Ada Obi' });
    expect(fieldError(html, 'name')).toBeUndefined();
    expect(fieldError(html, 'number')).toBe('Enter the card number.');
    expect(fieldError(html, 'expiry')).toBe('Enter the expiry date as MM/YY.');
    expect(fieldError(html, 'cvc')).toBe('Enter the security code.');
  });

  it.each([
    [
      'a number failing Luhn',
      { number: '4242424242424241' },
      'number',
      'This card number is not valid: check it for a mistyped digit.',
    ],
    [
      'letters in the number',
      { number: '4242abcd42424242' },
      'number',
      'The card number must contain only digits.',
    ],
    [
      'a number too short',
      { number: '42424242424' },
      'number',
      'The card number must be 12 to 19 digits.',
    ],
    [
      'a number too long',
      { number: '4'.repeat(20) },
      'number',
      'The card number must be 12 to 19 digits.',
    ],
    [
      'an overlong number',
      { number: '4'.repeat(300) },
      'number',
      'The card number must contain only digits.',
    ],
    ['a past expiry', { expiry: '01/20' }, 'expiry', 'The expiry date has passed.'],
    [
      'month 13',
      { expiry: `13/${NEXT_YEAR}` },
      'expiry',
      'The expiry month must be from 01 to 12.',
    ],
    [
      'month 00',
      { expiry: `00/${NEXT_YEAR}` },
      'expiry',
      'The expiry month must be from 01 to 12.',
    ],
    [
      'letters in the expiry',
      { expiry: 'ab/cd' },
      'expiry',
      'Enter the expiry date as MM/YY, for example 04/29.',
    ],
    [
      'an overlong expiry',
      { expiry: `12/${NEXT_YEAR}0000` },
      'expiry',
      'Enter the expiry date as MM/YY, for example 04/29.',
    ],
    ['letters in the code', { cvc: '12a' }, 'cvc', 'The security code must be 3 or 4 digits.'],
    ['a code too long', { cvc: '12345' }, 'cvc', 'The security code must be 3 or 4 digits.'],
    ['a code too short', { cvc: '12' }, 'cvc', 'The security code must be 3 or 4 digits.'],
    [
      'an overlong name',
      { name: 'A'.repeat(101) },
      'name',
      'The name on the card must be at most 100 characters.',
    ],
    [
      'a control character in the name',
      { name: 'Ada\u0000Obi' },
      'name',
      'The name on the card has characters that cannot be used.',
    ],
  ])('refuses %s', async (_, change, field, message) => {
    const html = await refused({ ...GOOD, ...change });
    expect(fieldError(html, field)).toBe(message);
    expect(html.match(/class="error"/g)).toHaveLength(1);
    expect(html).toContain('One field needs your attention.');
  });

  it('never echoes the number or the code, and keeps the name', async () => {
    const html = await refused({
      name: 'Ada <Obi>',
      number: '4242424242424241',
      expiry: `12/${NEXT_YEAR}`,
      cvc: '9876',
    });
    expect(html).not.toContain('4242424242424241');
    expect(html).not.toMatch(/(^|\D)9876(\D|$)/);
    expect(html).toContain('value="Ada &lt;Obi&gt;"');
  });

  it.each([
    ['no amount', '', 'Enter the amount to pay.'],
    ['zero', '0', 'The amount must be more than 0.'],
    ['letters', '12abc', 'Enter the amount as a number, for example 1500 or 1500.50.'],
    ['a negative amount', '-5', 'Enter the amount as a number, for example 1500 or 1500.50.'],
    ['three decimals in NGN', '1.234', 'The amount has more decimal places than NGN allows.'],
    ['an amount over the limit', '100000001', 'The amount must be at most 100,000,000.'],
  ])('refuses %s on a link of dynamic amount', async (_, amount, message) => {
    const html = await refused({ ...GOOD, amount }, { dynamic: true });
    expect(fieldError(html, 'amount')).toBe(message);
  });

  it('reads the expiry as MM/YY, MMYY or MM/YYYY', async () => {
    const { alias } = await createLink({ linkType: 1 });
    for (const expiry of [
      `12/${NEXT_YEAR}`,
      `12${NEXT_YEAR}`,
      `12 / 20${NEXT_YEAR}`,
      `1/${NEXT_YEAR}`,
    ]) {
      returnedTo(await pay(alias, { ...GOOD, expiry }));
    }
    expect(payments()).toHaveLength(4);
  });

  it("checks the expiry on the sandbox's clock", async () => {
    const { alias } = await createLink({ linkType: 1 });
    // A year at most per move: two moves take the card past December of next year.
    for (let move = 0; move < 2; move++) {
      expect(
        (await api('POST', '/__sandbox/clock', { advanceSeconds: 366 * 24 * 3600 })).status,
      ).toBe(200);
    }
    const response = await pay(alias, GOOD);
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), 'expiry')).toBe('The expiry date has passed.');
    expect(payments()).toHaveLength(0);
  });

  it.each([
    ['JSON', 'application/json'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['plain text', 'text/plain'],
  ])('refuses a %s body with 415', async (_, type) => {
    const { alias } = await createLink();
    const response = await pay(alias, new URLSearchParams(GOOD).toString(), {
      'content-type': type,
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toContain('application/x-www-form-urlencoded');
    expect(payments()).toHaveLength(0);
  });

  it('refuses a body over 4 KB with 413, declared or not', async () => {
    const { alias } = await createLink();
    const padded = `${new URLSearchParams(GOOD)}&pad=${'x'.repeat(5000)}`;
    expect((await pay(alias, padded)).status).toBe(413);
    // Sent in chunks without a length: cut off at the limit, never read to its end.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
      },
    });
    const streamed = await handler(
      new Request(`${BASE}/pages/link/${alias}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10);
    expect(payments()).toHaveLength(0);
  });
});
