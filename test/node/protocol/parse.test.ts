import { describe, expect, it } from 'vitest';
import {
  errorFromAnswer,
  type FailedRequest,
  InsufficientBalanceError,
  MoneyError,
  normalizeLinkType,
  normalizePaymentStatus,
  normalizePayoutStatus,
  type ProviderAnswer,
  ProviderAuthError,
  ProviderConflictError,
  ProviderError,
  ProviderNotFoundError,
  ProviderProtocolError,
  ProviderRateLimitError,
  ProviderUnavailableError,
  ProviderValidationError,
  parseAuthenticationCheck,
  parseChannelValidation,
  parseFinalization,
  parseFundTransfer,
  parseInitiation,
  parsePaymentLink,
  parsePaymentStatus,
  parsePayoutRequirements,
  parseRetryAfter,
  parseTransactionPage,
  readAnswer,
  type WireAuthentication,
  type WireEnvelope,
  type WireFinalization,
  type WireFundTransfer,
  type WireInitiation,
  type WirePaymentLink,
  type WirePaymentMethodRequirement,
  type WirePaymentStatus,
  type WireTransactionList,
  type WireTransferInfo,
  type WireValidation,
} from '../../../src/protocol';

const INITIATE: FailedRequest = {
  method: 'POST',
  url: 'https://api.provider.test/api/payment/pay/initiate',
};
const FUND_TRANSFER: FailedRequest = {
  method: 'POST',
  url: 'https://api.provider.test/payout/Disbursement/Payout/FundTransfer',
};

