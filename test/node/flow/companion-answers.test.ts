import { describe, expect, it } from 'vitest';
import {
  CompanionFailure,
  isSafeUrl,
  parseAuthentication,
  parseFailure,
  parseFinalization,
  parseInitiation,
  parseSession,
  parseStatus,
} from '../../../src/flow/companion';
import { failureReasonOf } from '../../../src/protocol/failure-reason';

type Json = Record<string, unknown>;

const EXPIRES = '2031-05-04T10:30:00.000Z';
const SERVER_TIME = '2031-05-04T10:00:00.000Z';

/** A payment view as the companion writes it (docs/browser-calls.md). */
function paymentJson(): Json {
  return {
    reference: 'PAY-2031.05:abc_01',
    channel: 'PayByTransfer',
    status: 'PENDING',
    amount: { amountMinor: 250_050, currency: 'NGN' },
    fees: { amountMinor: 0, currency: 'NGN' },
    virtualAccount: {
      bank: 'Sandbox Bank',
      accountNumber: '0123456789',
      accountName: 'Paydrop / Shop',
      note: 'Transfer the exact amount.',
      expiresAt: EXPIRES,
    },
    bankAuthUrl: null,
    serverTime: SERVER_TIME,
  };
}

function sessionJson(): Json {
  return {
    token: 'eyJhbGciOi.payload.signature',
    checkout: {
      amount: { amountMinor: 250_050, currency: 'NGN' },
      description: 'Order 42',
      channels: [
        { name: 'PayByTransfer', description: 'Bank transfer' },
        { name: 'PayByAccount', description: null },
        { name: 'Card' },
      ],
    },
    payment: paymentJson(),
  };
}

function initiationJson(): Json {
  return { token: 'payment-token', payment: paymentJson() };
}

/** Sets (or with `undefined`, deletes) the value at a dotted path of a copy of `body`. */
function withValue(body: Json, path: string, value: unknown): Json {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node: Json = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Json;
  const lastKey = keys.at(-1) as string;
  if (value === undefined) delete node[lastKey];
  else node[lastKey] = value;
  return copy;
}

function expectRefused(parse: () => unknown): void {
  let thrown: unknown;
  try {
    parse();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CompanionFailure);
  expect((thrown as CompanionFailure).code).toBe('bad_response');
}

const MARKUP = '<img src=x onerror=alert(1)>';

