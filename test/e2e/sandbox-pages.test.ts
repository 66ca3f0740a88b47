/**
 * The sandbox's customer-facing pages in a real Chromium: the card challenge inside a sandboxed
 * frame tells its parent the outcome, and the bank page sends the customer back or closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import {
  BANK_INITIATION,
  call,
  cardInitiation,
  type Sandbox,
  startSandbox,
} from '../helpers/sandbox';

let browser: Browser;
let sandbox: Sandbox;
let shop: Server;
let shopUrl: string;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  // A stand-in merchant page on its own origin: where the bank returns the customer to.
  shop = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>shop</title><p id="where">${request.url}</p>`);
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
  page = await browser.newPage();
});

afterEach(async () => {
  await page.close();
  await sandbox.close();
});

/** Renders authenticationhtml as a merchant should: srcdoc of a frame without same-origin. */
async function showChallenge(html: string): Promise<void> {
  await page.goto(`${shopUrl}/checkout`);
  await page.evaluate((markup) => {
    const messages: unknown[] = [];
    (window as unknown as { challengeMessages: unknown[] }).challengeMessages = messages;
    window.addEventListener('message', (event) => messages.push(event.data));
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-forms');
    frame.srcdoc = markup;
    frame.width = '400';
    frame.height = '500';
    document.body.append(frame);
  }, html);
}

async function cardChallenge(): Promise<{ reference: string; html: string }> {
  const initiated = await call(
    sandbox,
    'POST',
    '/api/payment/pay/initiate',
    cardInitiation('4000000000003220'),
  );
  const reference = initiated.body.value.paymentItem.paymentReference as string;
  const check = await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
  expect(check.body.value.IsAuthenticationEnabled).toBe(true);
  return { reference, html: check.body.value.authenticationhtml as string };
}

function challengeMessages(): Promise<unknown[]> {
  return page.evaluate(
    () => (window as unknown as { challengeMessages: unknown[] }).challengeMessages,
  );
}

describe('card challenge page', () => {
  it('passes with the test code and tells the parent, after which finalize succeeds', async () => {
    const { reference, html } = await cardChallenge();
    await showChallenge(html);
    const frame = page.frameLocator('iframe');
    await frame.getByLabel('One-time code').fill('123456');
    await frame.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(challengeMessages)
      .toEqual([{ type: 'challenge.completed', reference, outcome: 'passed' }]);
    const finalized = await call(sandbox, 'POST', '/api/payment/pay/finalize', {
      paymentReference: reference,
    });
    expect(finalized.body.value.status).toBe('Successfull');
  });

  it('fails with another code, tells the parent, and the payment is FAILED', async () => {
    const { reference, html } = await cardChallenge();
    await showChallenge(html);
    const frame = page.frameLocator('iframe');
    await frame.getByLabel('One-time code').fill('000000');
    await frame.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(challengeMessages)
      .toEqual([{ type: 'challenge.completed', reference, outcome: 'failed' }]);
    const status = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
    expect(status.body.value.paymentStatus).toBe('FAILED');
  });
});

describe('bank authorisation page', () => {
  it('approves and sends the customer back to return-url with the reference', async () => {
    const initiated = await call(sandbox, 'POST', '/api/payment/pay/initiate', {
      ...BANK_INITIATION,
      metaData: { 'return-url': `${shopUrl}/return?order=42` },
    });
    const { paymentReference: reference, metaData } = initiated.body.value.paymentItem;
    await page.goto(metaData.AuthUrl);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${shopUrl}/return**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('order')).toBe('42');
    expect(back.searchParams.get('reference')).toBe(reference);
    const status = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
    expect(status.body.value.paymentStatus).toBe('PENDING');
  });

  it('closes its popup itself when metaData.redirect is false', async () => {
    const initiated = await call(sandbox, 'POST', '/api/payment/pay/initiate', {
      ...BANK_INITIATION,
      metaData: { 'return-url': `${shopUrl}/return`, redirect: false },
    });
    const { paymentReference: reference, metaData } = initiated.body.value.paymentItem;
    await page.goto(`${shopUrl}/checkout`);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((url) => void window.open(url, 'bank'), metaData.AuthUrl as string),
    ]);
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Decline' }).click();
    await closed;
    const status = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
    expect(status.body.value.paymentStatus).toBe('FAILED');
  });
});
