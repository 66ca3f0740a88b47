// The one place that decides which Chromium the browser tests drive.
// Order: CHROMIUM_PATH if set; Playwright's own download when one is installed; a system
// Chromium (Debian's package here). A merchant's laptop with Playwright's browser and our
// offline machines with Debian's both work without changing a test.
import { existsSync } from 'node:fs';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

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