/** Changes to a payment view that must get it refused, wherever it appears. */
const BAD_PAYMENTS: [string, string, unknown][] = [
  ['missing reference', 'reference', undefined],
  ['numeric reference', 'reference', 1234],
  ['empty reference', 'reference', ''],
  ['reference with spaces', 'reference', 'PAY 0001'],
  ['reference with markup', 'reference', MARKUP],
  ['reference with a quote', 'reference', 'PAY"0001'],
  ['reference over 128 characters', 'reference', 'R'.repeat(129)],
  ['unknown channel', 'channel', 'Crypto'],
  ['lowercase channel', 'channel', 'paybytransfer'],
  ['missing channel', 'channel', undefined],
  ['unknown status', 'status', 'EXPIRED'],
  ['lowercase status', 'status', 'pending'],
  ['the provider spelling of the status', 'status', 'Successfull'],
  ['missing status', 'status', undefined],
  ['missing amount', 'amount', undefined],
  ['amount as a number', 'amount', 2500.5],
  ['amount as an array', 'amount', [250_050, 'NGN']],
  ['null amount', 'amount', null],
  ['negative amountMinor', 'amount.amountMinor', -1],
  ['fractional amountMinor', 'amount.amountMinor', 2500.5],
  ['amountMinor as a string', 'amount.amountMinor', '250050'],
  ['amountMinor beyond safe integers', 'amount.amountMinor', 2 ** 53],
  ['amountMinor NaN', 'amount.amountMinor', Number.NaN],
  ['amountMinor Infinity', 'amount.amountMinor', Number.POSITIVE_INFINITY],
  ['missing amountMinor', 'amount.amountMinor', undefined],
  ['lowercase currency', 'amount.currency', 'ngn'],
  ['4-letter currency', 'amount.currency', 'NGNN'],
  ['2-letter currency', 'amount.currency', 'NG'],
  ['currency with markup', 'amount.currency', '<b>'],
  ['numeric currency', 'amount.currency', 566],
  ['missing fees', 'fees', undefined],
  ['negative fees', 'fees.amountMinor', -100],
  ['virtual account as an array', 'virtualAccount', [{ accountNumber: '0123456789' }]],
  ['virtual account as a string', 'virtualAccount', '0123456789'],
  ['missing virtual account', 'virtualAccount', undefined],
  ['account number with letters', 'virtualAccount.accountNumber', '01234O6789'],
  ['account number with markup', 'virtualAccount.accountNumber', MARKUP],
  ['account number with spaces', 'virtualAccount.accountNumber', '0123 456789'],
  ['account number too short', 'virtualAccount.accountNumber', '12345'],
  ['account number too long', 'virtualAccount.accountNumber', '1'.repeat(21)],
  ['account number as a number', 'virtualAccount.accountNumber', 123456789],
  ['missing bank', 'virtualAccount.bank', undefined],
  ['bank over 120 characters', 'virtualAccount.bank', 'B'.repeat(121)],
  ['account name over 200 characters', 'virtualAccount.accountName', 'N'.repeat(201)],
  ['account name as an object', 'virtualAccount.accountName', { first: 'Paydrop' }],
  ['note over 500 characters', 'virtualAccount.note', 'n'.repeat(501)],
  ['unparseable expiry', 'virtualAccount.expiresAt', 'in thirty minutes'],
  ['impossible expiry date', 'virtualAccount.expiresAt', '2031-13-45T99:00:00Z'],
  ['expiry as epoch number', 'virtualAccount.expiresAt', Date.parse(EXPIRES)],
  ['expiry over 40 characters', 'virtualAccount.expiresAt', `${EXPIRES}${' '.repeat(30)}`],
  ['missing expiry', 'virtualAccount.expiresAt', undefined],
  ['missing server time', 'serverTime', undefined],
  ['unparseable server time', 'serverTime', 'now'],
  ['server time as null', 'serverTime', null],
  ['bank URL as a number', 'bankAuthUrl', 42],
  ['bank URL over 2048 characters', 'bankAuthUrl', `https://bank.example/${'a'.repeat(2048)}`],
  ['missing bank URL', 'bankAuthUrl', undefined],
  ['a javascript: bank URL', 'bankAuthUrl', 'javascript:alert(document.cookie)'],
  ['a javascript: bank URL in capitals', 'bankAuthUrl', 'JavaScript:alert(1)'],
  ['a javascript: bank URL behind spaces', 'bankAuthUrl', '  javascript:alert(1)'],
  ['a data: bank URL', 'bankAuthUrl', 'data:text/html,<script>alert(1)</script>'],
  ['a file: bank URL', 'bankAuthUrl', 'file:///etc/passwd'],
  ['a blob: bank URL', 'bankAuthUrl', 'blob:https://bank.example/0b7c'],
  ['an ftp: bank URL', 'bankAuthUrl', 'ftp://bank.example/auth'],
  ['an http: bank URL off this machine', 'bankAuthUrl', 'http://evil.example/auth'],
  ['a relative bank URL', 'bankAuthUrl', '/auth?x=1'],
  ['a protocol-relative bank URL', 'bankAuthUrl', '//evil.example/auth'],
  ['an empty bank URL', 'bankAuthUrl', ''],
];

