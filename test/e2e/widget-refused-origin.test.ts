/**
 * When the companion refuses the shop's own page (issue 21: the page on https behind a TLS proxy
 * that keeps Host and says nothing of the scheme), the customer reads "the checkout could not
 * continue" and the developer's console names the code, `cross_site_request`, and where the rest
 * is said: the server's log, which names the origin refused, the one expected and the option that
 * allows it. A real TLS proxy (test/helpers/tls-proxy.ts, 'silent') stands in front of the shop.
 * Run `npm run build:widget` first.
 */
import type { Browser } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { openTab } from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';
import {
  type Certificate,
  startTlsProxy,
  type TlsProxy,
  throwAwayCertificate,
} from '../helpers/tls-proxy';

let chromium: Browser;
beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});
let shop: Shop;
let tls: Certificate;
let proxy: TlsProxy;

beforeEach(async () => {
  shop = await startShop();
  tls = throwAwayCertificate(['127.0.0.1']);
  proxy = await startTlsProxy(tls, Number(new URL(shop.url).port), 'silent');
});
afterEach(async () => {
  await proxy.close();
  await shop.close();
  tls.remove();
});

it('a refused page: the console names cross_site_request, the server log the origins and the option', async () => {
  shop.pages.set('/', buttonPage('tote-ngn'));
  const { context, page: tab } = await openTab(chromium, { ignoreHTTPSErrors: true });
  const consoleErrors: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const httpsShop = `https://127.0.0.1:${proxy.port}`;
  const seenByCompanion = `http://127.0.0.1:${proxy.port}`;
  await tab.goto(`${httpsShop}/`);
  await tab.getByRole('button', { name: 'Pay now' }).click();
  await expect
    .poll(
      () =>
        tab
          .getByText(/The checkout could not continue/)
          .first()
          .isVisible(),
      {
        timeout: 10_000,
      },
    )
    .toBe(true);
  await expect.poll(() => consoleErrors.join('\n')).toMatch(/paydrop: .*cross_site_request/);
  expect(consoleErrors.filter((text) => text.startsWith('paydrop:'))).toHaveLength(1);
  expect(shop.logLines.join('\n')).toContain(
    `"origin":"${httpsShop}","expected":"${seenByCompanion}","allow":"publicUrl: '${httpsShop}/api/checkout' if ${httpsShop} is this shop's own address (or let the proxy in front send X-Forwarded-Proto and X-Forwarded-Host)`,
  );
  await context.close();
});
