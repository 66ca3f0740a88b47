/**
 * Issue 23's "done when", in Chromium on the e2e shop, at a phone's 375 × 740 and a desktop's
 * 1280 × 800: the checkout names the merchant (the companion's `merchant` option, its logo beside
 * the name), every channel option carries its mark, the amount is the largest text of the
 * checkout and shows once, and on the phone the checkout is a sheet at the bottom of the screen,
 * with the success screen's primary action in the lower half. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../../src/widget/messages/en';
import { checkoutOn, openTab, useChromium } from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

const browser = useChromium();
let context: BrowserContext | undefined;
let page: Page;
let shop: Shop | undefined;

afterEach(async () => {
  await context?.close();
  await shop?.close();
  context = undefined;
  shop = undefined;
});

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#b5562b"/></svg>`;
const MERCHANT = 'Adire & Co.';

const checkout = checkoutOn(() => page);

async function open(
  viewport: { width: number; height: number },
  order: string,
  merchant: boolean,
): Promise<void> {
  shop = await startShop({
    csp: null,
    companion: merchant
      ? { merchant: { name: MERCHANT, logoUrl: 'http://127.0.0.1/logo.svg' } }
      : {},
  });
  shop.pages.set('/', buttonPage(order));
  ({ context, page } = await openTab(browser(), { viewport }));
  await context.route('**/logo.svg', (route) =>
    route.fulfill({ body: LOGO, contentType: 'image/svg+xml' }),
  );
  await page.goto(`${shop.url}/`);
  await page.locator('#pay').click();
}

/** Every visible text of the checkout with its computed font size, in px. */
function textSizes(): Promise<Array<{ text: string; size: number }>> {
  return page.evaluate(() => {
    const root = document.querySelector('paydrop-checkout')?.shadowRoot;
    if (!root) throw new Error('no checkout');
    const found: Array<{ text: string; size: number }> = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('.visually-hidden, [hidden]')) continue;
      if (!parent.checkVisibility()) continue;
      found.push({ text, size: Number.parseFloat(getComputedStyle(parent).fontSize) });
    }
    return found;
  });
}

const VIEWPORTS = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;

for (const viewport of VIEWPORTS) {
  describe(`at ${viewport.width} × ${viewport.height}`, () => {
    it('names the merchant, marks every channel, and makes the amount the largest text, once', async () => {
      await open(viewport, 'scarf-gbp', true);
      await checkout.heading(en.chooseMethod).waitFor();
      const header = page.locator('paydrop-checkout .header');
      await expect.poll(() => header.locator('.merchant').textContent()).toBe(MERCHANT);
      // The logo is decoration beside the name: empty alt, and it loaded.
      const logo = header.locator('.merchant img');
      expect(await logo.getAttribute('alt')).toBe('');
      await expect
        .poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);

      const options = page.locator('paydrop-checkout button.choice');
      expect(await options.count()).toBe(2);
      for (const option of await options.all()) {
        expect(await option.locator('svg').count()).toBe(1);
        // Drawn, not an empty box.
        expect(await option.locator('svg path').getAttribute('d')).toMatch(/\d/);
        const box = await option.locator('svg').boundingBox();
        expect(box?.width).toBeGreaterThanOrEqual(20);
      }

      const sizes = await textSizes();
      const amount = sizes.filter((each) => each.text === '£49.99');
      expect(amount).toHaveLength(1);
      const largest = Math.max(...sizes.map((each) => each.size));
      expect(amount[0]?.size).toBe(largest);
      expect(largest).toBeGreaterThanOrEqual(22);
      // And no other text as large.
      expect(sizes.filter((each) => each.size === largest)).toHaveLength(1);
      // What is bought, beneath the amount.
      const total = await header.locator('.total').boundingBox();
      const what = await header.locator('h2').boundingBox();
      expect(what?.y).toBeGreaterThan((total?.y ?? 0) + (total?.height ?? 0) - 1);
      expect(await header.locator('h2').textContent()).toBe('Merino scarf');
    });

    it('puts the success screen’s action in the lower half on a phone, a sheet at the bottom', async () => {
      await open(viewport, 'tote-ngn', true);
      await page.locator('paydrop-checkout .account').waitFor();
      const payment = await shop?.latestPayment();
      await shop?.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
      await checkout.heading(en.succeededTitle).waitFor({ timeout: 10_000 });
      const done = await checkout.button(en.done).boundingBox();
      const sheet = await checkout.dialog().boundingBox();
      if (!done || !sheet) throw new Error('no Done or dialog');
      // The success's mark is drawn (it comes with the outcomes chunk).
      await page.locator('paydrop-checkout .mark.good svg').waitFor();
      if (viewport.width < 480) {
        expect(done.y).toBeGreaterThan(370);
        // A bottom sheet: the screen's full width, its foot on the screen's.
        expect(sheet.width).toBe(viewport.width);
        expect(Math.abs(sheet.y + sheet.height - viewport.height)).toBeLessThanOrEqual(1);
      } else {
        // A centred dialog on a desktop.
        expect(sheet.width).toBeLessThanOrEqual(440);
        expect(Math.abs(sheet.x + sheet.width / 2 - viewport.width / 2)).toBeLessThanOrEqual(1);
      }
    });
  });
}

describe('the card form on a phone', () => {
  it('stands at the full height of the screen, and nothing moves as the card is typed', async () => {
    await open({ width: 375, height: 740 }, 'scarf-gbp', true);
    await checkout.button('Card').click();
    const number = checkout.cardField('Card number');
    await number.waitFor();
    const boxes = async () => ({
      sheet: await checkout.dialog().boundingBox(),
      frame: await page.locator('paydrop-checkout iframe.card-frame').boundingBox(),
      pay: await page.locator('paydrop-checkout .card-step button.primary').boundingBox(),
    });
    const before = await boxes();
    // The sheet is already the whole screen: an on-screen keyboard has nothing to push up.
    expect(before.sheet).toMatchObject({ y: 0, height: 740 });
    await number.focus();
    // A brand appears (its logo inside the field), the number groups itself: no reflow.
    await number.pressSequentially('4242 4242 4242 4242');
    await checkout.cardForm().locator('.card-brand svg').waitFor();
    expect(await boxes()).toEqual(before);
  });
});

describe('without a merchant', () => {
  it('still opens, names no one, and keeps the amount largest (an older companion)', async () => {
    await open({ width: 375, height: 740 }, 'scarf-gbp', false);
    await checkout.heading(en.chooseMethod).waitFor();
    expect(await page.locator('paydrop-checkout .merchant').count()).toBe(0);
    const sizes = await textSizes();
    const largest = Math.max(...sizes.map((each) => each.size));
    expect(sizes.find((each) => each.size === largest)?.text).toBe('£49.99');
  });
});