describe('parseSession', () => {
  it('accepts a companion session answer and converts its instants to epoch ms', () => {
    const session = parseSession(sessionJson());
    expect(session).toEqual({
      token: 'eyJhbGciOi.payload.signature',
      amount: { amountMinor: 250_050, currency: 'NGN' },
      description: 'Order 42',
      channels: [
        { name: 'PayByTransfer', description: 'Bank transfer' },
        { name: 'PayByAccount', description: null },
        { name: 'Card', description: null },
      ],
      payment: {
        reference: 'PAY-2031.05:abc_01',
        channel: 'PayByTransfer',
        status: 'PENDING',
        amount: { amountMinor: 250_050, currency: 'NGN' },
        fees: { amountMinor: 0, currency: 'NGN' },
        virtualAccount: {
          bank: 'Sandbox Bank',
          accountNumber: '0123456789',
          accountName: 'Paydrop / Shop',
          note: 'Transfer the exact amount.',
          expiresAt: Date.parse(EXPIRES),
        },
        bankAuthUrl: null,
        serverTime: Date.parse(SERVER_TIME),
      },
    });
  });

  it('accepts a session without a payment', () => {
    expect(parseSession(withValue(sessionJson(), 'payment', null)).payment).toBeNull();
  });

  it('accepts the limits themselves', () => {
    let body = sessionJson();
    body = withValue(body, 'checkout.description', 'd'.repeat(200));
    body = withValue(body, 'checkout.amount.amountMinor', 0);
    body = withValue(body, 'payment.reference', 'R'.repeat(128));
    body = withValue(body, 'payment.virtualAccount.accountNumber', '1'.repeat(20));
    body = withValue(body, 'payment.amount.amountMinor', Number.MAX_SAFE_INTEGER);
    const session = parseSession(body);
    expect(session.description).toHaveLength(200);
    expect(session.amount.amountMinor).toBe(0);
    expect(session.payment?.virtualAccount?.accountNumber).toBe('1'.repeat(20));
    expect(
      parseSession(withValue(sessionJson(), 'payment.virtualAccount.accountNumber', '123456'))
        .payment?.virtualAccount?.accountNumber,
    ).toBe('123456');
  });

  it('drops the channels this widget does not know, keeping the order of the rest', () => {
    const body = withValue(sessionJson(), 'checkout.channels', [
      { name: 'Crypto', description: 'Pay with coins' },
      { name: 'Card', description: 'Visa, Mastercard' },
      { name: 'card', description: null },
      { name: 'PayByTransfer' },
      { name: 'USSD', description: 'x'.repeat(1000) },
      { description: 'nameless' },
    ]);
    expect(parseSession(body).channels).toEqual([
      { name: 'Card', description: 'Visa, Mastercard' },
      { name: 'PayByTransfer', description: null },
    ]);
  });

  it('keeps markup in free text as text (it is rendered as text, never parsed)', () => {
    const body = withValue(sessionJson(), 'checkout.description', MARKUP);
    expect(parseSession(body).description).toBe(MARKUP);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'session'],
    ['a number', 42],
    ['an array', [sessionJson()]],
    ['an empty object', {}],
  ])('refuses a body that is %s', (_, body) => {
    expectRefused(() => parseSession(body));
  });

  it.each<[string, string, unknown]>([
    ['missing token', 'token', undefined],
    ['numeric token', 'token', 12345],
    ['token over 4096 characters', 'token', 't'.repeat(4097)],
    ['missing checkout', 'checkout', undefined],
    ['checkout as an array', 'checkout', [{ description: 'Order 42' }]],
    ['checkout as a string', 'checkout', 'Order 42'],
    ['missing channels', 'checkout.channels', undefined],
    ['channels as an object', 'checkout.channels', { PayByTransfer: true }],
    ['a channel as a string', 'checkout.channels', ['PayByTransfer']],
    ['a channel as null', 'checkout.channels', [null]],
    ['a channel as an array', 'checkout.channels', [['PayByTransfer']]],
    [
      'a channel description over 300 characters',
      'checkout.channels',
      [{ name: 'PayByTransfer', description: 'd'.repeat(301) }],
    ],
    [
      'a numeric channel description',
      'checkout.channels',
      [{ name: 'PayByTransfer', description: 7 }],
    ],
    ['missing description', 'checkout.description', undefined],
    ['description over 200 characters', 'checkout.description', 'd'.repeat(201)],
    ['missing amount', 'checkout.amount', undefined],
    ['negative amount', 'checkout.amount.amountMinor', -250_050],
    ['fractional amount', 'checkout.amount.amountMinor', 0.5],
    ['lowercase currency', 'checkout.amount.currency', 'ngn'],
    ['4-letter currency', 'checkout.amount.currency', 'NAIR'],
    ['missing payment', 'payment', undefined],
    ['payment as an array', 'payment', [paymentJson()]],
    ['payment as a string', 'payment', 'PAY-0001'],
  ])('refuses a session with %s', (_, path, value) => {
    expectRefused(() => parseSession(withValue(sessionJson(), path, value)));
  });

  it.each(BAD_PAYMENTS)('refuses a session whose payment has %s', (_, path, value) => {
    expectRefused(() => parseSession(withValue(sessionJson(), `payment.${path}`, value)));
  });
});

