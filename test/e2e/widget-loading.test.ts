/**
 * However the merchant loads the script tag (async, deferred, or late, after the page is
 * ready), the button opens the checkout; and loading it twice defines Paydrop once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/page';
import { type Shop, STRICT_CSP, startShop } from '../helpers/shop';

const browser = useChromium();
let shop: Shop;

beforeEach(async () => {
  shop = await startShop();
});
afterEach(async () => {
  await shop.close();
});

const page = (
  head: string,
  body = '',
) => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head>
<body><button id="pay" data-paydrop-order="tote-ngn" data-paydrop-endpoint="/api/checkout">Pay now</button>${body}</body></html>`;

async function opensCheckout(html: string): Promise<void> {
  shop.pages.set('/', html);
  const tab = await browser().newPage();
  await tab.goto(`${shop.url}/`);
  await expect.poll(() => tab.evaluate(() => 'Paydrop' in window)).toBe(true);
  await tab.getByRole('button', { name: 'Pay now' }).click();
  await expect.poll(() => tab.getByRole('heading', { name: /Transfer/ }).isVisible()).toBe(true);
  expect(await tab.locator('paydrop-checkout').count()).toBe(1);
  await tab.close();
}

describe('loading the script tag', () => {
  it('works loaded async', async () => {
    await opensCheckout(page('<script src="/paydrop.js" async></script>'));
  });

  it('works loaded deferred', async () => {
    await opensCheckout(page('<script src="/paydrop.js" defer></script>'));
  });

  it('works added late, after the page has loaded', async () => {
    // Adding a script by URL from script is a Trusted Types sink: this merchant does not enforce them.
    await shop.close();
    shop = await startShop({
      csp: STRICT_CSP.replace(/; require-trusted-types-for[^;]*; trusted-types[^;]*/, ''),
    });
    shop.scripts.set(
      '/late.js',
      `addEventListener('load', () => setTimeout(() => {
        const script = document.createElement('script');
        script.src = '/paydrop.js';
        document.head.append(script);
      }, 100));`,
    );
    await opensCheckout(page('<script src="/late.js"></script>'));
  });

  it('defines Paydrop once and binds the buttons once when the tag appears twice', async () => {
    shop.pages.set(
      '/',
      page('<script src="/paydrop.js"></script><script src="/paydrop.js"></script>'),
    );
    const tab = await browser().newPage();
    await tab.goto(`${shop.url}/`);
    await tab.getByRole('button', { name: 'Pay now' }).click();
    await expect.poll(() => tab.getByRole('heading', { name: /Transfer/ }).isVisible()).toBe(true);
    expect(await tab.locator('paydrop-checkout').count()).toBe(1);
    const payments = (await (await shop.sandbox('GET', '/__sandbox/payments')).json()) as {
      payments: unknown[];
    };
    expect(payments.payments).toHaveLength(1);
    await tab.close();
  });
});
