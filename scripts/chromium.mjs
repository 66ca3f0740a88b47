// The one place that decides which Chromium the browser tests drive.
// Order: CHROMIUM_PATH if set; Playwright's own download when one is installed; a system
// Chromium (Debian's packages here). A merchant's laptop with Playwright's browser and our
// offline machines with Debian's both work without changing a test.
import { existsSync } from 'node:fs';

/**
 * Chromium's headless shell first (Debian's chromium-headless-shell; what Playwright itself runs
 * for headless tests): the same Blink and V8 without the full browser's UI stack, so a page costs
 * about a third of the CPU (20 contexts and pages: 10 CPU-s against 28 with /usr/bin/chromium),
 * and the browser suites are bound by the CPU on 2 cores. The full browser when it is not there.
 */
const SYSTEM_PATHS = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** Flags that keep a headless Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

async function playwrightChromium() {
  try {
    const { chromium } = await import('playwright');
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The path of a Chromium to launch, or undefined when none is on this machine. */
export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return (await playwrightChromium()) ?? SYSTEM_PATHS.find((path) => existsSync(path));
}
