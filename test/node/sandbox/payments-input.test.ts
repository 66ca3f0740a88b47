/**
 * Bad input on the payment operations (validate, initiate, finalize, payment link), as a
 * merchant's integration sends it by mistake: every case gets a 4xx ValidationException whose
 * `failures` name the field at fault, and nothing in the sandbox changes.
 */
import { describe, expect, it } from 'vitest';
import {
  BANK_INITIATION,
  call,
  cardInitiation,
  sandboxPerTest,
  TRANSFER_INITIATION,
} from '../../helpers/sandbox';

const VALIDATE = '/api/payment/pay/validate';
const INITIATE = '/api/payment/pay/initiate';
const FINALIZE = '/api/payment/pay/finalize';
const LINK = '/api/payment/payment-link';

const YEAR = new Date().getUTCFullYear();
const GOOD_CARD = cardInitiation('4242424242424242');
const GOOD_VALIDATE = { amount: { currencyCode: 'NGN', amount: 2500.5 } };
const GOOD_LINK = {
  name: 'Invoice 1042',
  description: 'Two bags of rice',
  linkType: 0,
  amountType: 0,
  currencyCode: 'NGN',
  amountInfo: { currencyCode: 'NGN', amount: 5000 },
};

interface BadCase {
  readonly name: string;
  readonly path: string;
  /** A JSON value sent as the body, unless `raw` is given. */
  readonly body?: unknown;
  readonly raw?: string | Uint8Array<ArrayBuffer>;
  /** Content-Type sent; default application/json; null sends none. */
  readonly contentType?: string | null;
  /** What the failures must name. */
  readonly names: RegExp;
}

