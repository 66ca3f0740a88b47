/**
 * Launches the Chromium that scripts/chromium.mjs finds (CHROMIUM_PATH, Playwright's own, or
 * Debian's), headless, for the browser tests.
 */
import { type Browser, chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';

export async function launchChromium(): Promise<Browser> {
  const executablePath = await findChromium();
  if (!executablePath) {
    throw new Error(
      'No Chromium found: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH.',
    );
  }
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
}
