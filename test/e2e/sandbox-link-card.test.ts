/**
 * The sandbox's hosted link page in Chromium on a 375 px phone (issue 19): the customer types a
 * card, passes the issuer's challenge and lands back on the merchant's return URL, served by a
 * loopback stand-in; a declined card lands there too. The page's CSP must let the 303 back to the
 * merchant through (Chromium checks form-action on a form post's redirects) and block nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { call, type Sandbox, startSandbox } from '../helpers/sandbox';

let browser: Browser;
let sandbox: Sandbox;
let shop: Server;
let shopUrl: string;
let context: BrowserContext;
let page: Page;
let cspReports: string[];

beforeAll(async () => {
  browser = await launchChromium();
  // The merchant's return page, on an origin of its own.
  shop = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Back at the shop</title><h1>Back at the shop</h1>');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
});

beforeEach(async () => {
  sandbox = await startSandbox();
  context = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true });
  page = await context.newPage();
  cspReports = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
  });
});

afterEach(async () => {
  await context.close();
  await sandbox.close();
});

async function oneTimeLink(): Promise<{ alias: string; link: string }> {
  const answer = await call(sandbox, 'POST', '/api/payment/payment-link', {
    name: 'Order 1042',
    description: 'Two bags of rice',
    linkType: 0,
    amountType: 0,
    currencyCode: 'NGN',
    amountInfo: { currencyCode: 'NGN', amount: 5000 },
    metaData: { 'return-url': `${shopUrl}/return?order=1042` },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.value;
}

async function typeCard(number: string): Promise<void> {
  await page.getByLabel('Name on card').fill('Ada Obi');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill(`12/${(new Date().getUTCFullYear() + 2) % 100}`);
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay NGN 5,000\.00$/ }).click();
}

async function paymentStatus(reference: string): Promise<string> {
  const answer = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
  return answer.body.value.paymentStatus as string;
}

describe('the hosted link page on a phone', () => {
  it('takes a card that needs a challenge, passes the code and returns to the merchant', async () => {
    const { alias, link } = await oneTimeLink();
    await page.goto(link);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Order 1042' }).isVisible())
      .toBe(true);
    // Nothing overflows a 375 px screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await typeCard('4000 0000 0000 3220');
    await page.getByLabel('One-time code').fill('123456');
    await page.getByRole('button', { name: 'Verify and pay' }).click();
    await page.waitForURL(`${shopUrl}/return**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('order')).toBe('1042');
    expect(back.searchParams.get('alias')).toBe(alias);
    const reference = back.searchParams.get('reference') ?? '';
    expect(await paymentStatus(reference)).toBe('Successfull');
    expect(await page.getByRole('heading', { name: 'Back at the shop' }).isVisible()).toBe(true);
    expect(cspReports).toEqual([]);
  });

  it('returns to the merchant after a declined card, and the link still takes another', async () => {
    const { alias, link } = await oneTimeLink();
    await page.goto(link);
    await typeCard('4000000000000002');
    await page.waitForURL(`${shopUrl}/return**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('alias')).toBe(alias);
    expect(await paymentStatus(back.searchParams.get('reference') ?? '')).toBe('FAILED');
    await page.goto(link);
    expect(await page.getByLabel('Card number').isVisible()).toBe(true);
    expect(cspReports).toEqual([]);
  });

  it('shows an inline error for a mistyped number, and keeps only the name', async () => {
    const { link } = await oneTimeLink();
    await page.goto(link);
    await typeCard('4242 4242 4242 4241');
    const number = page.getByLabel('Card number');
    await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true');
    expect(await number.inputValue()).toBe('');
    expect(await page.getByLabel('Name on card').inputValue()).toBe('Ada Obi');
    expect(await page.getByText('This card number is not valid').isVisible()).toBe(true);
    // The field in error has the focus, so a keyboard or screen-reader user starts there.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('number');
  });

  it('cancels back to the merchant without charging', async () => {
    const { alias, link } = await oneTimeLink();
    await page.goto(link);
    await page.getByRole('button', { name: 'Cancel and return to the merchant' }).click();
    await page.waitForURL(`${shopUrl}/return**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('alias')).toBe(alias);
    expect(back.searchParams.get('cancelled')).toBe('1');
    expect(back.searchParams.has('reference')).toBe(false);
    const listed = await call(sandbox, 'GET', '/__sandbox/payments');
    expect(listed.body.payments).toEqual([]);
    expect(cspReports).toEqual([]);
  });
});