function without<T extends Record<string, unknown>>(body: T, ...keys: string[]) {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

function withCard(overrides: Record<string, unknown>) {
  return { ...GOOD_CARD, card: { ...GOOD_CARD.card, ...overrides } };
}

const CASES: readonly BadCase[] = [
  // The body itself.
  {
    name: 'malformed JSON',
    path: INITIATE,
    raw: '{"amount": 2500.5, "channel": ',
    names: /JSON/,
  },
  { name: 'an empty body', path: INITIATE, raw: '', names: /body|empty/i },
  { name: 'a body of blanks', path: INITIATE, raw: '  \n ', names: /body|empty/i },
  {
    name: 'Content-Type text/plain',
    path: INITIATE,
    raw: JSON.stringify(TRANSFER_INITIATION),
    contentType: 'text/plain',
    names: /Content-Type/i,
  },
  {
    name: 'a form instead of JSON',
    path: INITIATE,
    raw: 'amount=2500.5&channel=PayByTransfer&currency=NGN',
    contentType: 'application/x-www-form-urlencoded',
    names: /Content-Type/i,
  },
  {
    name: 'no Content-Type at all',
    path: INITIATE,
    raw: new TextEncoder().encode(JSON.stringify(TRANSFER_INITIATION)),
    contentType: null,
    names: /Content-Type/i,
  },
  { name: 'a JSON array', path: INITIATE, body: [TRANSFER_INITIATION], names: /object|body/i },
  { name: 'a JSON string', path: INITIATE, body: 'PayByTransfer', names: /object|body/i },
  { name: 'JSON null', path: INITIATE, raw: 'null', names: /object|body/i },
  { name: 'a JSON number', path: INITIATE, raw: '2500.5', names: /object|body/i },

  // Amounts.
  {
    name: 'amount as a string',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: '2500.50' },
    names: /^amount\b/,
  },
  {
    name: 'a negative amount',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: -5 },
    names: /^amount\b/,
  },
  {
    name: 'a zero amount',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 0 },
    names: /^amount\b/,
  },
  {
    name: 'an amount over 100,000,000',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 100_000_001 },
    names: /^amount\b/,
  },
  {
    name: 'an absurd amount (1e15)',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 1e15 },
    names: /^amount\b/,
  },
  {
    name: 'an amount that overflows to Infinity (1e400)',
    path: INITIATE,
    raw: '{"amount":1e400,"channel":"PayByTransfer","currency":"NGN"}',
    names: /^amount\b/,
  },
  {
    name: 'amount "NaN"',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 'NaN' },
    names: /^amount\b/,
  },
  {
    name: 'amount null',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: null },
    names: /^amount\b/,
  },
  {
    name: 'too many decimals (1.001 NGN)',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 1.001 },
    names: /^amount\b/,
  },
  {
    name: 'a tiny amount in exponent form (1e-7 NGN)',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, amount: 1e-7 },
    names: /^amount\b/,
  },

  // Required fields and their values.
  {
    name: 'no amount',
    path: INITIATE,
    body: without(TRANSFER_INITIATION, 'amount'),
    names: /^amount\b.*\b(required|missing)\b/i,
  },
  {
    name: 'no channel',
    path: INITIATE,
    body: without(TRANSFER_INITIATION, 'channel'),
    names: /^channel\b.*\b(required|missing)\b/i,
  },
  {
    name: 'no currency',
    path: INITIATE,
    body: without(TRANSFER_INITIATION, 'currency'),
    names: /^currency\b.*\b(required|missing)\b/i,
  },
  {
    name: 'an unknown channel',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, channel: 'Bitcoin' },
    names: /^channel\b/,
  },
  {
    name: 'a channel in the wrong case',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, channel: 'paybytransfer' },
    names: /^channel\b/,
  },
  {
    name: 'channel as a number',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, channel: 1 },
    names: /^channel\b/,
  },
  {
    name: 'an unsupported currency (XYZ)',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, currency: 'XYZ' },
    names: /^currency\b/,
  },
  {
    name: 'a lower-case currency',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, currency: 'ngn' },
    names: /^currency\b/,
  },
  {
    name: 'PayByTransfer in GBP',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, currency: 'GBP' },
    names: /^currency\b/,
  },
  {
    name: 'PayByAccount in NGN',
    path: INITIATE,
    body: { ...BANK_INITIATION, currency: 'NGN' },
    names: /^currency\b/,
  },
  {
    name: 'Card in an unsupported but known currency (EUR)',
    path: INITIATE,
    body: { ...GOOD_CARD, currency: 'EUR' },
    names: /^currency\b/,
  },

  // Unknown fields.
  {
    name: 'an unknown top-level field',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, callbackUrl: 'https://shop.example/cb' },
    names: /^callbackUrl\b/,
  },
  {
    name: 'a misspelt top-level field (ammount)',
    path: INITIATE,
    body: { ...without(TRANSFER_INITIATION, 'amount'), ammount: 2500.5 },
    names: /ammount\b/,
  },
  {
    name: 'an unknown field in userInformation',
    path: INITIATE,
    body: {
      ...TRANSFER_INITIATION,
      userInformation: { ...TRANSFER_INITIATION.userInformation, middleName: 'Chi' },
    },
    names: /userInformation\.middleName\b/,
  },
  {
    name: 'a misspelt metaData key (returnUrl)',
    path: INITIATE,
    body: { ...BANK_INITIATION, metaData: { returnUrl: 'https://shop.example/return' } },
    names: /metaData\.returnUrl\b/,
  },
  {
    name: 'an unknown field in card (pin)',
    path: INITIATE,
    body: withCard({ pin: '0000' }),
    names: /card\.pin\b/,
  },
  {
    name: 'a __proto__ key',
    path: INITIATE,
    raw: '{"amount":2500.5,"channel":"PayByTransfer","currency":"NGN","__proto__":{"x":1}}',
    names: /__proto__/,
  },

  // Customer and metaData.
  {
    name: 'userInformation as a string',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, userInformation: 'Ada Obi' },
    names: /^userInformation\b/,
  },
  {
    name: 'a malformed emailAddress',
    path: INITIATE,
    body: {
      ...TRANSFER_INITIATION,
      userInformation: { ...TRANSFER_INITIATION.userInformation, emailAddress: 'ada@' },
    },
    names: /userInformation\.emailAddress\b/,
  },
  {
    name: 'emailAddress as a number',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, userInformation: { emailAddress: 42 } },
    names: /userInformation\.emailAddress\b/,
  },
  {
    name: 'PayByAccount without return-url',
    path: INITIATE,
    body: without(BANK_INITIATION, 'metaData'),
    names: /return-url/,
  },
  {
    name: 'a javascript: return-url',
    path: INITIATE,
    body: { ...BANK_INITIATION, metaData: { 'return-url': 'javascript:alert(document.cookie)' } },
    names: /metaData\.return-url\b/,
  },
  {
    name: 'a relative return-url',
    path: INITIATE,
    body: { ...BANK_INITIATION, metaData: { 'return-url': '/return' } },
    names: /metaData\.return-url\b/,
  },
  {
    name: 'a return-url that is not a URL',
    path: INITIATE,
    body: { ...BANK_INITIATION, metaData: { 'return-url': 'shop.example/return' } },
    names: /metaData\.return-url\b/,
  },
  {
    name: 'metaData.redirect as a string',
    path: INITIATE,
    body: { ...BANK_INITIATION, metaData: { ...BANK_INITIATION.metaData, redirect: 'no' } },
    names: /metaData\.redirect\b/,
  },
  {
    name: 'link.alias empty',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, link: { alias: '' } },
    names: /link\.alias\b/,
  },
  {
    name: 'link as a string',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, link: 'abc' },
    names: /^link\b/,
  },

  // Cards.
  { name: 'Card without card', path: INITIATE, body: without(GOOD_CARD, 'card'), names: /^card\b/ },
  {
    name: 'a card on a PayByTransfer payment',
    path: INITIATE,
    body: { ...TRANSFER_INITIATION, card: GOOD_CARD.card },
    names: /^card\b/,
  },
  {
    name: 'a card number failing Luhn',
    path: INITIATE,
    body: withCard({ number: '4242424242424241' }),
    names: /card\.number\b/,
  },
  {
    name: 'a card number with letters',
    path: INITIATE,
    body: withCard({ number: '4242abcd42424242' }),
    names: /card\.number\b/,
  },
  {
    name: 'a card number as a number',
    path: INITIATE,
    body: withCard({ number: 4242424242424242 }),
    names: /card\.number\b/,
  },
  {
    name: 'an expiry in the past',
    path: INITIATE,
    body: withCard({ expiryMonth: 1, expiryYear: YEAR - 1 }),
    names: /card\b.*expir|expir.*card/i,
  },
  {
    name: 'expiry month 13',
    path: INITIATE,
    body: withCard({ expiryMonth: 13 }),
    names: /card\.expiryMonth\b/,
  },
  {
    name: 'expiry month 0',
    path: INITIATE,
    body: withCard({ expiryMonth: 0 }),
    names: /card\.expiryMonth\b/,
  },
  {
    name: 'a two-digit expiry year',
    path: INITIATE,
    body: withCard({ expiryYear: (YEAR + 2) % 100 }),
    names: /card\.expiryYear\b/,
  },
  { name: "cvv 'abc'", path: INITIATE, body: withCard({ cvv: 'abc' }), names: /card\.cvv\b/ },
  { name: 'cvv as a number', path: INITIATE, body: withCard({ cvv: 123 }), names: /card\.cvv\b/ },
  {
    name: 'an empty holderName',
    path: INITIATE,
    body: withCard({ holderName: '   ' }),
    names: /card\.holderName\b/,
  },

  // Validate.
  {
    name: 'validate without amount',
    path: VALIDATE,
    body: {},
    names: /^amount\b.*\b(required|missing)\b/i,
  },
  {
    name: 'validate with a bare number as amount',
    path: VALIDATE,
    body: { amount: 2500.5 },
    names: /^amount\b/,
  },
  {
    name: 'validate in XYZ',
    path: VALIDATE,
    body: { amount: { currencyCode: 'XYZ', amount: 10 } },
    names: /amount\.currencyCode\b/,
  },
  {
    name: 'validate with a negative amount',
    path: VALIDATE,
    body: { amount: { currencyCode: 'NGN', amount: -1 } },
    names: /amount\.amount\b/,
  },
  {
    name: 'validate with 1.001 NGN',
    path: VALIDATE,
    body: { amount: { currencyCode: 'NGN', amount: 1.001 } },
    names: /amount\.amount\b/,
  },
  {
    name: 'validate with decimals in JPY',
    path: VALIDATE,
    body: { amount: { currencyCode: 'JPY', amount: 10.5 } },
    names: /amount\.amount\b/,
  },
  {
    name: 'validate with channels as a string',
    path: VALIDATE,
    body: { ...GOOD_VALIDATE, channels: 'Card' },
    names: /^channels\b/,
  },
  {
    name: 'validate with an unknown channel in the filter',
    path: VALIDATE,
    body: { ...GOOD_VALIDATE, channels: ['Card', 'Crypto'] },
    names: /channels\.1\b.*Crypto/,
  },
  {
    name: 'validate with an unknown field in amount',
    path: VALIDATE,
    body: { amount: { ...GOOD_VALIDATE.amount, precision: 2 } },
    names: /amount\.precision\b/,
  },
  {
    name: 'validate with an unknown top-level field',
    path: VALIDATE,
    body: { ...GOOD_VALIDATE, country: 'NG' },
    names: /^country\b/,
  },
  {
    name: 'validate with malformed JSON',
    path: VALIDATE,
    raw: '{"amount": {"currencyCode": "NGN", ',
    names: /JSON/,
  },
  {
    name: 'validate as text/plain',
    path: VALIDATE,
    raw: JSON.stringify(GOOD_VALIDATE),
    contentType: 'text/plain',
    names: /Content-Type/i,
  },

  // Payment link.
  {
    name: 'a link without name',
    path: LINK,
    body: without(GOOD_LINK, 'name'),
    names: /^name\b.*\b(required|missing)\b/i,
  },
  {
    name: 'a link with a blank name',
    path: LINK,
    body: { ...GOOD_LINK, name: '  ' },
    names: /^name\b/,
  },
  {
    name: 'a link with linkType 2',
    path: LINK,
    body: { ...GOOD_LINK, linkType: 2 },
    names: /^linkType\b/,
  },
  {
    name: 'a link with linkType "0"',
    path: LINK,
    body: { ...GOOD_LINK, linkType: '0' },
    names: /^linkType\b/,
  },
  {
    name: 'a link without amountType',
    path: LINK,
    body: without(GOOD_LINK, 'amountType'),
    names: /^amountType\b.*\b(required|missing)\b/i,
  },
  {
    name: 'a link in XYZ',
    path: LINK,
    body: { ...GOOD_LINK, currencyCode: 'XYZ', amountInfo: { currencyCode: 'XYZ', amount: 5 } },
    names: /currencyCode\b/,
  },
  {
    name: 'a static link without amountInfo',
    path: LINK,
    body: without(GOOD_LINK, 'amountInfo'),
    names: /^amountInfo\b/,
  },
  {
    name: 'a link whose amountInfo currency differs',
    path: LINK,
    body: { ...GOOD_LINK, amountInfo: { currencyCode: 'GBP', amount: 5000 } },
    names: /amountInfo\.currencyCode\b/,
  },
  {
    name: 'a link with a zero amount',
    path: LINK,
    body: { ...GOOD_LINK, amountInfo: { currencyCode: 'NGN', amount: 0 } },
    names: /amountInfo\.amount\b/,
  },
  {
    name: 'a link with 1.001 NGN',
    path: LINK,
    body: { ...GOOD_LINK, amountInfo: { currencyCode: 'NGN', amount: 1.001 } },
    names: /amountInfo\.amount\b/,
  },
  {
    name: 'a link with an unknown top-level field',
    path: LINK,
    body: { ...GOOD_LINK, expiresAt: '2030-01-01' },
    names: /^expiresAt\b/,
  },
  {
    name: 'a link with an unknown field in amountInfo',
    path: LINK,
    body: { ...GOOD_LINK, amountInfo: { ...GOOD_LINK.amountInfo, fee: 50 } },
    names: /amountInfo\.fee\b/,
  },
  { name: 'a link body that is an array', path: LINK, body: [GOOD_LINK], names: /object|body/i },

  // Finalize (with nothing to finalize; the stateful cases follow below).
  {
    name: 'finalize without paymentReference',
    path: FINALIZE,
    body: {},
    names: /^paymentReference\b.*\b(required|missing)\b/i,
  },
  {
    name: 'finalize with a numeric paymentReference',
    path: FINALIZE,
    body: { paymentReference: 42 },
    names: /^paymentReference\b/,
  },
  {
    name: 'finalize with malformed JSON',
    path: FINALIZE,
    raw: '{"paymentReference": PAY_1}',
    names: /JSON/,
  },
  { name: 'finalize with a string body', path: FINALIZE, body: 'PAY_1', names: /object|body/i },
];

