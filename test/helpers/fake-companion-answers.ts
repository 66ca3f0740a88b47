/**
 * Builders for the companion's answers, as the fake companion (fake-companion.ts) hands them out:
 * ordinary values a test overrides only where its case differs.
 */
import type {
  ChannelChoice,
  PaymentView,
  SessionView,
  VirtualAccountView,
} from '../../src/flow/companion';
import type { Channel } from '../../src/protocol';

/** Server time of every built answer: an arbitrary fixed instant, unrelated to the test's clock. */
export const SERVER_NOW = Date.parse('2025-03-01T10:00:00Z');
export const THIRTY_MINUTES = 30 * 60_000;

/** A status answer that is still pending, without the server's time. */
export const PENDING = { status: 'PENDING', serverTime: null } as const;

export function virtualAccount(overrides: Partial<VirtualAccountView> = {}): VirtualAccountView {
  return {
    bank: 'Wema Bank',
    accountNumber: '0123456789',
    accountName: 'Paydrop / Amina Stores',
    note: 'Pay exactly the amount shown',
    expiresAt: SERVER_NOW + THIRTY_MINUTES,
    ...overrides,
  };
}

/** A transfer payment as initiation returns it: an account to pay into. */
export function paymentView(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    reference: 'ref_0001',
    channel: 'PayByTransfer',
    status: 'PENDING',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    fees: { amountMinor: 0, currency: 'NGN' },
    virtualAccount: virtualAccount(),
    bankAuthUrl: null,
    serverTime: SERVER_NOW,
    ...overrides,
  };
}

/** A PayByAccount payment: a link to the bank, no account to pay into. */
export function bankPayment(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView({
    reference: 'PAY-BANK-1',
    channel: 'PayByAccount',
    virtualAccount: null,
    bankAuthUrl: 'https://bank.example/authorize?request=abc',
    ...overrides,
  });
}

/** A card payment as initiation returns it. */
export function cardPayment(overrides: Partial<PaymentView> = {}): PaymentView {
  return paymentView({
    reference: 'PAY-CARD-1',
    channel: 'Card',
    virtualAccount: null,
    bankAuthUrl: null,
    ...overrides,
  });
}

export function sessionView(overrides: Partial<SessionView> = {}): SessionView {
  return {
    token: 'session-token',
    amount: { amountMinor: 2_500_050, currency: 'NGN' },
    description: 'Order 1042 — Amina Stores',
    channels: [{ name: 'PayByTransfer', description: null }],
    payment: null,
    ...overrides,
  };
}

export function channels(...names: Channel[]): ChannelChoice[] {
  return names.map((name) => ({ name, description: null }));
}

/**
 * The companion's JSON for POST /authenticate, as it is on the wire: a challenge page at
 * `challengeUrl`, or none needed.
 */
export function authentication(challengeUrl: string | null) {
  return challengeUrl === null
    ? { authenticationRequired: false, challengeUrl: null }
    : { authenticationRequired: true, challengeUrl };
}
