/**
 * The script tag is a loader (issue 25): a page that loads it fetches nothing else until a
 * customer shows intent (a pointer over or focus on a pay button) or the browser is idle after
 * the load; a click with nothing fetched yet sends the session request at once, beside the
 * checkout's download; `Paydrop.open` called before the checkout arrived is honoured, a second
 * call never opens a second dialog (another order fails with already_open), and a bad option
 * still throws its own error at once. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page, Request } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTab, useChromium } from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

/**
 * Holds the browser's idle callbacks until the test lets them run (`window.__runIdle()`): the
 * idle moment after the load is the test's to choose.
 */
const HOLD_IDLE = `
window.__idle = [];
window.requestIdleCallback = (run) => window.__idle.push(run);
window.__runIdle = () => window.__idle.splice(0).forEach((run) => run({ didTimeout: false, timeRemaining: () => 50 }));
window.__globals = Object.getOwnPropertyNames(window);
`;

const browser = useChromium();
let context: BrowserContext;
let page: Page;
let shop: Shop;
let requests: Request[];

beforeEach(async () => {
  ({ context, page } = await openTab(browser()));
  await page.addInitScript(HOLD_IDLE);
  requests = [];
  page.on('request', (request) => requests.push(request));
  shop = await startShop();
  shop.pages.set('/', buttonPage('tote-ngn'));
});

afterEach(async () => {
  await context?.close();
  await shop.close();
});

/** The paths the page asked its own origin for, beyond the page itself. */
const fetched = () =>
  requests
    .map((request) => new URL(request.url()).pathname)
    .filter((path) => path !== '/' && path !== '/favicon.ico');
const CHECKOUT = /\/paydrop-[a-z]+\/checkout\.js$/;
const checkoutFetched = () => fetched().some((path) => CHECKOUT.test(path));
const sessions = () => fetched().filter((path) => path === '/api/checkout/session');
const transferHeading = () => page.getByRole('heading', { name: /Transfer/ });

/** Lets the page settle, so that anything it would fetch on its own has been asked for. */
const settle = () => page.waitForTimeout(300);

describe('the script tag on page load', () => {
  it('fetches nothing but the loader until a pointer comes over the pay button', async () => {
    await page.goto(`${shop.url}/`);
    await settle();
    expect(fetched()).toEqual(['/paydrop.js']);
    expect(await page.evaluate(() => typeof window.Paydrop?.open)).toBe('function');
    // The loader's one global is Paydrop.
    expect(
      await page.evaluate(
        "Object.getOwnPropertyNames(window).filter((name) => name !== '__globals' && !window.__globals.includes(name))",
      ),
    ).toEqual(['Paydrop']);

    // The pointer over the page's text is no intent; over the button it is.
    await page.mouse.move(5, 5);
    await settle();
    expect(checkoutFetched()).toBe(false);
    await page.hover('#pay');
    await expect.poll(checkoutFetched).toBe(true);
    // Only the code: no session is asked for before the click.
    await settle();
    expect(sessions()).toEqual([]);
    expect(fetched().filter((path) => path !== '/paydrop.js' && !CHECKOUT.test(path))).toEqual([]);

    await page.click('#pay');
    await transferHeading().waitFor();
    expect(sessions()).toHaveLength(1);
  });

  it('fetches the checkout when the pay button gets the keyboard focus', async () => {
    await page.goto(`${shop.url}/`);
    await settle();
    expect(checkoutFetched()).toBe(false);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
    await expect.poll(checkoutFetched).toBe(true);
    await page.keyboard.press('Enter');
    await transferHeading().waitFor();
  });

  it('fetches the checkout when the browser is idle after the load', async () => {
    await page.goto(`${shop.url}/`);
    await settle();
    expect(checkoutFetched()).toBe(false);
    await page.evaluate('window.__runIdle()');
    await expect.poll(checkoutFetched).toBe(true);
    await settle();
    expect(sessions()).toEqual([]);
  });
});

describe('a click before the checkout is here', () => {
  it('starts the session at once, beside the checkout’s download, and asks for it once', async () => {
    // The checkout's code takes its time to arrive: the session must not wait for it.
    await page.route(CHECKOUT, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.goto(`${shop.url}/`);
    await settle();
    // A click from script: no pointer came over the button, nothing was fetched before it.
    await page.evaluate(() => document.getElementById('pay')?.click());
    await transferHeading().waitFor();
    const timing = (await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => {
          const resource = entry as PerformanceResourceTiming;
          return {
            path: new URL(resource.name).pathname,
            start: resource.startTime,
            end: resource.responseEnd,
          };
        })
        .filter(({ path }) => path === '/api/checkout/session' || /checkout\.js$/.test(path)),
    )) as Array<{ path: string; start: number; end: number }>;
    const session = timing.find(({ path }) => path === '/api/checkout/session');
    const checkout = timing.find(({ path }) => path.endsWith('checkout.js'));
    if (!session || !checkout) throw new Error(`missing timings: ${JSON.stringify(timing)}`);
    // Sent in the click, before the checkout's request, and answered while it was still loading.
    expect(session.start).toBeLessThanOrEqual(checkout.start);
    expect(session.end).toBeLessThan(checkout.end);
    expect(sessions()).toHaveLength(1);
  });
});