const sandbox = sandboxPerTest();

async function send(bad: BadCase) {
  if (bad.raw === undefined && bad.contentType === undefined) {
    return call(sandbox, 'POST', bad.path, bad.body);
  }
  const headers: Record<string, string> = { 'X-Api': sandbox.secretKey };
  const contentType = bad.contentType === undefined ? 'application/json' : bad.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(sandbox.url + bad.path, {
    method: 'POST',
    headers,
    body: bad.raw ?? JSON.stringify(bad.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the answer under test
  return { status: response.status, headers: response.headers, text, body: body as any };
}

function expectValidationFailure(
  // biome-ignore lint/suspicious/noExplicitAny: the answer under test
  answer: { status: number; text: string; body: any },
  names: RegExp,
) {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body?.isSuccess).toBe(false);
  expect(answer.body?.type).toBe('ValidationException');
  expect(answer.body?.status).toBe(400);
  const failures: unknown = answer.body?.failures;
  expect(Array.isArray(failures)).toBe(true);
  const texts = failures as unknown[];
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) expect(typeof text).toBe('string');
  expect(
    texts.some((text) => names.test(String(text))),
    `failures ${JSON.stringify(texts)} name ${names}`,
  ).toBe(true);
  expect(typeof answer.body?.extensions?.traceId).toBe('string');
}

async function expectNothingChanged() {
  const payments = await call(sandbox, 'GET', '/__sandbox/payments');
  expect(payments.body.payments).toEqual([]);
  const webhooks = await call(sandbox, 'GET', '/__sandbox/webhooks');
  expect(webhooks.body.webhooks).toEqual([]);
}

describe('bad input', () => {
  it('covers at least 30 distinct cases', () => {
    expect(new Set(CASES.map((bad) => bad.name)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const bad of CASES) {
    it(`refuses ${bad.name} (${bad.path.split('/').pop()}) with a ValidationException naming the field`, async () => {
      expectValidationFailure(await send(bad), bad.names);
      await expectNothingChanged();
    });
  }

  it('lists every violated rule at once', async () => {
    const answer = await call(sandbox, 'POST', INITIATE, {
      amount: -1,
      channel: 'Bitcoin',
      currency: 'XYZ',
    });
    expectValidationFailure(answer, /^amount\b/);
    const failures = answer.body.failures as string[];
    expect(failures.some((text) => /^channel\b/.test(text))).toBe(true);
    expect(failures.some((text) => /^currency\b/.test(text))).toBe(true);
    await expectNothingChanged();
  });

  it('accepts each good body used above, so the refusals are about the flaw alone', async () => {
    for (const [path, body] of [
      [INITIATE, TRANSFER_INITIATION],
      [INITIATE, BANK_INITIATION],
      [INITIATE, GOOD_CARD],
      [VALIDATE, GOOD_VALIDATE],
      [LINK, GOOD_LINK],
    ] as const) {
      const answer = await call(sandbox, 'POST', path, body);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
      expect(answer.body.isSuccess).toBe(true);
    }
  });

  it('accepts a card that expires this month', async () => {
    const now = new Date();
    const answer = await call(
      sandbox,
      'POST',
      INITIATE,
      withCard({ expiryMonth: now.getUTCMonth() + 1, expiryYear: now.getUTCFullYear() }),
    );
    expect(answer.status, answer.text).toBe(200);
  });

  it('accepts the largest amount, 100,000,000', async () => {
    const answer = await call(sandbox, 'POST', INITIATE, {
      ...TRANSFER_INITIATION,
      amount: 100_000_000,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.value.paymentItem.amount).toBe(100_000_000);
  });
});

describe('bodies over 64 KB', () => {
  const padding = 'x'.repeat(70 * 1024);
  for (const [path, body] of [
    [INITIATE, { ...TRANSFER_INITIATION, userInformation: { firstName: padding } }],
    [VALIDATE, { ...GOOD_VALIDATE, channels: [padding] }],
    [FINALIZE, { paymentReference: padding }],
    [LINK, { ...GOOD_LINK, description: padding }],
  ] as const) {
    it(`answers 413 on ${path} and changes nothing`, async () => {
      const answer = await call(sandbox, 'POST', path, body);
      expect(answer.status).toBe(413);
      expect(answer.body?.isSuccess).toBe(false);
      await expectNothingChanged();
    });
  }
});

describe('bad finalize bodies leave the payment as it was', () => {
  async function readyCardPayment(): Promise<string> {
    const answer = await call(sandbox, 'POST', INITIATE, GOOD_CARD);
    const reference = answer.body.value.paymentItem.paymentReference as string;
    const check = await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
    expect(check.status).toBe(200);
    return reference;
  }

  for (const [label, body, names] of [
    ['an unknown field', (ref: string) => ({ paymentReference: ref, amount: 1 }), /^amount\b/],
    ['an empty paymentReference', () => ({ paymentReference: '' }), /^paymentReference\b/],
    ['the reference in an array', (ref: string) => [{ paymentReference: ref }], /object/i],
    [
      'a misspelt key',
      (ref: string) => ({ paymentRef: ref }),
      /paymentRef\b|paymentReference is required/,
    ],
  ] as const) {
    it(`refuses ${label} and the card is not charged`, async () => {
      const reference = await readyCardPayment();
      expectValidationFailure(await call(sandbox, 'POST', FINALIZE, body(reference)), names);
      const payments = await call(sandbox, 'GET', '/__sandbox/payments');
      expect(payments.body.payments[0].status).toBe('PENDING');
      expect((await call(sandbox, 'GET', '/__sandbox/webhooks')).body.webhooks).toEqual([]);
      const good = await call(sandbox, 'POST', FINALIZE, { paymentReference: reference });
      expect(good.body.value.status).toBe('Successfull');
    });
  }
});
