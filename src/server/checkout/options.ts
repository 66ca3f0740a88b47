/**
 * The companion's options, checked once at start-up: a missing key or provider URL is a clear
 * error when the merchant's server boots, not a 500 when a customer pays. The option types are in
 * handler-options.ts; named here too, as every checkout file has always found them.
 */
import { CHANNELS, isKnownCurrency } from '../../protocol';
import type { CardEntry } from '../../protocol/contract';
import { checkBaseUrl, checkSecretKey } from '../../provider/transport';
import { checkClientAddressOptions } from '../http';
import { type CheckoutStore, isMemoryStore } from '../store';
import type { CheckoutHandlerOptions, ResolvedOrder } from './handler-options';
import { checkMerchant } from './merchant';

export type {
  CardEntry,
  CheckoutHandlerOptions,
  CheckoutLogger,
  PaymentOutcome,
  PayoutOutcome,
  ResolvedOrder,
} from './handler-options';

const CARD_ENTRIES: readonly CardEntry[] = ['hosted', 'direct'];

export function checkOptions(options: CheckoutHandlerOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createCheckoutHandler needs an options object.');
  }
  checkSecretKey(options.secretKey);
  checkBaseUrl('baseUrl', options.baseUrl);
  tokenSecretsOf(options);
  if (options.listBaseUrl !== undefined) checkBaseUrl('listBaseUrl', options.listBaseUrl);
  if (typeof options.resolveOrder !== 'function') {
    throw new TypeError(
      'resolveOrder is required: it turns an order id into the amount you decided.',
    );
  }
  if (options.resolveLink !== undefined && typeof options.resolveLink !== 'function') {
    throw new TypeError('resolveLink must be a function when given.');
  }
  if (options.basePath !== undefined && !/^\/[\w\-./]*$/.test(options.basePath)) {
    throw new TypeError(`basePath must be a path starting with "/", not "${options.basePath}".`);
  }
  if (options.publicUrl !== undefined) checkBaseUrl('publicUrl', options.publicUrl);
  for (const origin of options.allowedOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new TypeError(
        `allowedOrigins holds "${origin}", which is not an origin such as https://shop.example.`,
      );
    }
  }
  checkCardEntry(options.cardEntry, 'cardEntry');
  checkMerchant(options.merchant);
  const ttl = options.tokenTtlSeconds;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 60 || ttl > 7 * 24 * 3600)) {
    throw new TypeError('tokenTtlSeconds must be a whole number of seconds from 60 to 604800.');
  }
  const cacheMs = options.validationCacheMs;
  if (cacheMs !== undefined && (!Number.isInteger(cacheMs) || cacheMs < 0 || cacheMs > 3_600_000)) {
    throw new TypeError(
      'validationCacheMs must be a whole number of ms from 0 (no cache) to 3600000 (an hour).',
    );
  }
  const streams = options.maxEventStreamsPerCheckout;
  if (streams !== undefined && (!Number.isInteger(streams) || streams < 1 || streams > 1000)) {
    throw new TypeError('maxEventStreamsPerCheckout must be a whole number from 1 to 1000.');
  }
  checkStore(options.store);
  checkDueWork(options);
  checkClientAddressOptions(options);
  if (options.beforeCardAttempt !== undefined && typeof options.beforeCardAttempt !== 'function')
    throw new TypeError('beforeCardAttempt must be a function when given.');
}

/** The shortest tokenSecret taken: 32 characters, 192 bits or more of base64. */
const MIN_TOKEN_SECRET_LENGTH = 32;

/**
 * The token secrets, newest (the signing one) first: `tokenSecret` checked, or, outside
 * production, the provider key (issue 21, item 4: rotating that key then ends every open checkout,
 * which production must not be left to find out).
 */
export function tokenSecretsOf(
  options: Pick<CheckoutHandlerOptions, 'tokenSecret' | 'secretKey'>,
): readonly string[] {
  const given = options.tokenSecret;
  if (given === undefined) {
    if (isProduction()) {
      throw new TypeError(
        'tokenSecret is required under NODE_ENV=production: without it checkout tokens are signed with a key derived from secretKey, so rotating the provider key would end every open checkout. Give a random secret of at least 32 characters (`openssl rand -base64 32`), e.g. tokenSecret: process.env.TOKEN_SECRET.',
      );
    }
    return [options.secretKey];
  }
  const secrets: readonly unknown[] = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(secrets) && typeof given !== 'string') {
    throw new TypeError(
      'tokenSecret must be a string, or an array of strings while rotating (the first signs, all verify).',
    );
  }
  if (secrets.length === 0) {
    throw new TypeError(
      'tokenSecret is an empty array: give at least one secret (the first signs new tokens; the others, older ones, still verify tokens signed before a rotation).',
    );
  }
  secrets.forEach((secret, index) => {
    const what = typeof given === 'string' ? 'tokenSecret' : `tokenSecret[${index}]`;
    if (typeof secret !== 'string') throw new TypeError(`${what} must be a string.`);
    if (secret.length < MIN_TOKEN_SECRET_LENGTH) {
      throw new TypeError(
        `${what} is ${secret.length} characters long; a token secret needs at least ${MIN_TOKEN_SECRET_LENGTH} (\`openssl rand -base64 32\`).`,
      );
    }
  });
  return secrets as readonly string[];
}

