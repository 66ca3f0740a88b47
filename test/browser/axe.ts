/**
 * axe-core over a rendered component, in jsdom. jsdom has no layout and no canvas, so the rules
 * that need them (colour contrast) are off, and canvas answers "no context" instead of logging
 * "not implemented" for every run.
 */
import axe from 'axe-core';

if (typeof HTMLCanvasElement !== 'undefined') {
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
}

/**
 * The violations as "rule: html of the first node", for a readable failure. `iframes: false` for a
 * frame of another origin, which jsdom cannot look into (its own title is still checked).
 */
export async function axeViolations(
  root: Element,
  options: { iframes?: boolean } = {},
): Promise<string[]> {
  const results = await axe.run(root, {
    ...options,
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.length}× e.g. ${violation.nodes[0]?.html.replace(/ __(self|source)="\[object Object\]"/g, '')})`,
  );
}