describe('parseInitiation', () => {
  it('accepts a companion initiation answer', () => {
    const answer = parseInitiation(initiationJson());
    expect(answer.token).toBe('payment-token');
    expect(answer.payment.reference).toBe('PAY-2031.05:abc_01');
    expect(answer.payment.virtualAccount?.expiresAt).toBe(Date.parse(EXPIRES));
    expect(answer.payment.serverTime).toBe(Date.parse(SERVER_TIME));
  });

  it('accepts a bank payment with an auth URL and no account', () => {
    let body = withValue(initiationJson(), 'payment.virtualAccount', null);
    body = withValue(body, 'payment.channel', 'PayByAccount');
    body = withValue(body, 'payment.bankAuthUrl', 'https://bank.example/auth?x=1');
    body = withValue(body, 'payment.amount', { amountMinor: 1999, currency: 'GBP' });
    const { payment } = parseInitiation(body);
    expect(payment.virtualAccount).toBeNull();
    expect(payment.bankAuthUrl).toBe('https://bank.example/auth?x=1');
    expect(payment.amount).toEqual({ amountMinor: 1999, currency: 'GBP' });
  });

  it('accepts a bank URL on this machine over http (the sandbox)', () => {
    for (const url of ['http://localhost:4010/auth', 'http://127.0.0.1/auth', 'http://[::1]:9/a']) {
      const body = withValue(initiationJson(), 'payment.bankAuthUrl', url);
      expect(parseInitiation(body).payment.bankAuthUrl).toBe(url);
    }
  });

  it.each(['SUCCESSFUL', 'FAILED'])('accepts the status %s', (status) => {
    expect(
      parseInitiation(withValue(initiationJson(), 'payment.status', status)).payment.status,
    ).toBe(status);
  });

  it.each([
    ['null', null],
    ['an array', [initiationJson()]],
    ['a string', '{"token":"x"}'],
  ])('refuses a body that is %s', (_, body) => {
    expectRefused(() => parseInitiation(body));
  });

  it.each<[string, string, unknown]>([
    ['missing token', 'token', undefined],
    ['null token', 'token', null],
    ['token over 4096 characters', 'token', 't'.repeat(4097)],
    ['missing payment', 'payment', undefined],
    ['null payment', 'payment', null],
    ['payment as an array', 'payment', []],
  ])('refuses an initiation with %s', (_, path, value) => {
    expectRefused(() => parseInitiation(withValue(initiationJson(), path, value)));
  });

  it.each(BAD_PAYMENTS)('refuses an initiation whose payment has %s', (_, path, value) => {
    expectRefused(() => parseInitiation(withValue(initiationJson(), `payment.${path}`, value)));
  });
});

