import { signal } from '@preact/signals';
import { loadOutcomesChunk, type OutcomesChunk } from '#chunks';

/**
 * The words of a payment that did not go through (issue 12), in their own chunk: undefined until
 * a screen first needs them (a failed, expired or error step; the notice of a replaced account,
 * which follows an expired one), null when they could not be loaded (the screen then says what
 * the main catalogue can). Loaded once a page; components that read it redraw when they arrive.
 */
export const outcomes = signal<OutcomesChunk | null | undefined>(undefined);
let asked = false;

/** The outcomes chunk as far as it has come, asking for it the first time. */
export function askOutcomes(): OutcomesChunk | null | undefined {
  if (!asked) {
    asked = true;
    loadOutcomesChunk().then(
      (chunk) => {
        outcomes.value = chunk;
      },
      () => {
        // Asked again by the next screen that needs it.
        asked = false;
        outcomes.value = null;
      },
    );
  }
  return outcomes.value;
}
