/**
 * A compromised script on the merchant's page, loaded before paydrop.js, tries every way it knows
 * to read the card while the customer pays on the direct path (issue 19): it must see neither
 * the number (in any grouping) nor the security code, and the payment still succeeds. Also the
 * frame's own defences: forged messages, POST /card from a page, /initiate with a card, and
 * framing by a foreign origin. Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve } from '../../src/node/serve';
import { checkoutOn, openTab, useChromium } from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

/** Everything the skimmer can think of; what it sees goes into window.__seen (and a beacon). */
const SKIMMER = `(() => {
  const seen = [];
  window.__seen = seen;
  const note = (how, value) => { try { seen.push(how + ': ' + (typeof value === 'string' ? value : JSON.stringify(value))); } catch {} };
  // 1. Every request the page makes.
  const realFetch = window.fetch;
  window.fetch = function (input, init) { note('fetch', String(input && input.url || input) + ' ' + (init && init.body || '')); return realFetch.apply(this, arguments); };
  const realSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) { note('xhr', body); return realSend.apply(this, arguments); };
  // 2. Keystrokes and input events, captured at the top.
  for (const target of [window, document]) {
    for (const type of ['keydown', 'keypress', 'keyup', 'input', 'change', 'paste']) {
      target.addEventListener(type, (event) => {
        note(type, [event.key, event.data, event.target && event.target.value, event.composedPath && event.composedPath().map((node) => node.value).filter(Boolean)]);
      }, true);
    }
  }
  // 3. The value getter of every input.
  const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  Object.defineProperty(HTMLInputElement.prototype, 'value', {
    get() { const value = descriptor.get.call(this); note('value-getter', value); return value; },
    set(value) { note('value-setter', value); descriptor.set.call(this, value); },
    configurable: true,
  });
  // 4. Shadow roots forced open, then searched.
  const roots = [];
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, { ...init, mode: 'open' }); roots.push(root); return root; };
  const scanRoots = () => { for (const root of roots) for (const input of root.querySelectorAll('input, textarea')) note('shadow-input', descriptor.get.call(input)); };
  // 5. Every DOM change, inputs read.
  new MutationObserver(() => { for (const input of document.querySelectorAll('input')) note('mutation-input', descriptor.get.call(input)); scanRoots(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  // 6. Every message posted to the page.
  addEventListener('message', (event) => note('message', [event.origin, event.data]), true);
  // 7. The iframe's sandbox dropped before it loads, then its document read.
  const frames = [];
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLIFrameElement) { frames.push(this); if (String(name).toLowerCase() === 'sandbox') { note('sandbox-dropped', value); return; } }
    return setAttribute.call(this, name, value);
  };
  const sandboxProperty = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'sandbox');
  Object.defineProperty(HTMLIFrameElement.prototype, 'sandbox', { get() { frames.push(this); return sandboxProperty.get.call(this); }, set(value) { frames.push(this); note('sandbox-property-dropped', value); }, configurable: true });
  const srcProperty = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src');
  Object.defineProperty(HTMLIFrameElement.prototype, 'src', { get() { return srcProperty.get.call(this); }, set(value) { frames.push(this); this.removeAttribute('sandbox'); srcProperty.set.call(this, value); }, configurable: true });
  const readFrames = () => {
    for (const frame of new Set(frames)) {
      try { const doc = frame.contentDocument; if (doc) for (const input of doc.querySelectorAll('input')) note('frame-input', descriptor.get.call(input)); else note('frame-document', 'null'); } catch (error) { note('frame-document', error.name); }
      try { note('frame-text', frame.contentWindow.document.body.innerText); } catch (error) { note('frame-window', error.name); }
    }
  };
  // 8. The frame's URL opened in a window of its own.
  const opened = [];
  const openFrameUrl = () => {
    for (const frame of new Set(frames)) {
      const url = srcProperty.get.call(frame) || frame.getAttribute('src');
      if (!url || opened.includes(url)) continue;
      opened.push(url);
      note('frame-url', url);
      try { const popup = window.open(url, '_blank'); setTimeout(() => { try { note('popup-text', popup.document.body.innerText); } catch (error) { note('popup', error.name); } }, 500); } catch (error) { note('open', error.name); }
    }
  };
  // 9. The whole DOM's text, shadow roots included.
  const scanText = () => { note('text', document.body ? document.body.innerText : ''); for (const root of roots) note('shadow-text', root.textContent); };
  // ?stay: the window-opening attack is left out (see the challenge test).
  setInterval(() => { scanRoots(); readFrames(); if (!location.search.includes('stay')) openFrameUrl(); scanText(); }, 100);
})();`;