describe('parseStatus', () => {
  it('accepts the status answer docs/browser-calls.md describes, without server time', () => {
    expect(parseStatus({ reference: 'PAY-0001', status: 'SUCCESSFUL' })).toEqual({
      status: 'SUCCESSFUL',
      serverTime: null,
    });
  });

  it.each(['PENDING', 'SUCCESSFUL', 'FAILED'])('accepts %s with a server time', (status) => {
    expect(parseStatus({ status, serverTime: SERVER_TIME })).toEqual({
      status,
      serverTime: Date.parse(SERVER_TIME),
    });
  });

  it.each<[string, unknown]>([
    ['a null body', null],
    ['an array', [{ status: 'SUCCESSFUL' }]],
    ['a bare status string', 'SUCCESSFUL'],
    ['no status', { reference: 'PAY-0001' }],
    ['an unknown status', { status: 'REVERSED' }],
    ['a lowercase status', { status: 'successful' }],
    ['the provider spelling', { status: 'Successfull' }],
    ['a numeric status', { status: 1 }],
    ['a status with markup', { status: MARKUP }],
    ['an unparseable server time', { status: 'PENDING', serverTime: 'yesterday' }],
    ['a numeric server time', { status: 'PENDING', serverTime: Date.parse(SERVER_TIME) }],
    [
      'an over-long server time',
      { status: 'PENDING', serverTime: `${SERVER_TIME}${'0'.repeat(40)}` },
    ],
  ])('refuses %s', (_, body) => {
    expectRefused(() => parseStatus(body));
  });
});

describe('parseFailure', () => {
  it('keeps a known code with its message and request id', () => {
    const failure = parseFailure(404, {
      error: { code: 'order_not_found', message: 'No such order.', requestId: 'req_123' },
    });
    expect(failure).toBeInstanceOf(CompanionFailure);
    expect(failure.code).toBe('order_not_found');
    expect(failure.message).toBe('No such order.');
    expect(failure.requestId).toBe('req_123');
  });

  it.each([
    'order_not_found',
    'unauthorized',
    'rate_limited',
    'invalid',
    'unavailable',
    'timeout',
    'conflict',
    'already_paid',
    'payment_pending',
  ])('maps the code %s to itself', (code) => {
    expect(parseFailure(400, { error: { code, message: 'm' } }).code).toBe(code);
  });

  it.each([
    ['not_found', 'order_not_found'],
    ['invalid_request', 'invalid'],
    ['internal', 'internal'],
    ['forbidden', 'internal'],
    ['something_new', 'internal'],
  ])('maps the code %s to %s', (code, mapped) => {
    expect(parseFailure(400, { error: { code, message: 'm' } }).code).toBe(mapped);
  });

  it.each(['payment_pending', 'already_paid'])(
    '%s carries the earlier payment and its token, checked (issue 9)',
    (code) => {
      const wire = {
        reference: 'PAY-CARD-0',
        channel: 'Card',
        status: 'PENDING',
        amount: { amountMinor: 1800, currency: 'USD' },
        fees: { amountMinor: 0, currency: 'USD' },
        virtualAccount: null,
        bankAuthUrl: null,
        serverTime: '2031-05-04T10:00:00.000Z',
      };
      const failure = parseFailure(409, {
        error: { code, message: 'm' },
        payment: wire,
        token: 'tok',
      });
      expect(failure.code).toBe(code);
      expect(failure.earlier).toEqual({
        token: 'tok',
        payment: { ...wire, serverTime: Date.parse(wire.serverTime) },
      });
      // A payment that fails its checks is dropped, never trusted; the refusal stands.
      const hostile = parseFailure(409, {
        error: { code, message: 'm' },
        payment: { ...wire, bankAuthUrl: 'javascript:alert(1)' },
        token: 'tok',
      });
      expect(hostile.code).toBe(code);
      expect(hostile.earlier).toBeNull();
      // Other refusals carry none, whatever the body says.
      expect(
        parseFailure(409, {
          error: { code: 'conflict', message: 'm' },
          payment: wire,
          token: 'tok',
        }).earlier,
      ).toBeNull();
    },
  );

  it.each<[number, unknown]>([
    [500, null],
    [502, '<html>Bad gateway</html>'],
    [503, {}],
    [504, { error: 'Gateway timeout' }],
    [500, { error: { code: 42 } }],
    [599, []],
  ])('makes a shape-less %i answer unavailable', (status, body) => {
    const failure = parseFailure(status, body);
    expect(failure.code).toBe('unavailable');
    expect(failure.requestId).toBeNull();
  });

  it.each<[number, unknown]>([
    [400, null],
    [404, 'Not Found'],
    [409, {}],
    [429, { error: 'slow down' }],
    [400, { error: { message: 'no code' } }],
    [401, { error: null }],
  ])('makes a shape-less %i answer bad_response', (status, body) => {
    expect(parseFailure(status, body).code).toBe('bad_response');
  });

  it('truncates an overly long message and request id', () => {
    const failure = parseFailure(400, {
      error: {
        code: 'invalid',
        message: `Bad: ${'x'.repeat(100_000)}`,
        requestId: 'r'.repeat(5000),
      },
    });
    expect(failure.code).toBe('invalid');
    expect(failure.message.length).toBeLessThanOrEqual(300);
    expect(failure.message.startsWith('Bad: xxx')).toBe(true);
    expect(failure.requestId?.length ?? 0).toBeLessThanOrEqual(64);
  });

  it('does not take a non-string message or request id', () => {
    const failure = parseFailure(409, {
      error: { code: 'conflict', message: { html: MARKUP }, requestId: 7 },
    });
    expect(failure.code).toBe('conflict');
    expect(typeof failure.message).toBe('string');
    expect(failure.message).not.toContain('<img');
    expect(failure.requestId).toBeNull();
  });

  it('does not let an overly long unknown code become an overly long message', () => {
    const failure = parseFailure(400, { error: { code: 'c'.repeat(100_000) } });
    expect(failure.code).toBe('internal');
    expect(failure.message.length).toBeLessThanOrEqual(300);
  });
});