/** Runs a call that must throw, and returns what it threw. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, but it returned');
}

async function rejected(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

function ok(body: unknown, status = 200): ProviderAnswer {
  return { status, body, request: INITIATE };
}

// Wire bodies exactly as provider-api.md shows them.

function transferInitiationBody(
  overrides: Partial<WireInitiation['paymentItem']> = {},
): WireEnvelope<WireInitiation> {
  return {
    value: {
      paymentStatus: 'REQUIRE_USER_OFFLINE_ACTION',
      message: 'Transfer the amount to the account below',
      bankAuthURL: null,
      paymentItem: {
        channel: 'PayByTransfer',
        message: 'Payment initiated',
        amount: 2500.5,
        fees: 37.51,
        reference: 'PBT-7f3a9c',
        paymentReference: 'PBT-7f3a9c',
        metaData: {
          'transfer-info': {
            note: 'Use this account for this payment only',
            bank: 'Wema Bank',
            account_number: '9912345678',
            account_name: 'Paydrop Checkout / Mug Shop',
            expiration: '2026-11-22T01:02:03Z',
            mode: 'banktransfer',
          },
        },
        ...overrides,
      },
    },
    isSuccess: true,
    error: null,
    message: 'Request successful',
    responseCode: '00',
    status: 200,
  };
}

function accountInitiationBody(): WireEnvelope<WireInitiation> {
  return {
    value: {
      paymentStatus: 'REQUIRE_BANK_AUTH',
      message: 'Authorise the payment at your bank',
      bankAuthURL: null,
      paymentItem: {
        channel: 'PayByAccount',
        message: 'Payment initiated',
        amount: 19.99,
        fees: 0.2,
        reference: 'PBA-1c2d3e',
        paymentReference: 'PBA-1c2d3e',
        metaData: { AuthUrl: 'https://bank.example/authorise?session=abc123' },
      },
    },
    isSuccess: true,
    error: null,
    message: 'Request successful',
    responseCode: '00',
    status: 200,
  };
}

const VALIDATION_FAILURE = {
  isSuccess: false,
  type: 'ValidationException',
  title: 'One or more validation errors occurred.',
  detail: 'The fund transfer request is not valid.',
  status: 400,
  failures: ["'Narration' must not be empty.", "'Amount' must be greater than '0'."],
  extensions: { traceId: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
};

const INSUFFICIENT_BALANCE = {
  isSuccess: false,
  error: 'Wallet balance is not sufficient for the amount 150000',
  message: 'Wallet balance is not sufficient for the amount 150000',
  status: 400,
  extensions: {},
};

describe('parseInitiation', () => {
  it('reads a PayByTransfer answer: virtual account, amounts in minor units, expiresAt ISO', () => {
    expect(parseInitiation(ok(transferInitiationBody()), { currency: 'NGN' })).toEqual({
      paymentStatus: 'REQUIRE_USER_OFFLINE_ACTION',
      message: 'Transfer the amount to the account below',
      channel: 'PayByTransfer',
      reference: 'PBT-7f3a9c',
      paymentReference: 'PBT-7f3a9c',
      amount: { amountMinor: 250050, currency: 'NGN' },
      fees: { amountMinor: 3751, currency: 'NGN' },
      virtualAccount: {
        bank: 'Wema Bank',
        accountNumber: '9912345678',
        accountName: 'Paydrop Checkout / Mug Shop',
        note: 'Use this account for this payment only',
        expiresAt: '2026-11-22T01:02:03.000Z',
      },
      bankAuthUrl: null,
    });
  });

  it('reads 2500.55 NGN as 250055 kobo, not 250054', () => {
    const answer = ok(transferInitiationBody({ amount: 2500.55 }));
    expect(parseInitiation(answer, { currency: 'NGN' }).amount.amountMinor).toBe(250055);
  });

  it('writes expiresAt in UTC when the provider sends an offset', () => {
    const body = transferInitiationBody();
    const info = body.value?.paymentItem.metaData['transfer-info'];
    if (!info) throw new Error('fixture lost its transfer-info');
    info.expiration = '2026-11-22T02:32:03.5+01:30';
    expect(parseInitiation(ok(body), { currency: 'NGN' }).virtualAccount?.expiresAt).toBe(
      '2026-11-22T01:02:03.500Z',
    );
  });

  // ISO 8601 allows an hour-only offset and valibot's isoTimestamp accepts it, but `new Date`
  // does not read it: the parser must still answer with a date or a ProviderProtocolError.
  it.each(['2026-11-22T02:02:03+01', '2026-11-22T02:02:03 +01:00'])(
    'reads the expiration %j as a date or refuses it as a protocol error, never a RangeError',
    (expiration) => {
      const body = transferInitiationBody();
      const info = body.value?.paymentItem.metaData['transfer-info'];
      if (!info) throw new Error('fixture lost its transfer-info');
      info.expiration = expiration;
      let outcome: string;
      try {
        outcome = parseInitiation(ok(body), { currency: 'NGN' }).virtualAccount?.expiresAt ?? '';
      } catch (error) {
        outcome = error instanceof Error ? error.name : String(error);
      }
      expect(outcome).toBeOneOf(['2026-11-22T01:02:03.000Z', 'ProviderProtocolError']);
    },
  );

  it('refuses an expiration that is not an ISO timestamp', () => {
    const body = transferInitiationBody();
    const info = body.value?.paymentItem.metaData['transfer-info'];
    if (!info) throw new Error('fixture lost its transfer-info');
    info.expiration = 'in 30 minutes';
    expect(thrown(() => parseInitiation(ok(body), { currency: 'NGN' }))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });

  it('reads a PayByAccount answer: AuthUrl as bankAuthUrl, no virtual account', () => {
    expect(parseInitiation(ok(accountInitiationBody()), { currency: 'GBP' })).toEqual({
      paymentStatus: 'REQUIRE_BANK_AUTH',
      message: 'Authorise the payment at your bank',
      channel: 'PayByAccount',
      reference: 'PBA-1c2d3e',
      paymentReference: 'PBA-1c2d3e',
      amount: { amountMinor: 1999, currency: 'GBP' },
      fees: { amountMinor: 20, currency: 'GBP' },
      virtualAccount: null,
      bankAuthUrl: 'https://bank.example/authorise?session=abc123',
    });
  });

  it('prefers paymentItem.metaData.AuthUrl and falls back to bankAuthURL', () => {
    const both = accountInitiationBody();
    if (!both.value) throw new Error('fixture lost its value');
    both.value.bankAuthURL = 'https://bank.example/other';
    expect(parseInitiation(ok(both), { currency: 'GBP' }).bankAuthUrl).toBe(
      'https://bank.example/authorise?session=abc123',
    );

    const onlyTopLevel = accountInitiationBody();
    if (!onlyTopLevel.value) throw new Error('fixture lost its value');
    onlyTopLevel.value.bankAuthURL = 'https://bank.example/top-level';
    onlyTopLevel.value.paymentItem.metaData = {};
    expect(parseInitiation(ok(onlyTopLevel), { currency: 'GBP' }).bankAuthUrl).toBe(
      'https://bank.example/top-level',
    );
  });

  it('falls back to the item message, and to zero fees when fees are absent', () => {
    const body = {
      isSuccess: true,
      value: {
        paymentStatus: 'REQUIRE_USER_OFFLINE_ACTION',
        message: null,
        bankAuthURL: null,
        paymentItem: {
          channel: 'PayByTransfer',
          message: 'Payment initiated',
          amount: 100,
          reference: 'PBT-1',
          paymentReference: 'PBT-1',
          metaData: null,
        },
      },
    };
    const initiation = parseInitiation(ok(body), { currency: 'NGN' });
    expect(initiation.message).toBe('Payment initiated');
    expect(initiation.fees).toEqual({ amountMinor: 0, currency: 'NGN' });
    expect(initiation.virtualAccount).toBeNull();
    expect(initiation.bankAuthUrl).toBeNull();
  });

  it('tolerates fields the interface does not show', () => {
    const body = { ...transferInitiationBody(), correlationId: 'x-1' };
    const value = body.value as WireInitiation & { extra?: unknown };
    value.extra = { anything: true };
    expect(parseInitiation(ok(body), { currency: 'NGN' }).reference).toBe('PBT-7f3a9c');
  });

  it('refuses an amount sent as a string, naming the field', () => {
    const body = transferInitiationBody({ amount: '2500.50' as unknown as number });
    const error = thrown(() => parseInitiation(ok(body), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect((error as ProviderProtocolError).message).toContain('value.paymentItem.amount');
    expect(error).toMatchObject({ name: 'ProviderProtocolError', status: 200, request: INITIATE });
  });

  it('refuses an answer whose paymentItem is missing', () => {
    const body = transferInitiationBody() as { value?: Partial<WireInitiation> | null };
    if (body.value) delete body.value.paymentItem;
    const error = thrown(() => parseInitiation(ok(body), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect((error as Error).message).toContain('paymentItem');
  });

  it.each([
    ['a negative amount', -1],
    ['NaN', Number.NaN],
    ['an empty reference', ''],
  ])('refuses %s', (_label, bad) => {
    const overrides =
      typeof bad === 'number' ? { amount: bad } : { reference: bad, paymentReference: bad };
    const error = thrown(() =>
      parseInitiation(ok(transferInitiationBody(overrides)), { currency: 'NGN' }),
    );
    expect(error).toBeInstanceOf(ProviderProtocolError);
  });

  it('refuses an amount with more decimals than the currency has, with the MoneyError as cause', () => {
    const error = thrown(() =>
      parseInitiation(ok(transferInitiationBody({ amount: 2500.555 })), { currency: 'NGN' }),
    );
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect((error as Error).cause).toBeInstanceOf(MoneyError);
  });

  it('refuses a transfer-info without an account number', () => {
    const body = transferInitiationBody();
    const info: Partial<WireTransferInfo> | undefined =
      body.value?.paymentItem.metaData['transfer-info'];
    if (!info) throw new Error('fixture lost its transfer-info');
    delete info.account_number;
    expect(thrown(() => parseInitiation(ok(body), { currency: 'NGN' }))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });

  it.each([
    ['a missing value', { isSuccess: true, message: 'ok' }],
    ['a null value', { isSuccess: true, value: null }],
    ['an array value', { isSuccess: true, value: [] }],
    ['a string body', 'OK'],
    ['a number body', 42],
    ['a null body', null],
    ['an array body', [transferInitiationBody()]],
    ['an empty body', undefined],
  ])('refuses %s on a 200 with a ProviderProtocolError', (_label, body) => {
    const error = thrown(() => parseInitiation(ok(body), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect(error).toMatchObject({ status: 200, request: INITIATE });
  });

  it('turns a 200 with isSuccess false into an error, not a value', () => {
    const body = { ...transferInitiationBody(), isSuccess: false, message: 'Channel unavailable' };
    const error = thrown(() => parseInitiation(ok(body), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ message: 'Channel unavailable', request: INITIATE });
  });

  it('turns a 200 with isSuccess false and status 404 into ProviderNotFoundError', () => {
    const body = { isSuccess: false, status: 404, message: 'Payment link not found' };
    const error = thrown(() => parseInitiation(ok(body), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(error).toMatchObject({ status: 404, message: 'Payment link not found' });
  });

  it('turns a 500 without a body into ProviderUnavailableError', () => {
    const error = thrown(() => parseInitiation(ok(undefined, 500), { currency: 'NGN' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ status: 500, request: INITIATE });
  });

  it('refuses with a protocol error when asked for a currency it cannot convert', () => {
    expect(
      thrown(() => parseInitiation(ok(transferInitiationBody()), { currency: 'XYZ' })),
    ).toBeInstanceOf(ProviderProtocolError);
  });
});

describe('parseChannelValidation', () => {
  const body: WireEnvelope<WireValidation> = {
    value: {
      isValid: true,
      channels: [
        {
          id: '3f1c2b0e-8d4a-4c1e-9b7a-2a6f5d1e0c11',
          name: 'PayByTransfer',
          alias: 'pay-by-transfer',
          description: 'Pay into a one-time bank account',
        },
        {
          id: '9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d',
          name: 'Card',
          alias: 'card',
          description: null,
        },
      ],
    },
    isSuccess: true,
    message: 'Channels retrieved',
  };

  it('reads isValid and every channel', () => {
    expect(parseChannelValidation(ok(body))).toEqual({
      isValid: true,
      channels: [
        {
          id: '3f1c2b0e-8d4a-4c1e-9b7a-2a6f5d1e0c11',
          name: 'PayByTransfer',
          alias: 'pay-by-transfer',
          description: 'Pay into a one-time bank account',
        },
        {
          id: '9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d',
          name: 'Card',
          alias: 'card',
          description: null,
        },
      ],
    });
  });

  it('reads an invalid amount with no channels', () => {
    expect(
      parseChannelValidation(ok({ isSuccess: true, value: { isValid: false, channels: [] } })),
    ).toEqual({ isValid: false, channels: [] });
  });

  it('uses the name when a channel has no alias or description', () => {
    const answer = ok({
      isSuccess: true,
      value: { isValid: true, channels: [{ id: 'c-1', name: 'PayByAccount' }] },
    });
    expect(parseChannelValidation(answer).channels).toEqual([
      { id: 'c-1', name: 'PayByAccount', alias: 'PayByAccount', description: null },
    ]);
  });

  it.each([
    ['isValid as a string', { isValid: 'true', channels: [] }],
    ['channels missing', { isValid: true }],
    ['a channel without a name', { isValid: true, channels: [{ id: 'c-1', alias: 'x' }] }],
  ])('refuses %s', (_label, value) => {
    expect(thrown(() => parseChannelValidation(ok({ isSuccess: true, value })))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });
});

describe('parseAuthenticationCheck', () => {
  const challenge =
    '<html><body><form action="https://acs.bank.example/challenge" method="post"><input name="otp"></form></body></html>';

  function authenticationBody(value: Partial<WireAuthentication>): unknown {
    return {
      value: {
        status: 'PENDING',
        IsAuthenticationEnabled: true,
        Recommendation: 'Challenge',
        message: 'The issuer requires 3-D Secure',
        authenticationhtml: challenge,
        ...value,
      },
      type: null,
      title: null,
      status: 200,
      detail: null,
      instance: null,
      isSuccess: true,
      error: null,
      message: 'Request successful',
      responseCode: '00',
    };
  }

  it('reads a check that needs a challenge', () => {
    expect(parseAuthenticationCheck(ok(authenticationBody({})))).toEqual({
      status: 'PENDING',
      authenticationRequired: true,
      recommendation: 'Challenge',
      message: 'The issuer requires 3-D Secure',
      challengeHtml: challenge,
    });
  });

  it('reads a check without a challenge', () => {
    const body = authenticationBody({
      status: 'APPROVED',
      IsAuthenticationEnabled: false,
      Recommendation: 'Proceed',
      message: 'No authentication needed',
      authenticationhtml: '',
    });
    expect(parseAuthenticationCheck(ok(body))).toEqual({
      status: 'APPROVED',
      authenticationRequired: false,
      recommendation: 'Proceed',
      message: 'No authentication needed',
      challengeHtml: null,
    });
  });

  it('drops markup sent when no authentication is needed', () => {
    const body = authenticationBody({ IsAuthenticationEnabled: false });
    expect(parseAuthenticationCheck(ok(body)).challengeHtml).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['blank', '  \n '],
    ['null', null],
  ])('refuses IsAuthenticationEnabled true with %s html', (_label, html) => {
    const body = authenticationBody({ authenticationhtml: html as string });
    const error = thrown(() => parseAuthenticationCheck(ok(body)));
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect(error).toMatchObject({ status: 200, request: INITIATE });
  });

  it('refuses an answer without IsAuthenticationEnabled', () => {
    const body = {
      isSuccess: true,
      value: { status: 'PENDING', authenticationhtml: challenge },
    };
    expect(thrown(() => parseAuthenticationCheck(ok(body)))).toBeInstanceOf(ProviderProtocolError);
  });
});

describe('parseFinalization', () => {
  function finalizationBody(value: WireFinalization): unknown {
    return {
      value,
      type: null,
      title: null,
      status: 200,
      detail: null,
      instance: null,
      isSuccess: true,
      error: null,
      message: 'Request successful',
      responseCode: '00',
    };
  }

  it.each([
    ['Successfull', 'SUCCESSFUL'],
    ['SUCCESSFUL', 'SUCCESSFUL'],
    ['PENDING', 'PENDING'],
    ['FAILED', 'FAILED'],
  ] as const)('reads the status %s as %s', (wire, clean) => {
    const body = finalizationBody({ status: wire, message: 'Payment finalized' });
    expect(parseFinalization(ok(body))).toEqual({ status: clean, message: 'Payment finalized' });
  });

  it('defaults a missing message to empty text', () => {
    const body = { isSuccess: true, value: { status: 'PENDING', message: null } };
    expect(parseFinalization(ok(body))).toEqual({ status: 'PENDING', message: '' });
  });

  it('refuses a status it does not know', () => {
    const body = finalizationBody({ status: 'Settled', message: 'done' });
    expect(thrown(() => parseFinalization(ok(body)))).toBeInstanceOf(ProviderProtocolError);
  });
});

describe('parsePaymentStatus', () => {
  function statusBody(
    paymentStatus: string,
    amount = { currencyCode: 'NGN', amount: 2500.5 },
  ): unknown {
    return {
      value: { paymentReference: 'PBT-7f3a9c', amount, paymentStatus },
      isSuccess: true,
    } satisfies WireEnvelope<Omit<WirePaymentStatus, 'paymentStatus'> & { paymentStatus: string }>;
  }

  it.each([
    ['Successfull', 'SUCCESSFUL'],
    ['PENDING', 'PENDING'],
    ['FAILED', 'FAILED'],
  ] as const)('reads %s as %s with the amount in minor units', (wire, clean) => {
    expect(parsePaymentStatus(ok(statusBody(wire)))).toEqual({
      paymentReference: 'PBT-7f3a9c',
      amount: { amountMinor: 250050, currency: 'NGN' },
      paymentStatus: clean,
    });
  });

  it('converts with the currency the answer names', () => {
    const gbp = parsePaymentStatus(
      ok(statusBody('PENDING', { currencyCode: 'GBP', amount: 19.99 })),
    );
    expect(gbp.amount).toEqual({ amountMinor: 1999, currency: 'GBP' });
    const kwd = parsePaymentStatus(
      ok(statusBody('PENDING', { currencyCode: 'KWD', amount: 1.005 })),
    );
    expect(kwd.amount).toEqual({ amountMinor: 1005, currency: 'KWD' });
  });

  it.each(['Refunded', 'UNKNOWN', '', 'Successful!'])('refuses the unknown status %j', (status) => {
    const error = thrown(() => parsePaymentStatus(ok(statusBody(status))));
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect((error as Error).message).toContain('paymentStatus');
  });

  it('refuses an amount that is a bare number instead of currencyCode and amount', () => {
    const body = {
      isSuccess: true,
      value: { paymentReference: 'PBT-1', amount: 2500.5, paymentStatus: 'PENDING' },
    };
    expect(thrown(() => parsePaymentStatus(ok(body)))).toBeInstanceOf(ProviderProtocolError);
  });

  it.each(['XYZ', 'constructor', 'toString'])(
    'refuses the unknown currency %j as a protocol error',
    (currencyCode) => {
      const body = statusBody('PENDING', { currencyCode, amount: 2500.5 });
      expect(thrown(() => parsePaymentStatus(ok(body)))).toBeInstanceOf(ProviderProtocolError);
    },
  );

  it('turns a 429 with Retry-After into ProviderRateLimitError', () => {
    const answer: ProviderAnswer = {
      status: 429,
      body: { isSuccess: false, status: 429, message: 'Too many status queries' },
      retryAfter: '3',
      request: { method: 'GET', url: 'https://api.provider.test/api/payment/pay/status/PBT-1' },
    };
    const error = thrown(() => parsePaymentStatus(answer));
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect(error).toMatchObject({
      name: 'ProviderRateLimitError',
      status: 429,
      retryAfterSeconds: 3,
      request: answer.request,
    });
  });
});

describe('parsePaymentLink', () => {
  function linkBody(linkType: string): unknown {
    return {
      value: {
        id: '6b1e2d3c-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
        name: 'Order 1001',
        description: 'Two mugs',
        alias: 'mugs-1001',
        link: 'https://pay.provider.test/l/mugs-1001',
        amountInfo: { currencyCode: 'NGN', amount: 15000.5 },
        linkType,
        status: 'New',
        createdDate: '2026-11-22T01:02:03.1234567+01:00',
        environment: 'Test',
      },
      isSuccess: true,
      message: 'Payment link created',
    } satisfies WireEnvelope<Omit<WirePaymentLink, 'linkType'> & { linkType: string }>;
  }

  it('reads Reuseable (sic) as Reusable, with the amount in minor units', () => {
    expect(parsePaymentLink(ok(linkBody('Reuseable')))).toEqual({
      id: '6b1e2d3c-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
      name: 'Order 1001',
      description: 'Two mugs',
      alias: 'mugs-1001',
      url: 'https://pay.provider.test/l/mugs-1001',
      amount: { amountMinor: 1500050, currency: 'NGN' },
      linkType: 'Reusable',
      status: 'New',
      createdAt: '2026-11-22T01:02:03.1234567+01:00',
      environment: 'Test',
    });
  });

  it('reads OneTime as OneTime', () => {
    expect(parsePaymentLink(ok(linkBody('OneTime'))).linkType).toBe('OneTime');
  });

  it('reads a link without amountInfo (a dynamic amount) with amount null', () => {
    const body = linkBody('OneTime') as { value: Record<string, unknown> };
    body.value.amountInfo = null;
    body.value.description = null;
    body.value.environment = null;
    const link = parsePaymentLink(ok(body));
    expect(link.amount).toBeNull();
    expect(link.description).toBe('');
    expect(link.environment).toBe('');
  });

  it.each(['Weekly', 'reuseable', ''])('refuses the link type %j', (linkType) => {
    expect(thrown(() => parsePaymentLink(ok(linkBody(linkType))))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });

  it('refuses a link without an alias', () => {
    const body = linkBody('OneTime') as { value: Record<string, unknown> };
    delete body.value.alias;
    expect(thrown(() => parsePaymentLink(ok(body)))).toBeInstanceOf(ProviderProtocolError);
  });
});

describe('parsePayoutRequirements', () => {
  it('reads each requirement and its beneficiary fields', () => {
    const body: WireEnvelope<WirePaymentMethodRequirement[]> = {
      value: [
        {
          name: 'BankCode',
          currency: 'NGN',
          requireFileUpload: false,
          paymentDestination: 'Local',
          metaData: { beneficiaryAccountNumber: 'string', beneficiaryAccountName: 'string' },
        },
        {
          name: 'SortCode',
          currency: 'GBP',
          requireFileUpload: true,
          paymentDestination: 'Local',
          metaData: { beneficiaryAccountNumber: 'string', sortCode: 'string' },
        },
      ],
      isSuccess: true,
      status: 200,
    };
    expect(parsePayoutRequirements(ok(body))).toEqual([
      {
        name: 'BankCode',
        currency: 'NGN',
        requireFileUpload: false,
        paymentDestination: 'Local',
        fields: { beneficiaryAccountNumber: 'string', beneficiaryAccountName: 'string' },
      },
      {
        name: 'SortCode',
        currency: 'GBP',
        requireFileUpload: true,
        paymentDestination: 'Local',
        fields: { beneficiaryAccountNumber: 'string', sortCode: 'string' },
      },
    ]);
  });

  it('fills in what an entry leaves out', () => {
    const body = { isSuccess: true, value: [{ name: 'BankCode', currency: 'NGN' }] };
    expect(parsePayoutRequirements(ok(body))).toEqual([
      {
        name: 'BankCode',
        currency: 'NGN',
        requireFileUpload: false,
        paymentDestination: '',
        fields: {},
      },
    ]);
  });

  it('reads an empty list', () => {
    expect(parsePayoutRequirements(ok({ isSuccess: true, value: [] }))).toEqual([]);
  });

  it.each([
    ['a value that is not a list', { name: 'BankCode', currency: 'NGN' }],
    [
      'a field type label that is not text',
      [{ name: 'BankCode', currency: 'NGN', metaData: { a: 1 } }],
    ],
    ['an entry without a currency', [{ name: 'BankCode' }]],
  ])('refuses %s', (_label, value) => {
    expect(thrown(() => parsePayoutRequirements(ok({ isSuccess: true, value })))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });
});

describe('parseFundTransfer', () => {
  const accepted = (status: number): ProviderAnswer => ({
    status,
    body: {
      value: { reference: 'PO-20261122-0001', tenantReference: 'order-1001-payout' },
      isSuccess: true,
      message: 'The transfer is being processed',
      status,
    } satisfies WireEnvelope<WireFundTransfer>,
    request: FUND_TRANSFER,
  });

  it.each([202, 200])('reads a %d as accepted', (status) => {
    expect(parseFundTransfer(accepted(status))).toEqual({
      reference: 'PO-20261122-0001',
      tenantReference: 'order-1001-payout',
    });
  });

  it('refuses an acceptance without the service reference', () => {
    const answer = accepted(202);
    (answer.body as { value: Partial<WireFundTransfer> }).value = {
      tenantReference: 'order-1001-payout',
    };
    expect(thrown(() => parseFundTransfer(answer))).toBeInstanceOf(ProviderProtocolError);
  });

  it('turns a ValidationException into ProviderValidationError with every failure and the traceId', () => {
    const error = thrown(() =>
      parseFundTransfer({ status: 400, body: VALIDATION_FAILURE, request: FUND_TRANSFER }),
    );
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect(error).toMatchObject({
      name: 'ProviderValidationError',
      status: 400,
      failures: VALIDATION_FAILURE.failures,
      traceId: VALIDATION_FAILURE.extensions.traceId,
      request: FUND_TRANSFER,
      message: 'The fund transfer request is not valid.',
    });
  });

  it('turns the insufficient-balance answer into InsufficientBalanceError', () => {
    const error = thrown(() =>
      parseFundTransfer({ status: 400, body: INSUFFICIENT_BALANCE, request: FUND_TRANSFER }),
    );
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error).toMatchObject({
      name: 'InsufficientBalanceError',
      status: 400,
      request: FUND_TRANSFER,
      traceId: undefined,
      message: INSUFFICIENT_BALANCE.message,
    });
  });

  it('turns a 409 for a reused tenantReference into ProviderConflictError', () => {
    const error = thrown(() =>
      parseFundTransfer({
        status: 409,
        body: {
          isSuccess: false,
          status: 409,
          message: 'tenantReference was already used with a different payload',
        },
        request: FUND_TRANSFER,
      }),
    );
    expect(error).toBeInstanceOf(ProviderConflictError);
    expect(error).toMatchObject({ name: 'ProviderConflictError', status: 409 });
  });
});

describe('parseTransactionPage', () => {
  function listBody(meta: WireTransactionList['meta'], data?: unknown[]): WireTransactionList {
    return {
      status: true,
      data: (data ?? [
        { id: 'txn_01', amount: 10000, currency: 'NGN', status: 'completed', channel: 'Card' },
        { id: 'txn_02', amount: 250050, currency: 'NGN', status: 'pending' },
      ]) as WireTransactionList['data'],
      meta,
    };
  }
  const meta = (page: number, pageCount: number, total = 45, perPage = 20) => ({
    page,
    pageCount,
    total,
    perPage,
    skipped: (page - 1) * perPage,
  });

  it('reads items with amounts already in subunits, the meta and the raw fields', () => {
    const page = parseTransactionPage(ok(listBody(meta(1, 3))));
    expect(page.items).toEqual([
      {
        id: 'txn_01',
        amount: { amountMinor: 10000, currency: 'NGN' },
        status: 'completed',
        raw: { id: 'txn_01', amount: 10000, currency: 'NGN', status: 'completed', channel: 'Card' },
      },
      {
        id: 'txn_02',
        amount: { amountMinor: 250050, currency: 'NGN' },
        status: 'pending',
        raw: { id: 'txn_02', amount: 250050, currency: 'NGN', status: 'pending' },
      },
    ]);
    expect(page.meta).toEqual({ page: 1, pageCount: 3, total: 45, perPage: 20, skipped: 0 });
    expect(page.isLastPage).toBe(false);
  });

  it('reads a numeric id as text', () => {
    const body = listBody(meta(1, 1), [
      { id: 42, amount: 100, currency: 'GBP', status: 'completed' },
    ]);
    expect(parseTransactionPage(ok(body)).items[0]?.id).toBe('42');
  });

  it.each([
    ['page < pageCount', 2, 3, false],
    ['page == pageCount', 3, 3, true],
    ['page > pageCount', 4, 3, true],
    ['pageCount 0', 1, 0, true],
    ['a single page', 1, 1, true],
  ] as const)('isLastPage for %s is %s', (_label, page, pageCount, isLast) => {
    const data = pageCount === 0 ? [] : undefined;
    const total = pageCount === 0 ? 0 : 45;
    expect(parseTransactionPage(ok(listBody(meta(page, pageCount, total), data))).isLastPage).toBe(
      isLast,
    );
  });

  it.each([
    [
      'an amount that is not whole subunits',
      { id: 't', amount: 100.5, currency: 'NGN', status: 'completed' },
    ],
    ['an amount as text', { id: 't', amount: '10000', currency: 'NGN', status: 'completed' }],
    ['an item without a currency', { id: 't', amount: 100, status: 'completed' }],
    ['an empty id', { id: '', amount: 100, currency: 'NGN', status: 'completed' }],
  ])('refuses %s', (_label, item) => {
    expect(thrown(() => parseTransactionPage(ok(listBody(meta(1, 1), [item]))))).toBeInstanceOf(
      ProviderProtocolError,
    );
  });

  it.each([
    ['a missing meta', { status: true, data: [] }],
    ['page 0', { status: true, data: [], meta: { ...meta(1, 1), page: 0 } }],
    ['a fractional pageCount', { status: true, data: [], meta: { ...meta(1, 1), pageCount: 1.5 } }],
    ['data that is not a list', { status: true, data: {}, meta: meta(1, 1) }],
    ['a body that is not an object', 'OK'],
    ['an empty body', undefined],
  ])('refuses %s with a ProviderProtocolError', (_label, body) => {
    expect(thrown(() => parseTransactionPage(ok(body)))).toBeInstanceOf(ProviderProtocolError);
  });

  it('turns status false into an error', () => {
    const error = thrown(() =>
      parseTransactionPage(ok({ status: false, message: 'Could not list transactions' })),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('Could not list transactions');
  });

  it('turns a 401 into ProviderAuthError', () => {
    const error = thrown(() =>
      parseTransactionPage(ok({ status: false, message: 'Invalid key' }, 401)),
    );
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error).toMatchObject({ status: 401, request: INITIATE });
  });
});

describe('errorFromAnswer', () => {
  const request: FailedRequest = { method: 'GET', url: 'https://api.provider.test/x' };

  it('maps a ValidationException to ProviderValidationError with failures and traceId', () => {
    const error = errorFromAnswer({ status: 400, body: VALIDATION_FAILURE, request });
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect(error).toMatchObject({
      name: 'ProviderValidationError',
      status: 400,
      request,
      failures: VALIDATION_FAILURE.failures,
      traceId: VALIDATION_FAILURE.extensions.traceId,
      message: VALIDATION_FAILURE.detail,
    });
  });

  it('maps a ValidationException without failures to an empty list', () => {
    const error = errorFromAnswer({
      status: 400,
      body: { isSuccess: false, type: 'ValidationException', title: 'Invalid', status: 400 },
    });
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect((error as ProviderValidationError).failures).toEqual([]);
    expect(error.message).toBe('Invalid');
  });

  it('maps the insufficient-balance body to InsufficientBalanceError', () => {
    const error = errorFromAnswer({ status: 400, body: INSUFFICIENT_BALANCE, request });
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error).toMatchObject({ name: 'InsufficientBalanceError', status: 400, request });
  });

  it('maps the insufficient-balance body on a 200 by the status in the body', () => {
    const error = errorFromAnswer({ status: 200, body: INSUFFICIENT_BALANCE });
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error.status).toBe(400);
  });

  it('keeps a 400 that is not about the balance a plain ProviderError', () => {
    const error = errorFromAnswer({
      status: 400,
      body: { isSuccess: false, status: 400, message: 'Currency is not supported' },
    });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(InsufficientBalanceError);
    expect(error.name).toBe('ProviderError');
    expect(error.status).toBe(400);
  });

  it.each([
    [401, 'ProviderAuthError', ProviderAuthError],
    [403, 'ProviderAuthError', ProviderAuthError],
    [404, 'ProviderNotFoundError', ProviderNotFoundError],
    [409, 'ProviderConflictError', ProviderConflictError],
    [429, 'ProviderRateLimitError', ProviderRateLimitError],
    [500, 'ProviderUnavailableError', ProviderUnavailableError],
    [502, 'ProviderUnavailableError', ProviderUnavailableError],
    [503, 'ProviderUnavailableError', ProviderUnavailableError],
  ] as const)('maps %d to %s', (status, name, ErrorClass) => {
    const body = { isSuccess: false, status, message: `Refused with ${status}` };
    const error = errorFromAnswer({ status, body, request });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name, status, request, message: `Refused with ${status}` });
  });

  it.each([
    [401, ProviderAuthError],
    [404, ProviderNotFoundError],
    [409, ProviderConflictError],
    [500, ProviderUnavailableError],
  ] as const)('maps %d without a body and gives a message', (status, ErrorClass) => {
    const error = errorFromAnswer({ status, body: undefined });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.status).toBe(status);
    expect(error.request).toBeUndefined();
    expect(error.message).toBe(`The provider answered ${status}.`);
  });

  it('maps no answer at all (status 0) to ProviderUnavailableError', () => {
    const error = errorFromAnswer({ status: 0, body: undefined, request });
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ status: 0, request });
  });

  it('reads Retry-After seconds on a 429', () => {
    const error = errorFromAnswer({
      status: 429,
      body: { isSuccess: false, message: 'Slow down' },
      retryAfter: '3',
      request,
    });
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect((error as ProviderRateLimitError).retryAfterSeconds).toBe(3);
  });

  it('leaves retryAfterSeconds undefined on a 429 without Retry-After', () => {
    const error = errorFromAnswer({ status: 429, body: undefined, retryAfter: null });
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect((error as ProviderRateLimitError).retryAfterSeconds).toBeUndefined();
  });

  it('uses the status in the body when the HTTP status is a success', () => {
    const error = errorFromAnswer({
      status: 200,
      body: { isSuccess: false, status: 409, message: 'This one-time link is already paid' },
    });
    expect(error).toBeInstanceOf(ProviderConflictError);
    expect(error.status).toBe(409);
  });

  it('prefers the HTTP status when it is an error', () => {
    const error = errorFromAnswer({
      status: 404,
      body: { isSuccess: false, status: 400, message: 'Not here' },
    });
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(error.status).toBe(404);
  });

  it('turns a 200 with isSuccess false and no status into a ProviderError of status 200', () => {
    const error = errorFromAnswer({ status: 200, body: { isSuccess: false, error: 'Declined' } });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ name: 'ProviderError', status: 200, message: 'Declined' });
  });

  it('picks the message from detail, then message, then error, then title', () => {
    const all = { detail: 'd', message: 'm', error: 'e', title: 't' };
    expect(errorFromAnswer({ status: 400, body: all }).message).toBe('d');
    expect(errorFromAnswer({ status: 400, body: { ...all, detail: null } }).message).toBe('m');
    expect(errorFromAnswer({ status: 400, body: { error: 'e', title: 't' } }).message).toBe('e');
    expect(errorFromAnswer({ status: 400, body: { title: 't' } }).message).toBe('t');
  });

  it('copies responseCode and traceId', () => {
    const error = errorFromAnswer({
      status: 404,
      body: {
        isSuccess: false,
        responseCode: 'E404',
        message: 'No such payment',
        extensions: { traceId: 'trace-1' },
      },
    });
    expect(error).toMatchObject({ responseCode: 'E404', traceId: 'trace-1' });
  });

  it.each([
    ['a string', 'Service Unavailable'],
    ['an array', [1, 2]],
    ['null', null],
    ['mistyped fields', { message: 42, extensions: 'none' }],
  ])('still maps by status when the body is %s', (_label, body) => {
    const error = errorFromAnswer({ status: 503, body, request });
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ status: 503, request, message: 'The provider answered 503.' });
  });

  it('never carries headers or the secret key', () => {
    const error = errorFromAnswer({ status: 401, body: undefined, request });
    expect(Object.keys(error)).not.toContain('headers');
    expect(JSON.stringify(error)).not.toMatch(/x-api/i);
  });
});

describe('error classes', () => {
  const request: FailedRequest = { method: 'POST', url: 'https://api.provider.test/y' };
  const options = { status: 400, request };

  it.each([
    ['ProviderError', new ProviderError('m', options)],
    ['ProviderValidationError', new ProviderValidationError('m', ['a'], options)],
    ['InsufficientBalanceError', new InsufficientBalanceError('m', options)],
    ['ProviderAuthError', new ProviderAuthError('m', options)],
    ['ProviderNotFoundError', new ProviderNotFoundError('m', options)],
    ['ProviderConflictError', new ProviderConflictError('m', options)],
    ['ProviderRateLimitError', new ProviderRateLimitError('m', 2, options)],
    ['ProviderUnavailableError', new ProviderUnavailableError('m', options)],
    ['ProviderProtocolError', new ProviderProtocolError('m', options)],
  ] as const)('%s has its literal name, status and request', (name, error) => {
    expect(error.name).toBe(name);
    expect(error.constructor.name).toBe(name);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(400);
    expect(error.request).toEqual(request);
    expect(error.message).toBe('m');
  });

  it('keeps the cause when given and has none otherwise', () => {
    const cause = new SyntaxError('Unexpected token');
    expect(new ProviderProtocolError('m', { status: 200, cause }).cause).toBe(cause);
    expect('cause' in new ProviderProtocolError('m', { status: 200 })).toBe(false);
  });
});

describe('readAnswer', () => {
  const request: FailedRequest = { method: 'GET', url: 'https://api.provider.test/z' };

  it('reads a JSON body with its status and Retry-After', async () => {
    const response = new Response(JSON.stringify({ isSuccess: true, value: { a: 1 } }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
    });
    expect(await readAnswer(response, request)).toEqual({
      status: 429,
      body: { isSuccess: true, value: { a: 1 } },
      retryAfter: '3',
      request,
    });
  });

  it('reads a missing Retry-After as null', async () => {
    const answer = await readAnswer(new Response('{}', { status: 200 }));
    expect(answer.retryAfter).toBeNull();
    expect(answer.body).toEqual({});
  });

  it.each(['', '   \n'])('reads the empty body %j as undefined', async (text) => {
    const answer = await readAnswer(new Response(text, { status: 200 }), request);
    expect(answer.status).toBe(200);
    expect(answer.body).toBeUndefined();
    expect(answer.request).toEqual(request);
  });

  it('reads a 204 without a body as undefined', async () => {
    const answer = await readAnswer(new Response(null, { status: 204 }));
    expect(answer).toMatchObject({ status: 204, body: undefined });
  });

  it('refuses a 200 whose body is not JSON with ProviderProtocolError', async () => {
    const error = await rejected(() =>
      readAnswer(new Response('not json', { status: 200 }), request),
    );
    expect(error).toBeInstanceOf(ProviderProtocolError);
    expect(error).toMatchObject({ name: 'ProviderProtocolError', status: 200, request });
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('turns a 502 HTML page into ProviderUnavailableError once parsed', async () => {
    const response = new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
      status: 502,
      headers: { 'content-type': 'text/html' },
    });
    const answer = await readAnswer(response, request);
    expect(answer.body).toBeUndefined();
    const error = thrown(() => parsePaymentStatus(answer));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ name: 'ProviderUnavailableError', status: 502, request });
  });

  it('keeps the status and Retry-After of a 429 HTML page from a gateway', async () => {
    const response = new Response('<html>Too many requests</html>', {
      status: 429,
      headers: { 'content-type': 'text/html', 'retry-after': '7' },
    });
    const answer = await readAnswer(response, request);
    const error = thrown(() => parsePaymentStatus(answer));
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 7, request });
  });

  it('reads a JSON error body so the parsers can map it', async () => {
    const response = new Response(JSON.stringify(VALIDATION_FAILURE), { status: 400 });
    const answer = await readAnswer(response, request);
    const error = thrown(() => parseFundTransfer(answer));
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect(error).toMatchObject({ request, traceId: VALIDATION_FAILURE.extensions.traceId });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');

  it.each([
    ['3', 3],
    ['0', 0],
    [' 120 ', 120],
  ] as const)('reads the delay %j as %d seconds', (header, seconds) => {
    expect(parseRetryAfter(header, now)).toBe(seconds);
  });

  it('reads an HTTP date as the seconds until then, rounded up', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:05 GMT', now + 500)).toBe(5);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:01:00 GMT', now)).toBe(60);
  });

  it('reads an HTTP date in the past as 0', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 23:59:00 GMT', now)).toBe(0);
  });

  it.each([null, undefined, '', '   '])('reads %j as no advice', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  it.each(['soon', 'later please', '3 seconds', '12abc'])(
    'reads the garbage %j as no advice',
    (header) => {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    },
  );

  // RFC 9110 §10.2.3: Retry-After is an HTTP-date or 1*DIGIT. V8's Date.parse reads many other
  // texts as some date in 2001, which would turn them into "retry now" (0).
  it.each(['1.5', '-1', 'in 5'])(
    'reads %j, neither delay-seconds nor an HTTP date, as no advice',
    (header) => {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    },
  );
});

describe('normalizePaymentStatus', () => {
  it.each([
    ['Successfull', 'SUCCESSFUL'],
    ['SUCCESSFUL', 'SUCCESSFUL'],
    ['successful', 'SUCCESSFUL'],
    [' Success ', 'SUCCESSFUL'],
    ['PENDING', 'PENDING'],
    ['Processing', 'PENDING'],
    ['FAILED', 'FAILED'],
    ['Declined', 'FAILED'],
  ] as const)('reads %j as %s', (text, status) => {
    expect(normalizePaymentStatus(text)).toBe(status);
  });

  it.each(['', 'Refunded', 'SUCCESSFULLL', 'unknown'])('does not know %j', (text) => {
    expect(normalizePaymentStatus(text)).toBeUndefined();
  });
});

describe('normalizeLinkType', () => {
  it.each([
    ['OneTime', 'OneTime'],
    [0, 'OneTime'],
    ['Reuseable', 'Reusable'],
    ['Reusable', 'Reusable'],
    [1, 'Reusable'],
  ] as const)('reads %j as %s', (wire, type) => {
    expect(normalizeLinkType(wire)).toBe(type);
  });

  it.each(['onetime', 2, -1, '0', ''])('does not know %j', (wire) => {
    expect(normalizeLinkType(wire)).toBeUndefined();
  });
});

describe('normalizePayoutStatus', () => {
  it.each([
    ['Pending', 'Pending'],
    ['PENDING', 'Pending'],
    ['completed', 'Completed'],
    ['Successful', 'Completed'],
    ['success', 'Completed'],
    ['FAILED', 'Failed'],
    [' Reversed ', 'Reversed'],
  ] as const)('reads %j as %s', (text, status) => {
    expect(normalizePayoutStatus(text)).toBe(status);
  });

  it.each(['', 'Processing', 'cancelled'])('does not know %j', (text) => {
    expect(normalizePayoutStatus(text)).toBeUndefined();
  });
});
