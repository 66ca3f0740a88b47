// The model's change notification: cells, derived values, batches, and listeners kept apart.
import { describe, expect, it, vi } from 'vitest';
import { createScope } from '../../src/flow/reactive';

describe('createScope', () => {
  it('tells every listener once per change, and once for a batch of changes', () => {
    const scope = createScope();
    const a = scope.cell(1);
    const b = scope.cell('x');
    const heard: string[] = [];
    scope.subscribe(() => heard.push(`${a.peek()}${b.peek()}`));
    a.value = 2;
    a.value = 2; // the same value is no change
    scope.batch(() => {
      a.value = 3;
      b.value = 'y';
    });
    expect(heard).toEqual(['1x', '2x', '3y']);
  });

  it('computes derived values afresh on every read', () => {
    const scope = createScope();
    const a = scope.cell(2);
    const double = scope.derived(() => a.value * 2);
    expect(double.value).toBe(4);
    a.value = 5;
    expect(double.peek()).toBe(10);
  });

  it('stops telling a listener once it unsubscribes', () => {
    const scope = createScope();
    const a = scope.cell(0);
    const listener = vi.fn();
    const stop = scope.subscribe(listener);
    stop();
    a.value = 1;
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps a throwing listener from breaking the change or the other listeners', async () => {
    const scope = createScope();
    const a = scope.cell(0);
    const later = vi.fn();
    const reported: unknown[] = [];
    const onError = (error: unknown) => reported.push(error);
    process.on('uncaughtException', onError);
    try {
      scope.subscribe(() => {
        if (a.peek() === 1) throw new Error('a bug in one listener');
      });
      scope.subscribe(later);
      expect(() => {
        a.value = 1;
      }).not.toThrow();
      expect(a.peek()).toBe(1);
      expect(later).toHaveBeenCalledTimes(2);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(reported).toHaveLength(1);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