describe('isSafeUrl', () => {
  it.each([
    'https://bank.example/authorize?request=abc',
    'https://bank.example:8443/a#b',
    'HTTPS://BANK.EXAMPLE/',
    'http://localhost/auth',
    'http://localhost:4010/auth',
    'http://LOCALHOST:4010/auth',
    'http://127.0.0.1:4010/auth',
    'http://[::1]:4010/auth',
  ])('accepts %s', (url) => {
    expect(isSafeUrl(url)).toBe(true);
  });

  it.each([
    'http://evil.example/auth',
    'http://bank.example/auth',
    'http://localhost.evil.example/',
    'http://127.0.0.1.evil.example/',
    'http://localhost@evil.example/',
    'http://192.168.1.10/auth',
    'http://[::2]/auth',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,hello',
    'file:///etc/passwd',
    'blob:https://bank.example/0b7c',
    'ftp://bank.example/file',
    'ws://localhost/socket',
    'wss://bank.example/socket',
    '/auth',
    '//bank.example/auth',
    'bank.example/auth',
    '',
  ])('refuses %s', (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });
});

describe('parseAuthentication', () => {
  const COMPANION = 'https://pay.shop.example';
  const CHALLENGE = `${COMPANION}/challenge?token=abc`;

  it('has no challenge when authentication is not required', () => {
    expect(
      parseAuthentication({ authenticationRequired: false, challengeUrl: null }, COMPANION),
    ).toEqual({ challengeUrl: null });
    expect(
      parseAuthentication({ authenticationRequired: false, challengeUrl: CHALLENGE }, COMPANION),
    ).toEqual({ challengeUrl: null });
  });

  it.each<[string, unknown]>([
    ['an empty answer', {}],
    ['authenticationRequired as a string', { authenticationRequired: 'true' }],
    ['authenticationRequired missing with a URL', { challengeUrl: 'https://pay.shop.example/c' }],
  ])('refuses %s rather than skipping the challenge', (_, body) => {
    expectRefused(() => parseAuthentication(body, COMPANION));
  });

  it("takes the challenge page on the companion's own origin", () => {
    expect(
      parseAuthentication({ authenticationRequired: true, challengeUrl: CHALLENGE }, COMPANION),
    ).toEqual({ challengeUrl: CHALLENGE });
  });

  it('takes a sandbox companion on this machine over http', () => {
    const local = 'http://localhost:8787';
    expect(
      parseAuthentication(
        { authenticationRequired: true, challengeUrl: `${local}/challenge?token=t` },
        local,
      ),
    ).toEqual({ challengeUrl: `${local}/challenge?token=t` });
  });

  it.each<[string, unknown]>([
    ['another origin', 'https://evil.example/challenge?token=abc'],
    ['a sibling subdomain', 'https://evil.shop.example/challenge'],
    ['another port', 'https://pay.shop.example:8443/challenge'],
    ['http on the same host', 'http://pay.shop.example/challenge'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<form>'],
    ['a relative URL', '/challenge?token=abc'],
    ['no URL', null],
    ['a missing URL', undefined],
    ['a numeric URL', 42],
    ['an over-long URL', `${CHALLENGE}${'a'.repeat(2048)}`],
  ])('refuses a required challenge on %s', (_, challengeUrl) => {
    expectRefused(() =>
      parseAuthentication({ authenticationRequired: true, challengeUrl }, COMPANION),
    );
  });

  it('refuses an http page on this machine when the companion is elsewhere', () => {
    expectRefused(() =>
      parseAuthentication(
        { authenticationRequired: true, challengeUrl: 'http://localhost:8787/challenge' },
        COMPANION,
      ),
    );
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ authenticationRequired: false }]],
    ['a string', 'authenticationRequired'],
  ])('refuses a body that is %s', (_, body) => {
    expectRefused(() => parseAuthentication(body, COMPANION));
  });
});

