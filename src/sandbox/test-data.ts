/**
 * Test data that is the same in every sandbox and listed in docs/sandbox.md, so that merchants' own
 * tests and ours can rely on it.
 */

/** The key a sandbox uses when none is given (`SANDBOX_SECRET_KEY`, `createSandbox({ secretKey })`). */
export const SANDBOX_TEST_KEY = 'sk_test_paydrop_sandbox';

/** What a test card number does when the payment is finalized. */
export type CardBehaviour = 'success' | 'challenge' | 'declined' | 'insufficient-funds' | 'expired';

/** Any future expiry and any CVC; any other Luhn-valid number behaves like `success`. */
export const TEST_CARDS: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': 'success',
  '4000000000003220': 'challenge',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient-funds',
  '4000000000000069': 'expired',
};

/** The one-time code that passes the card challenge; any other fails it. */
export const CHALLENGE_PASS_CODE = '123456';

/** A payout to this beneficiary account number fails (invalid account); any other completes. */
export const FAILING_ACCOUNT_NUMBER = '0000000000';

/** Each wallet's balance in minor units when a sandbox starts or is reset. */
export const STARTING_WALLETS: Readonly<Record<string, number>> = {
  NGN: 1_000_000_000,
  GBP: 10_000_000,
  USD: 10_000_000,
};

/** Payout routing field and beneficiary fields per currency (endpoint 7). */
export const PAYOUT_REQUIREMENTS = {
  NGN: { name: 'BankCode', country: 'NG', pattern: /^\d{3,6}$/, hint: '3 to 6 digits' },
  GBP: { name: 'SortCode', country: 'GB', pattern: /^\d{2}-?\d{2}-?\d{2}$/, hint: '6 digits' },
  USD: { name: 'RoutingNumber', country: 'US', pattern: /^\d{9}$/, hint: '9 digits' },
} as const;

/** After bank approval, or after a payout's acceptance, settlement comes this much later. */
export const SETTLEMENT_DELAY_MS = 1000;

/** Largest amount on initiation and on a link, in major units (provider limit not shown). */
export const MAX_PAYMENT_MAJOR = 100_000_000;

/** More status queries than this for one reference within one second get 429. */
export const STATUS_QUERIES_PER_SECOND = 5;
