/**
 * Launches the Chromium that scripts/chromium.mjs finds (CHROMIUM_PATH, Playwright's own, or
 * Debian's), headless, for the browser tests. Under Vitest's browser projects it connects to the
 * one the run shares (test/helpers/chromium-server.ts) instead; the benchmarks and the screenshot
 * script launch their own.
 */
import { type Browser, chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';

async function sharedEndpoint(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('chromiumEndpoint');
}

export interface ChromiumOptions {
  /**
   * A Chromium of the file's own, not the run's shared one: the clipboard is the browser's, one
   * for all its contexts, so a file that copies and reads the clipboard back would read another
   * file's copy (an account number from widget-access read as customer-looks' one).
   */
  readonly ownClipboard?: boolean;
}

export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const endpoint = options.ownClipboard ? undefined : await sharedEndpoint();
  if (endpoint) return chromium.connect(endpoint);
  const executablePath = await findChromium();
  if (!executablePath) {
    throw new Error(
      'No Chromium found: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH.',
    );
  }
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
}
