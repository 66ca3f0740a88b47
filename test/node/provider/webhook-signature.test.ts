import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../../src/provider/webhook-signature';

// The reference vector of the Standard Webhooks libraries.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const timestamp = 1614265330;
const body = '{"test": 2432232314}';
const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const otherSecret = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const atTimestamp = () => timestamp * 1000;

const referenceHeaders = {
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signature,
};

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof WebhookVerificationError)) {
    throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  }
  return error;
}

async function expectReason(promise: Promise<unknown>, reason: WebhookVerificationReason) {
  const error = await rejection(promise);
  expect(error.reason).toBe(reason);
  expect(error.name).toBe('WebhookVerificationError');
  expect(error).toBeInstanceOf(Error);
}

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference vector', async () => {
    await expect(signWebhook({ id, timestamp, body, secret })).resolves.toEqual(referenceHeaders);
  });

  it('accepts a bare base64 secret without the whsec_ prefix', async () => {
    const headers = await signWebhook({
      id,
      timestamp,
      body,
      secret: secret.slice('whsec_'.length),
    });
    expect(headers['webhook-signature']).toBe(signature);
  });

  it('rejects a secret that is not base64', async () => {
    await expectReason(
      signWebhook({ id, timestamp, body, secret: 'whsec_not base64!' }),
      'bad-secret',
    );
  });

  it('rejects a timestamp that is not whole seconds', async () => {
    await expect(signWebhook({ id, timestamp: 1614265330.5, body, secret })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('generateWebhookSecret', () => {
  it('makes a whsec_ secret of 24 random bytes', () => {
    const generated = generateWebhookSecret();
    expect(generated).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(atob(generated.slice('whsec_'.length))).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(generated);
  });

  it('makes a secret that signs and verifies', async () => {
    const generated = generateWebhookSecret();
    const headers = await signWebhook({ id, timestamp, body, secret: generated });
    await expect(
      verifyWebhook({ headers, body, secrets: [generated], now: atTimestamp }),
    ).resolves.toEqual({ id, timestamp });
  });
});

describe('verifyWebhook', () => {
  it('accepts the Standard Webhooks reference vector', async () => {
    await expect(
      verifyWebhook({ headers: referenceHeaders, body, secrets: [secret], now: atTimestamp }),
    ).resolves.toEqual({ id, timestamp });
  });

  it('round-trips what signWebhook produced', async () => {
    const sent = { id: 'msg_round_trip', timestamp: 1_700_000_000, body: '{"amountMinor":1250}' };
    const headers = await signWebhook({ ...sent, secret });
    await expect(
      verifyWebhook({
        headers,
        body: sent.body,
        secrets: [secret],
        now: () => sent.timestamp * 1000 + 42_000,
      }),
    ).resolves.toEqual({ id: sent.id, timestamp: sent.timestamp });
  });

  it('defaults the clock to Date.now', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await signWebhook({ id, timestamp: now, body, secret });
    await expect(verifyWebhook({ headers, body, secrets: [secret] })).resolves.toEqual({
      id,
      timestamp: now,
    });
    // The reference vector is from 2021, far outside the default window of the real clock.
    await expectReason(
      verifyWebhook({ headers: referenceHeaders, body, secrets: [secret] }),
      'too-old',
    );
  });

  it('accepts a Headers object', async () => {
    await expect(
      verifyWebhook({
        headers: new Headers(referenceHeaders),
        body,
        secrets: [secret],
        now: atTimestamp,
      }),
    ).resolves.toEqual({ id, timestamp });
  });

  it('accepts a plain object with mixed-case header names', async () => {
    const headers = {
      'Webhook-Id': id,
      'WEBHOOK-TIMESTAMP': String(timestamp),
      'webhook-Signature': signature,
      'Content-Type': 'application/json',
    };
    await expect(
      verifyWebhook({ headers, body, secrets: [secret], now: atTimestamp }),
    ).resolves.toEqual({ id, timestamp });
  });

  describe('missing-headers', () => {
    it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)(
      'rejects a webhook without %s',
      async (name) => {
        const headers: Record<string, string | undefined> = {
          ...referenceHeaders,
          [name]: undefined,
        };
        await expectReason(
          verifyWebhook({ headers, body, secrets: [secret], now: atTimestamp }),
          'missing-headers',
        );
        const error = await rejection(
          verifyWebhook({ headers, body, secrets: [secret], now: atTimestamp }),
        );
        expect(error.message).toContain(name);
      },
    );

    it('rejects a Headers object without the webhook headers', async () => {
      await expectReason(
        verifyWebhook({ headers: new Headers(), body, secrets: [secret], now: atTimestamp }),
        'missing-headers',
      );
    });

    it('treats an empty header as missing', async () => {
      await expectReason(
        verifyWebhook({
          headers: { ...referenceHeaders, 'webhook-id': '' },
          body,
          secrets: [secret],
          now: atTimestamp,
        }),
        'missing-headers',
      );
    });
  });

  describe('bad-timestamp', () => {
    it.each(['soon', '1614265330.5', '1.61426533e9', ' 1614265330', '-1614265330', '0x6036a5f2'])(
      'rejects the timestamp %j',
      async (value) => {
        await expectReason(
          verifyWebhook({
            headers: { ...referenceHeaders, 'webhook-timestamp': value },
            body,
            secrets: [secret],
            now: atTimestamp,
          }),
          'bad-timestamp',
        );
      },
    );
  });

  describe('timestamp window', () => {
    const verifyAt = (nowSeconds: number, toleranceSeconds?: number) =>
      verifyWebhook({
        headers: referenceHeaders,
        body,
        secrets: [secret],
        now: () => nowSeconds * 1000,
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      });

    it('accepts a webhook exactly 300 seconds old or early', async () => {
      await expect(verifyAt(timestamp + 300)).resolves.toEqual({ id, timestamp });
      await expect(verifyAt(timestamp - 300)).resolves.toEqual({ id, timestamp });
    });

    it('rejects a webhook more than 300 seconds old as too-old', async () => {
      await expectReason(verifyAt(timestamp + 301), 'too-old');
    });

    it('rejects a webhook more than 300 seconds in the future as too-new', async () => {
      await expectReason(verifyAt(timestamp - 301), 'too-new');
    });

    it('honours toleranceSeconds', async () => {
      await expect(verifyAt(timestamp + 10, 10)).resolves.toEqual({ id, timestamp });
      await expectReason(verifyAt(timestamp + 11, 10), 'too-old');
      await expectReason(verifyAt(timestamp - 11, 10), 'too-new');
      await expect(verifyAt(timestamp + 3000, 3600)).resolves.toEqual({ id, timestamp });
    });
  });

  describe('bad-signature', () => {
    const verify = (headers: Record<string, string>, receivedBody = body, nowSeconds = timestamp) =>
      verifyWebhook({
        headers,
        body: receivedBody,
        secrets: [secret],
        now: () => nowSeconds * 1000,
      });

    it('rejects a tampered body', async () => {
      await expectReason(verify(referenceHeaders, '{"test": 2432232315}'), 'bad-signature');
      await expectReason(verify(referenceHeaders, `${body} `), 'bad-signature');
    });

    it('rejects a tampered id', async () => {
      await expectReason(
        verify({ ...referenceHeaders, 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJeK' }),
        'bad-signature',
      );
    });

    it('rejects a tampered timestamp, even one inside the window', async () => {
      await expectReason(
        verify({ ...referenceHeaders, 'webhook-timestamp': String(timestamp + 1) }),
        'bad-signature',
      );
    });

    it('rejects a signature made with another secret', async () => {
      const headers = await signWebhook({ id, timestamp, body, secret: otherSecret });
      await expectReason(verify({ ...headers }), 'bad-signature');
    });

    it.each([
      ['not base64', 'v1,not base64!'],
      ['too short', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1O=='],
      ['empty', 'v1,'],
      ['without a version', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
    ])('treats a signature that is %s as a non-match', async (_label, header) => {
      await expectReason(
        verify({ ...referenceHeaders, 'webhook-signature': header }),
        'bad-signature',
      );
    });

    it('ignores entries of another version, even when their bytes are right', async () => {
      const v2 = signature.replace(/^v1,/, 'v2,');
      await expectReason(verify({ ...referenceHeaders, 'webhook-signature': v2 }), 'bad-signature');
      await expect(
        verify({ ...referenceHeaders, 'webhook-signature': `${v2} ${signature}` }),
      ).resolves.toEqual({ id, timestamp });
    });
  });

  it('accepts the header when any one of several signatures matches', async () => {
    const { 'webhook-signature': wrong } = await signWebhook({
      id,
      timestamp,
      body,
      secret: otherSecret,
    });
    for (const header of [
      `${wrong} v1,not-base64! ${signature}`,
      `${signature} ${wrong}`,
      `v2,${wrong.slice(3)} ${signature}`,
    ]) {
      await expect(
        verifyWebhook({
          headers: { ...referenceHeaders, 'webhook-signature': header },
          body,
          secrets: [secret],
          now: atTimestamp,
        }),
      ).resolves.toEqual({ id, timestamp });
    }
  });

  describe('secret rotation', () => {
    it('accepts a webhook that only the second secret matches', async () => {
      await expect(
        verifyWebhook({
          headers: referenceHeaders,
          body,
          secrets: [otherSecret, secret],
          now: atTimestamp,
        }),
      ).resolves.toEqual({ id, timestamp });
    });

    it('rejects a webhook that no secret matches', async () => {
      await expectReason(
        verifyWebhook({
          headers: referenceHeaders,
          body,
          secrets: [otherSecret, generateWebhookSecret()],
          now: atTimestamp,
        }),
        'bad-signature',
      );
    });
  });

  describe('bad-secret', () => {
    it.each([
      ['not base64', 'whsec_not base64!'],
      ['url-safe base64', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa-_'],
      ['empty after the prefix', 'whsec_'],
      ['empty', ''],
    ])('rejects a secret that is %s', async (_label, badSecret) => {
      await expectReason(
        verifyWebhook({ headers: referenceHeaders, body, secrets: [badSecret], now: atTimestamp }),
        'bad-secret',
      );
    });

    it('rejects a bad secret even next to a good one', async () => {
      await expectReason(
        verifyWebhook({
          headers: referenceHeaders,
          body,
          secrets: [secret, 'whsec_%%%'],
          now: atTimestamp,
        }),
        'bad-secret',
      );
    });

    it('rejects an empty list of secrets', async () => {
      await expectReason(
        verifyWebhook({ headers: referenceHeaders, body, secrets: [], now: atTimestamp }),
        'bad-secret',
      );
    });
  });

  it('never puts the secret in an error message', async () => {
    const base64 = secret.slice('whsec_'.length);
    const badSecret = 'whsec_SECRET-VALUE!';
    const failures: [() => Promise<unknown>, string][] = [
      [() => verifyWebhook({ headers: {}, body, secrets: [secret], now: atTimestamp }), secret],
      [
        () =>
          verifyWebhook({
            headers: { ...referenceHeaders, 'webhook-timestamp': 'x' },
            body,
            secrets: [secret],
            now: atTimestamp,
          }),
        secret,
      ],
      [
        () => verifyWebhook({ headers: referenceHeaders, body, secrets: [secret], now: () => 0 }),
        secret,
      ],
      [
        () =>
          verifyWebhook({
            headers: referenceHeaders,
            body,
            secrets: [secret],
            now: () => (timestamp + 10_000) * 1000,
          }),
        secret,
      ],
      [
        () =>
          verifyWebhook({
            headers: referenceHeaders,
            body: 'tampered',
            secrets: [secret],
            now: atTimestamp,
          }),
        secret,
      ],
      [
        () =>
          verifyWebhook({
            headers: referenceHeaders,
            body,
            secrets: [badSecret],
            now: atTimestamp,
          }),
        badSecret,
      ],
    ];
    const reasons = new Set<string>();
    for (const [failure, usedSecret] of failures) {
      const error = await rejection(failure());
      reasons.add(error.reason);
      expect(error.message).not.toContain(usedSecret);
      expect(error.message).not.toContain(usedSecret.slice('whsec_'.length));
      expect(error.message).not.toContain(base64);
      expect(error.message.length).toBeGreaterThan(0);
    }
    expect(reasons).toEqual(
      new Set([
        'missing-headers',
        'bad-timestamp',
        'too-old',
        'too-new',
        'bad-signature',
        'bad-secret',
      ]),
    );
  });
});
