/**
 * axe-core in Chromium over a whole page, open shadow roots included (the dialog lives in one),
 * for the e2e tests: inject it with `page.addScriptTag({ path: AXE_PATH })` on a page without a
 * CSP (or `injectAxeThroughDevTools` on a page with a strict one), then ask for the findings of
 * a state.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright';
import { expect } from 'vitest';

export const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Puts axe-core into a page through the DevTools protocol, so that a page's strict CSP (the
 * demo's, Trusted Types included) does not refuse it as it refuses `addScriptTag`.
 */
export async function injectAxeThroughDevTools(page: Page): Promise<void> {
  const source = await readFile(AXE_PATH, 'utf8');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Runtime.evaluate', { expression: source });
  await cdp.detach();
}

export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * The findings of `impacts` in the page as it is now, their ids prefixed with `view`. Fails the
 * test if axe did not look inside the shadow root, so a run that saw nothing cannot pass.
 */
export async function axeFindings(
  page: Page,
  view: string,
  options: {
    readonly impacts: readonly string[];
    readonly iframes?: boolean;
    /** False for a page without the checkout's shadow root (the back office). Default true. */
    readonly shadowRoot?: boolean;
  },
): Promise<AxeFinding[]> {
  const report = await page.evaluate(
    async ({ impacts, iframes }) => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{
              violations: Array<{
                id: string;
                impact: string | null;
                help: string;
                nodes: Array<{ target: unknown[] }>;
              }>;
              passes: Array<{ nodes: Array<{ target: unknown[] }> }>;
            }>;
          };
        }
      ).axe;
      const results = await axe.run(document, {
        resultTypes: ['violations'],
        ...(iframes === undefined ? {} : { iframes }),
      });
      return {
        violations: results.violations
          .filter((violation) => impacts.includes(violation.impact ?? ''))
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            help: violation.help,
            targets: violation.nodes.map((node) => JSON.stringify(node.target)),
          })),
        // A node inside a shadow root has a nested target: [["paydrop-checkout", "button"]].
        sawShadow: results.passes.some((rule) =>
          rule.nodes.some((node) => Array.isArray(node.target[0])),
        ),
      };
    },
    { impacts: [...options.impacts], iframes: options.iframes },
  );
  if (options.shadowRoot !== false)
    expect(report.sawShadow, `axe looked inside the shadow root (${view})`).toBe(true);
  return report.violations.map((violation) => ({ ...violation, id: `${view}: ${violation.id}` }));
}

/**
 * The serious and critical findings in a page with a strict CSP (the demo's, the back office's):
 * puts axe in through DevTools unless the page has it already, then asks. `shadowRoot` as for
 * axeFindings; false by default here, since such a page need not hold an open checkout.
 */
export async function seriousFindingsPastCsp(
  page: Page,
  view: string,
  options: { readonly shadowRoot?: boolean } = {},
): Promise<AxeFinding[]> {
  if (!(await page.evaluate('typeof window.axe === "object"')))
    await injectAxeThroughDevTools(page);
  return axeFindings(page, view, {
    impacts: ['serious', 'critical'],
    shadowRoot: options.shadowRoot ?? false,
  });
}
