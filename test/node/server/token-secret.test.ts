// tokenSecret (issue 21, item 4): several secrets while rotating, the first signs and all verify,
// so open checkouts survive a new secret and a removed one opens nothing; clear errors for bad
// secrets; under NODE_ENV=production no start without one. Two companions share one store and
// one sandbox, as two deploys of the same shop would, one before the rotation and one after.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxHandler, SANDBOX_TEST_KEY } from '../../../src/sandbox';
import {
  type CheckoutHandlerOptions,
  type CheckoutStore,
  createCheckoutHandler,
  createMemoryStore,
} from '../../../src/server';
import { createTokenSigner } from '../../../src/server/checkout/token';

const OLD = `old-token-secret-${'o'.repeat(24)}`;
const NEW = `new-token-secret-${'n'.repeat(24)}`;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.unstubAllEnvs();
});

const sandbox = createSandboxHandler({ secretKey: SANDBOX_TEST_KEY, basePath: '/sandbox' });
afterAll(() => sandbox.close());

function options(extra: Partial<CheckoutHandlerOptions> = {}): CheckoutHandlerOptions {
  return {
    secretKey: SANDBOX_TEST_KEY,
    baseUrl: 'http://sandbox.test/sandbox',
    resolveOrder: (id) =>
      id.startsWith('order_')
        ? { amountMinor: 2_500_050, currency: 'NGN', description: `Order ${id}` }
        : null,
    logger: { warn: () => {}, error: () => {} },
    fetch: (input, init) => sandbox(new Request(input, init)),
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
type Answer = { status: number; body: any };

function companion(tokenSecret: string | readonly string[], store: CheckoutStore) {
  const handler = createCheckoutHandler(options({ tokenSecret, store }));
  cleanups.push(() => handler.close());
  return async (
    method: string,
    path: string,
    init: { body?: unknown; token?: string } = {},
  ): Promise<Answer> => {
    const answer = await handler(
      new Request(`http://shop.test/api/checkout${path}`, {
        method,
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      }),
    );
    return { status: answer.status, body: await answer.json() };
  };
}

describe('rotating tokenSecret', () => {
  it('keeps open checkouts (their tokens and payment keys) while the old secret is listed, and ends them once it is removed', async () => {
    const store = createMemoryStore();
    const oldDeploy = companion(OLD, store);
    const session = await oldDeploy('POST', '/session', { body: { order: 'order_7' } });
    const initiated = await oldDeploy('POST', '/initiate', {
      token: session.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(initiated.status).toBe(200);
    const { token, paymentKey } = initiated.body;
    const account = initiated.body.payment.virtualAccount.accountNumber;

    // The new deploy: the new secret first, the old one still verifying.
    const rotated = companion([NEW, OLD], store);
    const status = await rotated('GET', '/status', { token });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('PENDING');
    const reopened = await rotated('POST', '/session', {
      body: { order: 'order_7', paymentKeys: [paymentKey] },
    });
    expect(reopened.body.payment.virtualAccount.accountNumber).toBe(account);
    // What it signs now is the new secret's: the old deploy (OLD alone) does not take it.
    const fresh = await rotated('POST', '/session', { body: { order: 'order_8' } });
    const freshInitiated = await rotated('POST', '/initiate', {
      token: fresh.body.token,
      body: { channel: 'PayByTransfer' },
    });
    expect(freshInitiated.status).toBe(200);
    expect((await oldDeploy('GET', '/status', { token: freshInitiated.body.token })).status).toBe(
      401,
    );
    const newOnly = companion([NEW], store);
    expect((await newOnly('GET', '/status', { token: freshInitiated.body.token })).status).toBe(
      200,
    );

    // Once the old secret is gone, what it signed opens nothing.
    const refused = await newOnly('GET', '/status', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    const stranger = await newOnly('POST', '/session', {
      body: { order: 'order_7', paymentKeys: [paymentKey] },
    });
    expect(stranger.status).toBe(200);
    expect(stranger.body.payment).toBeNull();
  });

  it('the signer: the first secret signs, every one verifies, a removed one is a bad signature', () => {
    const claims = {
      sid: 's',
      orderId: 'o',
      linkAlias: null,
      amountMinor: 1,
      currency: 'NGN',
      description: '',
      channels: [],
      origin: null,
      exp: 2_000_000_000,
    } as const;
    const old = createTokenSigner(OLD).sign(claims);
    const rotated = createTokenSigner([NEW, OLD]);
    expect(rotated.verify(old, 1).ok).toBe(true);
    const signedNow = rotated.sign(claims);
    expect(createTokenSigner(NEW).verify(signedNow, 1).ok).toBe(true);
    expect(createTokenSigner(OLD).verify(signedNow, 1)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(createTokenSigner([NEW]).verify(old, 1)).toEqual({ ok: false, reason: 'bad-signature' });
  });
});

describe('tokenSecret is checked at start-up', () => {
  it.each([
    [[], /tokenSecret is an empty array/],
    ['too-short', /tokenSecret is 9 characters long; a token secret needs at least 32/],
    [[NEW, 'short'], /tokenSecret\[1\] is 5 characters long/],
    [[NEW, 42], /tokenSecret\[1\] must be a string/],
    [42, /tokenSecret must be a string, or an array of strings/],
    [{ secret: NEW }, /tokenSecret must be a string, or an array of strings/],
  ])('refuses %j', (tokenSecret, message) => {
    expect(() =>
      createCheckoutHandler(options({ tokenSecret: tokenSecret as unknown as string })),
    ).toThrow(message);
  });

  it('never quotes a secret in its error', () => {
    const secret = 'the-secret-itself';
    let message = '';
    try {
      createCheckoutHandler(options({ tokenSecret: [NEW, secret] }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/tokenSecret\[1\]/);
    expect(message).not.toContain(secret);
  });

  it('under NODE_ENV=production refuses to start without tokenSecret, naming it, instead of deriving it from the provider key', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const store = createMemoryStore();
    expect(() => createCheckoutHandler(options({ store }))).toThrow(TypeError);
    expect(() => createCheckoutHandler(options({ store }))).toThrow(
      /tokenSecret is required under NODE_ENV=production/,
    );
    const handler = createCheckoutHandler(options({ store, tokenSecret: NEW }));
    handler.close();
  });

  it('outside production, without tokenSecret, it still starts (the secret derived from the provider key)', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const call = companion(undefined as unknown as string, createMemoryStore());
    expect((await call('POST', '/session', { body: { order: 'order_9' } })).status).toBe(200);
  });
});