function isProduction(): boolean {
  return typeof process !== 'undefined' && process.env?.NODE_ENV === 'production';
}

function checkCardEntry(value: unknown, what: string): void {
  if (value !== undefined && !(CARD_ENTRIES as readonly unknown[]).includes(value)) {
    throw new TypeError(
      `${what} must be 'hosted' (the provider's payment page) or 'direct' (the card frame), not ${JSON.stringify(value)}.`,
    );
  }
}

const STORE_METHODS = ['get', 'set', 'add', 'append', 'read', 'subscribe', 'schedule', 'claim'];

/**
 * In memory, pending confirmations and outcomes already reported are forgotten on a restart and
 * are not shared between instances (issue 10), so production names its store; passing
 * createMemoryStore() says the merchant knows.
 */
function checkStore(store: CheckoutStore | undefined): void {
  if (store === undefined) {
    if (isProduction()) {
      throw new TypeError(
        "store is required under NODE_ENV=production, or outcomes are lost on a restart: createSqliteStore({ path }) from 'paydrop/server/sqlite' for one instance, createPostgresStore({ url }) from 'paydrop/server/postgres' (recommended) or createRedisStore({ url }) from 'paydrop/server/redis' for several (createMemoryStore() only if losing them is fine).",
      );
    }
    return;
  }
  const methods = store as unknown as Record<string, unknown>;
  if (
    typeof store !== 'object' ||
    store === null ||
    STORE_METHODS.some((name) => typeof methods[name] !== 'function')
  ) {
    throw new TypeError(
      'store must be a CheckoutStore: createSqliteStore, createPostgresStore, createRedisStore or createMemoryStore.',
    );
  }
}

/**
 * Without polling the handler lives one invocation at a time: on the memory store, every one
 * starts empty, and pending confirmations, outcomes already reported and event logs are gone.
 */
function checkDueWork(options: CheckoutHandlerOptions): void {
  const { pollDueWork, waitUntil } = options;
  if (pollDueWork !== undefined && typeof pollDueWork !== 'boolean')
    throw new TypeError('pollDueWork must be true or false when given.');
  if (waitUntil !== undefined && typeof waitUntil !== 'function')
    throw new TypeError(
      'waitUntil must be a function (work: Promise<unknown>) => void when given.',
    );
  if (pollDueWork === false && isProduction() && options.store && isMemoryStore(options.store)) {
    throw new TypeError(
      "pollDueWork: false (serverless) cannot use the memory store under NODE_ENV=production: each invocation starts with an empty memory, so pending confirmations, outcomes already reported and payments' event logs are lost between invocations. Use a store over the network: createRedisStore({ url }) from 'paydrop/server/redis' or the PostgreSQL store from 'paydrop/server/postgres' (a SQLite file does not outlive a serverless instance either).",
    );
  }
}

/** The merchant's resolveOrder answer is checked like any other input: a bug there is not a charge. */
export function checkResolvedOrder(value: unknown, what: string): ResolvedOrder {
  const order = value as ResolvedOrder;
  if (
    typeof order !== 'object' ||
    order === null ||
    !Number.isSafeInteger(order.amountMinor) ||
    order.amountMinor <= 0 ||
    typeof order.currency !== 'string' ||
    !isKnownCurrency(order.currency) ||
    typeof order.description !== 'string' ||
    (order.channels !== undefined &&
      (!Array.isArray(order.channels) ||
        !order.channels.every((name) => (CHANNELS as readonly string[]).includes(name)))) ||
    (order.paid !== undefined && typeof order.paid !== 'boolean') ||
    (order.cardEntry !== undefined &&
      !(CARD_ENTRIES as readonly unknown[]).includes(order.cardEntry))
  ) {
    throw new TypeError(
      `${what} must return { amountMinor: a whole number above 0, currency: a supported ISO code, description: string, channels?: some of ${CHANNELS.join(', ')}, paid?: boolean, cardEntry?: 'hosted' | 'direct' } or null.`,
    );
  }
  return {
    amountMinor: order.amountMinor,
    currency: order.currency,
    description: order.description.slice(0, 200),
    ...(order.channels ? { channels: [...order.channels] } : {}),
    ...(order.paid ? { paid: true } : {}),
    ...(order.cardEntry ? { cardEntry: order.cardEntry } : {}),
  };
}