describe('Paydrop.open before the checkout is here', () => {
  /** Holds the checkout's code until `release()`. */
  async function holdCheckout(): Promise<() => void> {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(CHECKOUT, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it('opens the checkout when it arrives, with the same handle for a second call', async () => {
    const release = await holdCheckout();
    await page.goto(`${shop.url}/`);
    await page.evaluate(`(() => {
      window.__events = [];
      const options = {
        endpoint: '/api/checkout',
        order: 'tote-ngn',
        onClose: (result) => window.__events.push('close:' + result.status),
      };
      window.__first = Paydrop.open(options);
      window.__same = Paydrop.open(options) === window.__first;
      window.__first.result.then((result) => window.__events.push('result:' + result.status));
    })()`);
    expect(await page.evaluate('window.__same')).toBe(true);
    await expect.poll(checkoutFetched).toBe(true);
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
    release();
    await transferHeading().waitFor();
    expect(await page.locator('paydrop-checkout').count()).toBe(1);
    await page.evaluate('window.__first.close()');
    await expect
      .poll(() => page.evaluate('window.__events'))
      .toEqual(['close:pending', 'result:pending']);
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
    expect(sessions()).toHaveLength(1);
  });

  it('a second Paydrop.open never opens a second dialog, before and after the checkout arrived', async () => {
    const release = await holdCheckout();
    await page.goto(`${shop.url}/`);
    await page.evaluate(`(() => {
      window.__events = [];
      const log = (name) => ({
        onFailure: (error) => window.__events.push(name + ':failure:' + error.code),
        onClose: (result) => window.__events.push(name + ':close:' + result.status),
      });
      const tote = { endpoint: '/api/checkout', order: 'tote-ngn' };
      window.__first = Paydrop.open({ ...tote, ...log('first') });
      // While the checkout's code loads: the same order is the same checkout, another is refused.
      window.__same = Paydrop.open({ ...tote, ...log('same') }) === window.__first;
      Paydrop.open({ endpoint: '/api/checkout', order: 'mug-gbp', ...log('loading') });
    })()`);
    expect(await page.evaluate('window.__same')).toBe(true);
    await expect
      .poll(() => page.evaluate('window.__events'))
      .toEqual(['loading:failure:already_open', 'loading:close:failed']);
    release();
    await transferHeading().waitFor();

    // Open now, by the checkout's own open(): another order is refused the same way.
    const refused = await page.evaluate(`Paydrop.open({
      endpoint: '/api/checkout',
      order: 'mug-gbp',
      onFailure: (error) => window.__events.push('open:failure:' + error.code),
    }).result.then((result) => [result.status, result.error.code, result.error.message])`);
    expect(refused).toEqual([
      'failed',
      'already_open',
      'Paydrop.open: a checkout for tote-ngn is open; close it before opening mug-gbp.',
    ]);
    expect(await page.locator('paydrop-checkout').count()).toBe(1);
    await transferHeading().waitFor();

    // Closed, both callers of the same order hear it, once each.
    await page.evaluate('window.__first.close()');
    await expect
      .poll(() => page.evaluate('window.__events'))
      .toEqual([
        'loading:failure:already_open',
        'loading:close:failed',
        'open:failure:already_open',
        'first:close:pending',
        'same:close:pending',
      ]);
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
    expect(sessions()).toHaveLength(1);
  });

  it('ends as cancelled when closed before the checkout arrived, and opens nothing', async () => {
    const release = await holdCheckout();
    await page.goto(`${shop.url}/`);
    await page.evaluate(`(() => {
      window.__events = [];
      const handle = Paydrop.open({
        endpoint: '/api/checkout',
        order: 'tote-ngn',
        onClose: (result) => window.__events.push('close:' + result.status),
      });
      handle.result.then((result) => window.__events.push('result:' + result.status));
      handle.close();
    })()`);
    await expect
      .poll(() => page.evaluate('window.__events'))
      .toEqual(['close:cancelled', 'result:cancelled']);
    release();
    await settle();
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
  });

  it('reports a checkout that could not be loaded as a network failure', async () => {
    await page.route(CHECKOUT, (route) => route.abort('connectionfailed'));
    await page.goto(`${shop.url}/`);
    const result = await page.evaluate(`new Promise((resolve) => {
      const failures = [];
      Paydrop.open({
        endpoint: '/api/checkout',
        order: 'tote-ngn',
        onFailure: (error) => failures.push(error.code),
      }).result.then((result) => resolve({ status: result.status, code: result.error.code, failures }));
    })`);
    expect(result).toEqual({ status: 'failed', code: 'network', failures: ['network'] });
    expect(await page.locator('paydrop-checkout').count()).toBe(0);
  });

  it('throws the option’s own error at once, and fetches nothing', async () => {
    await page.goto(`${shop.url}/`);
    await settle();
    const errors = await page.evaluate(() => {
      const open = window.Paydrop?.open as (options: unknown) => unknown;
      const attempt = (options: unknown) => {
        try {
          open(options);
          return 'no error';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      };
      return [
        attempt(undefined),
        attempt({ endpoint: '/api/checkout' }),
        attempt({ endpoint: '/api/checkout', order: 'tote ngn' }),
        attempt({ endpoint: '/api/checkout', order: 'tote-ngn', onSuccess: 'thanks' }),
        attempt({ endpoint: '/api/checkout', order: 'tote-ngn', locale: 'not a locale!' }),
      ];
    });
    expect(errors).toEqual([
      'TypeError: Paydrop.open: pass an options object, e.g. { endpoint, order }.',
      'TypeError: Paydrop.open: give "order" (your order id) or "link" (a payment link alias), not both.',
      'TypeError: Paydrop.open: "order" must be 1 to 128 letters, digits or . _ : -',
      'TypeError: Paydrop.open: "onSuccess" must be a function.',
      'TypeError: Paydrop.open: "locale" must be a language tag such as "fr-FR", not "not a locale!".',
    ]);
    await settle();
    expect(fetched()).toEqual(['/paydrop.js']);
  });
});
