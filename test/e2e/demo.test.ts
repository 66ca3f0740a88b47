/**
 * A newcomer's run through `npm start` in Chromium: open the shop, pop the sandbox controls out
 * (the checkout is modal, so the shop page is inert while it is open), pay, read the account,
 * have the sandbox pay into it from the controls window, and see success without a reload, with
 * no accessibility violations. Then the same through the SPA page, which uses the npm module.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';

let demo: ChildProcess;
let base: string;
let browser: Browser;

beforeAll(async () => {
  demo = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let output = '';
    demo.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready at (http:\/\/[^\s]+?)\/?\s/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    demo.once('exit', (code) => reject(new Error(`demo exited with ${code}`)));
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  demo?.kill('SIGTERM');
});

/** axe-core inside the page, shadow roots included; serious and critical findings only. */
async function seriousViolations(page: Page): Promise<string[]> {
  const source = await readFile(
    new URL('../../node_modules/axe-core/axe.min.js', import.meta.url),
    'utf8',
  );
  // Through the DevTools protocol, so the page's strict CSP does not block the injected script.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Runtime.evaluate', { expression: source });
  const { result } = (await cdp.send('Runtime.evaluate', {
    expression: `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    awaitPromise: true,
    returnByValue: true,
  })) as { result: { value: string[] } };
  return result.value;
}

describe('the demo, as a newcomer meets it', () => {
  it('pays by bank transfer from the script-tag shop, the sandbox paying from the pop-out controls', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 850 } });
    const shop = await context.newPage();
    const errors: string[] = [];
    shop.on('pageerror', (error) => errors.push(error.message));
    await shop.goto(`${base}/`);
    const [controls] = await Promise.all([
      shop.waitForEvent('popup'),
      shop.getByRole('button', { name: 'Open these controls in their own window' }).click(),
    ]);
    await controls.waitForLoadState();

    await shop.getByRole('button', { name: 'Pay by bank transfer' }).first().click();
    const dialog = shop.getByRole('dialog', { name: 'Adire tote bag, indigo' });
    await expect
      .poll(() => dialog.getByRole('heading', { name: /Transfer/ }).isVisible())
      .toBe(true);
    const accountNumber = await dialog.locator('.account').textContent();
    expect(accountNumber).toMatch(/^\d{4} \d{3} \d{3}$/);
    expect(await seriousViolations(shop)).toEqual([]);

    await dialog.getByRole('button', { name: "I've sent the money" }).click();
    await controls.getByRole('button', { name: 'Pay into the latest account' }).click();
    await expect
      .poll(() => dialog.getByRole('heading', { name: 'Payment received' }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await seriousViolations(shop)).toEqual([]);
    // The controls window's log shows the webhook and the confirmed outcome.
    await expect
      .poll(() => controls.locator('#log').textContent())
      .toContain('confirmed with the provider');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shop.locator('#log').textContent()).toContain('widget success');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pays from the SPA that imports the npm module, and moves to its thank-you view', async () => {
    const context = await browser.newContext();
    const spa = await context.newPage();
    await spa.goto(`${base}/spa`);
    await spa.getByRole('button', { name: 'Checkout' }).click();
    const dialog = spa.getByRole('dialog');
    await expect
      .poll(() => dialog.getByRole('heading', { name: /Transfer|Payment received/ }).isVisible())
      .toBe(true);
    // The same order as the other test: if it was already paid there, the checkout says so.
    if (await dialog.getByRole('heading', { name: /Transfer/ }).isVisible()) {
      const payments = (await (await fetch(`${base}/demo/sandbox/payments`)).json()) as {
        payments: Array<{ reference: string; status: string; channel: string }>;
      };
      const pending = payments.payments
        .filter((p) => p.status === 'PENDING' && p.channel === 'PayByTransfer')
        .at(-1);
      await fetch(`${base}/demo/sandbox/payments/${pending?.reference}/transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    }
    await expect
      .poll(() => dialog.getByRole('heading', { name: 'Payment received' }).isVisible())
      .toBe(true);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => spa.getByRole('heading', { name: 'Thank you!' }).isVisible())
      .toBe(true);
    expect(spa.url()).toContain('#thanks');
    await context.close();
  });
});
