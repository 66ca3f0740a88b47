// Payout states as provider-api.md draws them ("Payout states"): Pending → Completed or Failed,
// Completed → Reversed; Completed, Failed and Reversed are terminal. Whatever order webhooks come
// in, the moves reported to the merchant must follow that graph and nothing else.
import { describe, expect, it } from 'vitest';
import type { PayoutStatus } from '../../../src/protocol';
import { payoutMoves } from '../../../src/provider/payout-state';

const KNOWN: ReadonlyArray<PayoutStatus | null> = [
  null,
  'Pending',
  'Completed',
  'Failed',
  'Reversed',
];
const CONFIRMED: readonly PayoutStatus[] = ['Pending', 'Completed', 'Failed', 'Reversed'];

/** The only edges of provider-api.md's payout table. */
const EDGES = new Set(['Pending→Completed', 'Pending→Failed', 'Completed→Reversed']);

/** Every (known, confirmed) pair and the moves a merchant must see, in order. */
const EXPECTED: ReadonlyArray<[PayoutStatus | null, PayoutStatus, PayoutStatus[]]> = [
  [null, 'Pending', []],
  [null, 'Completed', ['Completed']],
  [null, 'Failed', ['Failed']],
  [null, 'Reversed', ['Completed', 'Reversed']],
  ['Pending', 'Pending', []],
  ['Pending', 'Completed', ['Completed']],
  ['Pending', 'Failed', ['Failed']],
  ['Pending', 'Reversed', ['Completed', 'Reversed']],
  ['Completed', 'Pending', []],
  ['Completed', 'Completed', []],
  ['Completed', 'Failed', []],
  ['Completed', 'Reversed', ['Reversed']],
  ['Failed', 'Pending', []],
  ['Failed', 'Completed', []],
  ['Failed', 'Failed', []],
  ['Failed', 'Reversed', []],
  ['Reversed', 'Pending', []],
  ['Reversed', 'Completed', []],
  ['Reversed', 'Failed', []],
  ['Reversed', 'Reversed', []],
];

describe('payoutMoves', () => {
  it('the table covers every pair of known × confirmed', () => {
    const pairs = new Set(EXPECTED.map(([known, confirmed]) => `${known}|${confirmed}`));
    expect(pairs.size).toBe(KNOWN.length * CONFIRMED.length);
  });

  it.each(EXPECTED)('known %s, provider confirms %s → %j', (known, confirmed, moves) => {
    expect(payoutMoves(known, confirmed)).toEqual(moves);
  });

  it('every reported sequence walks only the edges of provider-api.md, from where we stood', () => {
    for (const known of KNOWN) {
      for (const confirmed of CONFIRMED) {
        let at: PayoutStatus = known ?? 'Pending';
        for (const next of payoutMoves(known, confirmed)) {
          expect(EDGES.has(`${at}→${next}`), `${known} + ${confirmed}: ${at}→${next}`).toBe(true);
          at = next;
        }
      }
    }
  });

  it('a non-empty sequence always ends at what the provider confirmed', () => {
    for (const known of KNOWN) {
      for (const confirmed of CONFIRMED) {
        const moves = payoutMoves(known, confirmed);
        if (moves.length > 0) expect(moves.at(-1)).toBe(confirmed);
      }
    }
  });

  it('Pending → Reversed reports the Completed it implies first', () => {
    expect(payoutMoves('Pending', 'Reversed')).toEqual(['Completed', 'Reversed']);
    expect(payoutMoves(null, 'Reversed')).toEqual(['Completed', 'Reversed']);
  });

  it('nothing moves out of Failed or Reversed', () => {
    for (const confirmed of CONFIRMED) {
      expect(payoutMoves('Failed', confirmed)).toEqual([]);
      expect(payoutMoves('Reversed', confirmed)).toEqual([]);
    }
  });

  it('Completed never goes back to Pending, nor over to Failed', () => {
    expect(payoutMoves('Completed', 'Pending')).toEqual([]);
    expect(payoutMoves('Completed', 'Failed')).toEqual([]);
  });

  it('does not hand out a shared array a caller could mutate into the next answer', () => {
    const first = payoutMoves('Pending', 'Reversed');
    first.pop();
    expect(payoutMoves('Pending', 'Reversed')).toEqual(['Completed', 'Reversed']);
  });
});