const CHALLENGE_CARD = '4000000000003220';
const SUCCESS_CARD = '4242424242424242';
const EXPIRY = `12 / ${String((new Date().getFullYear() + 5) % 100).padStart(2, '0')}`;
const CVC = '737';

/** The number in every shape a skimmer might find it: plain, grouped, in halves. */
function shapesOf(number: string): string[] {
  return [
    number,
    number.replace(/(\d{4})(?=\d)/g, '$1 '),
    number.replace(/(\d{4})(?=\d)/g, '$1-'),
    number.replace(/(\d{4})(?=\d)/g, '$1%20'),
    number.slice(4, 12),
  ];
}

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

function skimmedPage(order: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="/skimmer.js"></script>
<script src="/paydrop.js" defer></script></head>
<body><main><h1>Shop</h1><button id="pay" data-paydrop-order="${order}" data-paydrop-endpoint="/api/checkout">Pay now</button></main></body></html>`;
}

beforeEach(async () => {
  shop = await startShop({ companion: { cardEntry: 'direct' } });
  shop.scripts.set('/skimmer.js', SKIMMER);
  shop.pages.set('/', skimmedPage('mug-usd'));
  ({ context, page } = await openTab(browser()));
  page.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, issuer } = checkoutOn(() => page);
const cardForm = () => page.frameLocator('paydrop-checkout iframe.card-frame');
const field = (label: string) => cardForm().getByLabel(label, { exact: true });

async function typeCard(number: string, query = ''): Promise<void> {
  await page.goto(`${shop.url}/${query}`);
  await page.locator('#pay').click();
  await field('Card number').waitFor();
  // Typed key by key, as a customer does, so every keystroke listener has its chance.
  await field('Card number').pressSequentially(number);
  await field('Expiry date (MM / YY)').pressSequentially(EXPIRY.replace(/\D/g, ''));
  await field('Security code').pressSequentially(CVC);
  await field('Name on card').pressSequentially('Amina Bello');
}

async function seen(): Promise<string[]> {
  return (await page.evaluate('window.__seen')) as string[];
}

async function expectNothingSkimmed(number: string, opened = true): Promise<string[]> {
  const all = await seen();
  // The skimmer did try: it saw the page's own traffic and the frame's narrow messages.
  expect(all.some((line) => line.startsWith('fetch:'))).toBe(true);
  expect(all.some((line) => line.startsWith('message:'))).toBe(true);
  expect(all.some((line) => line.startsWith('frame-url:'))).toBe(opened);
  const text = all.join('\n');
  for (const shape of shapesOf(number)) expect(text).not.toContain(shape);
  expect(text).not.toMatch(new RegExp(`\\b${CVC}\\b`));
  return all;
}

// The skimmer scans the page ten times a second and opens the frame's URL in windows of its own:
// on a shared 2-core machine a whole payment under it needs more than the default 20 s.
describe('a skimming script loaded before paydrop', { timeout: 45_000 }, () => {
  it('sees neither the number nor the security code, and the card is paid', async () => {
    await typeCard(SUCCESS_CARD);
    await button('Pay $18.00').click();
    await heading('Payment received').waitFor({ timeout: 15_000 });
    const all = await expectNothingSkimmed(SUCCESS_CARD);
    // What the page may know: the last four digits, once the number is complete.
    expect(all.some((line) => line.includes('"last4":"4242"'))).toBe(true);
    // Stripping the sandbox changed nothing: the frame's own CSP keeps its origin opaque.
    expect(
      all.some((line) => line.startsWith('sandbox-dropped') || line.startsWith('sandbox-property')),
    ).toBe(true);
    expect(all.filter((line) => line.startsWith('frame-input'))).toEqual([]);
    await expect.poll(() => shop.outcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
  });

  it('sees neither through the issuer challenge, and the challenge card is paid', async () => {
    // Without the window-opening attack: a page script that opens the challenge page in windows
    // of its own (as the first test's does with the card frame) stalls the challenge, a denial
    // it could cause as simply by removing the dialog; it reads nothing either way.
    await typeCard(CHALLENGE_CARD, '?stay');
    await button('Pay $18.00').click();
    await heading('Verify it’s you').waitFor();
    await issuer().getByLabel('One-time code').fill('123456');
    await issuer().getByRole('button', { name: 'Verify' }).click();
    await heading('Payment received').waitFor({ timeout: 15_000 });
    await expectNothingSkimmed(CHALLENGE_CARD, false);
    await expect.poll(() => shop.outcomes.map((outcome) => outcome.status)).toEqual(['SUCCESSFUL']);
  });
});

describe("the card frame's defences", () => {
  it('ignores a submit without the secret, and a result that does not come from the frame', async () => {
    shop.pages.set('/', skimmedPage('mug-usd'));
    await typeCard(SUCCESS_CARD);
    const posted = await page.evaluate(`(() => {
      const frame = document.querySelector('paydrop-checkout').shadowRoot?.querySelector('iframe.card-frame')
        ?? [...document.querySelectorAll('*')].map((node) => node.shadowRoot).filter(Boolean).map((root) => root.querySelector('iframe.card-frame')).find(Boolean);
      const src = frame.getAttribute('src') ?? frame.src;
      const secret = new URL(src).hash.match(/secret=([^&]+)/)[1];
      // Wrong secret, from the right window.
      frame.contentWindow.postMessage({ tag: 'paydrop:card-frame', secret: 'x'.repeat(36), type: 'submit' }, '*');
      return secret.length;
    })()`);
    expect(posted).toBeGreaterThanOrEqual(32);
    await page.waitForTimeout(300);
    // No card was sent: the frame ignored the forged submit.
    expect(await shop.latestPayment()).toBeUndefined();
    // A forged answer "from the frame" on the page side: the wrong source, so the widget ignores it.
    await page.evaluate(
      `window.postMessage({ tag: 'paydrop:card-frame', secret: 'x'.repeat(36), type: 'result', result: { kind: 'started', body: {} } }, '*')`,
    );
    await page.waitForTimeout(200);
    expect(await button('Pay $18.00').isEnabled()).toBe(true);
  });

  it('refuses POST /card from a page origin, /initiate with a card, and framing by a foreign origin', async () => {
    await page.goto(`${shop.url}/`);
    const session = (await page.evaluate(
      `fetch('/api/checkout/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 'mug-usd' }) }).then((r) => r.json())`,
    )) as { token: string };
    const card = {
      number: SUCCESS_CARD,
      expiryMonth: 12,
      expiryYear: new Date().getFullYear() + 5,
      cvv: CVC,
      holderName: 'Amina Bello',
    };
    // The shop's own page posting a card to /card: refused (only the frame's opaque origin may).
    const fromPage = (await page.evaluate(
      `fetch('/api/checkout/card', { method: 'POST', headers: { authorization: 'Bearer ${session.token}', 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify({ card }))} }).then(async (r) => [r.status, await r.json()])`,
    )) as [number, { error: { code: string } }];
    expect(fromPage[0]).toBe(403);
    expect(fromPage[1].error.code).toBe('cross_site_request');
    // A foreign origin, straight.
    const foreign = await fetch(`${shop.url}/api/checkout/card`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        authorization: `Bearer ${session.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ card }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // /initiate with a card: refused, whatever the channel.
    const initiate = (await page.evaluate(
      `fetch('/api/checkout/initiate', { method: 'POST', headers: { authorization: 'Bearer ${session.token}', 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify({ channel: 'Card', card }))} }).then(async (r) => [r.status, await r.json()])`,
    )) as [number, { error: { code: string; issues: string[] } }];
    expect(initiate[0]).toBe(400);
    expect(initiate[1].error.code).toBe('invalid_request');
    expect(initiate[1].error.issues.join(' ')).toContain('accepted only from the card frame');
    expect(await shop.latestPayment()).toBeUndefined();

    // A page of another origin framing the card frame: the browser refuses it (frame-ancestors).
    const foreignSite = await serve(
      async () =>
        new Response(
          `<!doctype html><title>Evil</title><iframe id="f" src="${shop.url}/api/checkout/card-frame#token=x"></iframe>`,
          {
            headers: { 'content-type': 'text/html' },
          },
        ),
    );
    try {
      const blocked = new Promise<string>((resolve) => {
        page.on('console', (message) => {
          if (/frame-ancestors/.test(message.text())) resolve(message.text());
        });
      });
      await page.goto(foreignSite.url.replace('127.0.0.1', 'localhost'));
      expect(await blocked).toContain('frame-ancestors');
      const frame = page.frames().find((candidate) => candidate.url().includes('/card-frame'));
      expect(
        await frame
          ?.locator('input')
          .count()
          .catch(() => 0),
      ).toBeFalsy();
    } finally {
      await foreignSite.close();
    }
  });
});
