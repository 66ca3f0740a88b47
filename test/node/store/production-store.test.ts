/**
 * Under NODE_ENV=production the companion refuses to start on memory it was not given on
 * purpose: a restart there forgets pending confirmations and outcomes already reported.
 */
import { afterEach, expect, it } from 'vitest';
import { SANDBOX_TEST_KEY } from '../../../src/sandbox';
import { createCheckoutHandler, createMemoryStore } from '../../../src/server';

const options = {
  secretKey: SANDBOX_TEST_KEY,
  baseUrl: 'http://provider.invalid',
  resolveOrder: () => null,
  // Production also wants a token secret of its own (token-secret.test.ts).
  tokenSecret: 'production-store-test-token-secret-0123456789',
  logger: { warn: () => {}, error: () => {} },
};
const environment = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = environment;
});

it('throws at start-up without a store under NODE_ENV=production, naming the durable stores', () => {
  process.env.NODE_ENV = 'production';
  expect(() => createCheckoutHandler(options)).toThrow(TypeError);
  expect(() => createCheckoutHandler(options)).toThrow(
    /createSqliteStore\(\{ path \}\) from 'paydrop\/server\/sqlite'.*createPostgresStore\(\{ url \}\) from 'paydrop\/server\/postgres'.*createRedisStore\(\{ url \}\) from 'paydrop\/server\/redis'/,
  );
});

it('starts on memory passed on purpose in production, and on its default elsewhere', () => {
  process.env.NODE_ENV = 'production';
  createCheckoutHandler({ ...options, store: createMemoryStore() }).close();
  process.env.NODE_ENV = 'development';
  createCheckoutHandler(options).close();
});

it('refuses a store that is not one', () => {
  expect(() => createCheckoutHandler({ ...options, store: {} as never })).toThrow(
    /store must be a CheckoutStore/,
  );
});
