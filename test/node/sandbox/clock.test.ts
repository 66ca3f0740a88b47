// The sandbox's clock runs every task that falls due exactly once, even while real time moves
// during the run (a task due between two readings of the clock was once dropped: a payout that
// never settled, found by the chaos run of issue 9).
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../src/sandbox/clock';

describe('sandbox clock', () => {
  it('runs every task that comes due while real time moves under it, once each', () => {
    // Wherever the tasks fall relative to the moment of the run, none is lost.
    for (let shift = 0; shift <= 1600; shift += 100) {
      let real = 0;
      // Every reading of real time finds it a millisecond later, as on a busy machine.
      const clock = createClock(() => real++);
      const ran: number[] = [];
      const base = clock.now() + shift;
      // Latest first, so the tasks around the moment of the run are spread through the list.
      for (let index = 0; index < 400; index++) {
        clock.schedule(base + 400 - index, () => ran.push(index));
      }
      for (let step = 0; step < 5; step++) clock.advance(1);
      clock.close();
      expect(
        ran.sort((a, b) => a - b),
        `shift ${shift}`,
      ).toEqual(Array.from({ length: 400 }, (_, index) => index));
    }
  });
});