describe('parseFinalization', () => {
  it.each(['PENDING', 'SUCCESSFUL', 'FAILED'])('accepts %s', (status) => {
    expect(parseFinalization({ reference: 'PAY-0001', status })).toEqual({ status });
  });

  it.each<[string, unknown]>([
    ['a null body', null],
    ['an array', [{ status: 'SUCCESSFUL' }]],
    ['a bare status string', 'SUCCESSFUL'],
    ['no status', { reference: 'PAY-0001' }],
    ['an unknown status', { status: 'AUTHORIZED' }],
    ['a lowercase status', { status: 'successful' }],
    ['the provider spelling', { status: 'Successfull' }],
    ['a numeric status', { status: 1 }],
  ])('refuses %s', (_, body) => {
    expectRefused(() => parseFinalization(body));
  });
});

describe('parseFinalization: why a card failed (issue 12)', () => {
  it('keeps a known reason with FAILED, and drops an unknown one or one without FAILED', () => {
    expect(parseFinalization({ status: 'FAILED', reason: 'card_declined' })).toEqual({
      status: 'FAILED',
      reason: 'card_declined',
    });
    expect(parseFinalization({ status: 'FAILED', reason: 'stolen_card' })).toEqual({
      status: 'FAILED',
    });
    expect(parseFinalization({ status: 'SUCCESSFUL', reason: 'card_declined' })).toEqual({
      status: 'SUCCESSFUL',
    });
  });
});

describe('failureReasonOf: the provider’s words to a reason', () => {
  it.each([
    ['The card was declined.', 'card_declined'],
    ['The card has insufficient funds.', 'insufficient_funds'],
    ['The card has expired.', 'card_expired'],
    ['The cardholder failed authentication.', 'verification_failed'],
    ['The customer declined at the bank.', 'bank_declined'],
    ['Underpaid: less than the amount due arrived.', 'transfer_short'],
    ['The virtual account expired before any transfer arrived.', 'expired'],
    ['Something else entirely.', null],
  ])('%s → %s', (message, reason) => {
    expect(failureReasonOf(message)).toBe(reason);
  });
});
