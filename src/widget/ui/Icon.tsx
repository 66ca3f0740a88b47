import { h } from 'preact';

/**
 * Every mark of the checkout (issue 23), drawn to one design: a 24-unit path stroked in the
 * current colour (styles.css), decoration beside words that say the same (aria-hidden).
 */
export function Icon({ d }: { readonly d: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}
