/**
 * The declarative form: any element with `data-paydrop-order` (or `data-paydrop-link`) opens the
 * checkout when clicked, with `data-paydrop-endpoint` (default '/api/checkout') and
 * `data-paydrop-locale`. Outcomes are dispatched on the element as `paydrop:success`,
 * `paydrop:failure`, `paydrop:pending` and `paydrop:close` events (declarative-core.ts). The
 * script tag (src/embed.ts) keeps only the click listener and loads the rest on the first click.
 */

import { declared, openFrom, resumeOn } from './declarative-core';
import { open, resume } from './open';

/** Listens for clicks on the document; returns the function that stops listening. */
export function bindDeclarative(root: Document): () => void {
  const onClick = (event: Event) => {
    const target = declared(event);
    if (!target) return;
    event.preventDefault();
    openFrom(target, open);
  };
  root.addEventListener('click', onClick);
  resumeOn(root, resume);
  return () => root.removeEventListener('click', onClick);
}
