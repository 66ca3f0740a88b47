/**
 * Card in the sandbox: the test card's behaviour decides (test-data.ts TEST_CARDS); a challenge
 * card waits for its one-time code (pages.ts here), then the card is finalized (endpoint 5).
 * The hosted payment-link page, which takes cards, is link-pages.ts here.
 */

import type { PaymentRecord } from '../../records';
import { SandboxRefusal } from '../../refusal';
import type { PaymentMoves, SandboxChannel } from '../channel';

export const card: SandboxChannel = {
  id: '6a3e1c2b-0f4d-4b8e-9a51-2d7c3f9e1a03',
  currencies: ['NGN', 'GBP', 'USD'],
  description: 'Pay by debit or credit card.',
  takesCard: true,
  refusals: (input) => (input.card ? [] : ['card is required for Card payments.']),
  open(record) {
    record.challenge = record.card?.behaviour === 'challenge' ? 'required' : 'not-needed';
    record.stage = 'awaiting-authentication';
  },
  authUrl: () => null,
  initiated: () => ({
    paymentStatus: 'PENDING',
    message: 'Check whether the card needs authentication, then finalize.',
  }),
};

/** The cardholder submits the one-time code on the challenge page. */
export function challengeCompleted(
  record: PaymentRecord,
  passed: boolean,
  moves: PaymentMoves,
): PaymentRecord {
  const { reference } = record;
  if (record.channel !== 'Card' || record.challenge === 'not-needed') {
    throw new SandboxRefusal(409, `Payment ${reference} has no card challenge.`);
  }
  if (record.challenge !== 'required') {
    throw new SandboxRefusal(409, `The challenge of payment ${reference} is already over.`);
  }
  record.challenge = passed ? 'passed' : 'failed';
  record.updatedAt = moves.now();
  if (passed) record.stage = 'ready-to-finalize';
  else moves.settle(record, 'FAILED', 'The cardholder failed authentication.');
  return record;
}

/** The authentication check (endpoint 4) has been made: a card without challenge may finalize. */
export function authenticationChecked(record: PaymentRecord): PaymentRecord {
  if (record.channel !== 'Card') {
    throw new SandboxRefusal(409, `Payment ${record.reference} is not a card payment.`);
  }
  if (record.stage === 'awaiting-authentication' && record.challenge === 'not-needed') {
    record.stage = 'ready-to-finalize';
  }
  return record;
}

/** Endpoint 5: a card payment is charged here; other channels report where they stand. */
export function cardFinalized(record: PaymentRecord, moves: PaymentMoves): PaymentRecord {
  if (record.channel !== 'Card' || record.status !== 'PENDING') return record;
  if (record.challenge === 'required' || record.stage === 'awaiting-authentication') {
    throw new SandboxRefusal(
      409,
      `Payment ${record.reference} cannot be finalized before its authentication is complete.`,
    );
  }
  const behaviour = record.card?.behaviour ?? 'success';
  if (behaviour === 'declined') moves.settle(record, 'FAILED', 'The card was declined.');
  else if (behaviour === 'insufficient-funds') {
    moves.settle(record, 'FAILED', 'The card has insufficient funds.');
  } else if (behaviour === 'expired') moves.settle(record, 'FAILED', 'The card has expired.');
  else moves.settle(record, 'SUCCESSFUL', null);
  return record;
}
