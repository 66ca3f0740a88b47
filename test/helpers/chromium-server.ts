/**
 * Global set-up of the browser tests: one Chromium for the whole run, which every file reaches
 * through launchChromium() (test/helpers/browser.ts) as a connection of its own. A launch costs
 * about 1 CPU-s more than a connection (10 launches: 15–18 CPU-s; one browser and 10
 * connections: 7 CPU-s), and about 30 files launched one each. Closing a connection closes the
 * contexts it made, as closing a launched browser did, so a file still leaves nothing behind.
 */
import { chromium } from 'playwright';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint; absent when this machine has none (launchChromium says so). */
    chromiumEndpoint: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const executablePath = await findChromium();
  if (!executablePath) {
    project.provide('chromiumEndpoint', undefined);
    return async () => {};
  }
  const server = await chromium.launchServer({
    executablePath,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
