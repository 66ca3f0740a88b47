import { describe, expect, it } from 'vitest';
import {
  type ChallengeMessageSource,
  isChallengeCompletion,
} from '../../src/widget/channels/card/challenge-message';

const ORIGIN = 'https://companion.example';
const REFERENCE = 'PAY-CARD-1';
/** Stands for the challenge frame's window: only this very object is the frame. */
const frame = { name: 'challenge-frame-window' };

const expected = { origin: ORIGIN, frame, reference: REFERENCE };

function completion(outcome: unknown = 'passed'): Record<string, unknown> {
  return { type: 'paydrop:challenge-completed', reference: REFERENCE, outcome };
}

function event(overrides: Partial<ChallengeMessageSource> = {}): ChallengeMessageSource {
  return { origin: ORIGIN, source: frame, data: completion(), ...overrides };
}

describe('isChallengeCompletion', () => {
  it.each(['passed', 'failed'])('accepts the completion with outcome %s', (outcome) => {
    expect(isChallengeCompletion(event({ data: completion(outcome) }), expected)).toBe(true);
  });

  it('refuses an array carrying the right properties', () => {
    const data = Object.assign([], completion());
    expect(isChallengeCompletion(event({ data }), expected)).toBe(false);
  });

  it('accepts a message with extra fields', () => {
    const data = { ...completion(), sentAt: 12345 };
    expect(isChallengeCompletion(event({ data }), expected)).toBe(true);
  });

  it.each([
    ['another origin', 'https://evil.example'],
    ['the opaque origin', 'null'],
    ['the same host over http', 'http://companion.example'],
    ['another port', 'https://companion.example:8443'],
    ['a subdomain', 'https://pay.companion.example'],
    ['a trailing slash', 'https://companion.example/'],
    ['an empty origin', ''],
  ])('refuses a message from %s', (_, origin) => {
    expect(isChallengeCompletion(event({ origin }), expected)).toBe(false);
  });

  it.each([
    ['another window', { name: 'challenge-frame-window' }],
    ['no source', null],
    ['an undefined source', undefined],
  ])('refuses a message from %s', (_, source) => {
    expect(isChallengeCompletion(event({ source }), expected)).toBe(false);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
  ])('refuses anything while the frame is %s, even from a matching source', (_, missing) => {
    expect(isChallengeCompletion(event({ source: missing }), { ...expected, frame: missing })).toBe(
      false,
    );
  });

  it.each<[string, unknown]>([
    ['null data', null],
    ['undefined data', undefined],
    ['a string', 'paydrop:challenge-completed'],
    ['a JSON string', JSON.stringify(completion())],
    ['a number', 1],
    ['an array', ['paydrop:challenge-completed', REFERENCE, 'passed']],
    ['an empty object', {}],
    ['no type', { reference: REFERENCE, outcome: 'passed' }],
    ['another type', { ...completion(), type: 'paydrop:challenge-started' }],
    ['a type in capitals', { ...completion(), type: 'PAYDROP:CHALLENGE-COMPLETED' }],
    ['no reference', { type: 'paydrop:challenge-completed', outcome: 'passed' }],
    ['another reference', { ...completion(), reference: 'PAY-CARD-2' }],
    ['a reference prefix', { ...completion(), reference: 'PAY-CARD' }],
    ['the reference as an array', { ...completion(), reference: [REFERENCE] }],
    ['no outcome', { type: 'paydrop:challenge-completed', reference: REFERENCE }],
    ['an unknown outcome', completion('succeeded')],
    ['an outcome in capitals', completion('PASSED')],
    ['a boolean outcome', completion(true)],
  ])('refuses %s', (_, data) => {
    expect(isChallengeCompletion(event({ data }), expected)).toBe(false);
  });
});
