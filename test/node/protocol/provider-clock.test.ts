/**
 * The provider's now, measured from the `Date` of its answers (issue 12, item 3): the arithmetic
 * of the offset, and what a missing or nonsensical header does (nothing: what was known stands).
 */
import { describe, expect, it } from 'vitest';
import {
  createProviderClock,
  narrowBounds,
  offsetBounds,
  offsetOf,
} from '../../../src/protocol/provider-clock';

const T = Date.parse('2025-07-01T10:00:00.000Z');
const http = (ms: number) => new Date(ms).toUTCString();

describe('offsetBounds', () => {
  it('bounds the offset by the whole second of Date and the time the answer took', () => {
    // Sent at T, received 200 ms later; the provider wrote 10:31:00 (its clock 31 min ahead).
    expect(offsetBounds(http(T + 31 * 60_000), T, T + 200)).toEqual({
      low: 31 * 60_000 - 200,
      high: 31 * 60_000 + 1000,
    });
  });

  it('reads a provider behind us as a negative offset', () => {
    expect(offsetBounds(http(T - 5000), T, T)).toEqual({ low: -5000, high: -4000 });
  });

  it('says nothing for a missing, empty or nonsensical header', () => {
    expect(offsetBounds(null, T, T)).toBeNull();
    expect(offsetBounds(undefined, T, T)).toBeNull();
    expect(offsetBounds('', T, T)).toBeNull();
    expect(offsetBounds('yesterday-ish', T, T)).toBeNull();
    expect(offsetBounds(http(T), Number.NaN, T)).toBeNull();
  });

  it('takes sending and receiving in either order', () => {
    expect(offsetBounds(http(T), T + 100, T)).toEqual(offsetBounds(http(T), T, T + 100));
  });
});

describe('narrowBounds and offsetOf', () => {
  it('intersects samples that agree, down to a few ms', () => {
    let known = narrowBounds(null, { low: -200, high: 1000 });
    known = narrowBounds(known, { low: 600, high: 1700 });
    known = narrowBounds(known, { low: -1000, high: 700 });
    expect(known).toEqual({ low: 600, high: 700 });
    // The highest offset they allow: a countdown never shows more time than is left.
    expect(offsetOf(known)).toBe(700);
  });

  it('starts again from a sample that disagrees (the provider clock moved)', () => {
    const known = narrowBounds({ low: 600, high: 700 }, { low: 1_860_000, high: 1_861_200 });
    expect(known).toEqual({ low: 1_860_000, high: 1_861_200 });
    expect(offsetOf(known)).toBe(1_861_200);
  });

  it('is 0 when nothing is known', () => {
    expect(offsetOf(null)).toBe(0);
  });
});

describe('createProviderClock', () => {
  it("is our clock until an answer says otherwise, then the provider's", () => {
    let now = T;
    const clock = createProviderClock(() => now);
    expect(clock.now()).toBe(T);
    // The provider is 31 minutes ahead; its answer took 100 ms.
    clock.observe(http(T + 31 * 60_000 + 50), T, T + 100);
    expect(Math.abs(clock.offset() - 31 * 60_000)).toBeLessThanOrEqual(1000);
    now = T + 60_000;
    expect(Math.abs(clock.now() - (T + 60_000 + 31 * 60_000))).toBeLessThanOrEqual(1000);
  });

  it('keeps what it knew when an answer has no Date, or a bad one', () => {
    const clock = createProviderClock(() => T);
    clock.observe(http(T + 3_600_000), T, T);
    const before = clock.offset();
    clock.observe(null, T, T);
    clock.observe('Thu, 99 Foo 2025 99:99:99 GMT', T, T);
    expect(clock.offset()).toBe(before);
  });

  it('tracks a provider whose clock is moved forward later', () => {
    const clock = createProviderClock(() => T);
    clock.observe(http(T), T, T);
    expect(Math.abs(clock.offset())).toBeLessThanOrEqual(1000);
    clock.observe(http(T + 1_860_000), T, T);
    expect(Math.abs(clock.offset() - 1_860_000)).toBeLessThanOrEqual(1000);
  });
});
