/**
 * Launches the Chromium that scripts/chromium.mjs finds (CHROMIUM_PATH, Playwright's own, or
 * Debian's), headless, for the browser tests. Under Vitest's browser projects it connects to the
 * one the run shares (test/helpers/chromium-server.ts) instead; the benchmarks and the screenshot
 * script launch their own.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright';
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

const CLIPBOARD = ['clipboard-read', 'clipboard-write'];

/** Throws when `permissions` would reach the shared browser's one clipboard. */
function refuseClipboard(permissions: readonly string[] | undefined): void {
  const asked = (permissions ?? []).filter((permission) => CLIPBOARD.includes(permission));
  if (asked.length === 0) return;
  throw new Error(
    `${asked.join(' and ')} asked of the run's shared Chromium, whose clipboard every file's tabs ` +
      "share: another file would read this copy, or this file another's. Launch a Chromium of " +
      "the file's own: useChromium({ ownClipboard: true }) or launchChromium({ ownClipboard: true }).",
  );
}

function refuseClipboardGrants(context: BrowserContext): BrowserContext {
  const grant = context.grantPermissions.bind(context);
  context.grantPermissions = async (permissions, options) => {
    refuseClipboard(permissions);
    return grant(permissions, options);
  };
  return context;
}

/**
 * The shared browser, made to refuse clipboard permissions in every way a context gets them, so
 * that a new file that copies and reads back fails at once with the way out, not now and then.
 */
function withoutClipboard(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    refuseClipboard(options?.permissions);
    return refuseClipboardGrants(await newContext(options));
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    refuseClipboard(options?.permissions);
    const page = await newPage(options);
    refuseClipboardGrants(page.context());
    return page;
  };
  return browser;
}

export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const endpoint = options.ownClipboard ? undefined : await sharedEndpoint();
  if (endpoint) return withoutClipboard(await chromium.connect(endpoint));
  const executablePath = await findChromium();
  if (!executablePath) {
    throw new Error(
      'No Chromium found: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH.',
    );
  }
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
}
