/**
 * How the checkout looks and reads to the paying customer, in Chromium against the sandbox
 * (issue 12, items 4 to 6): the dialog's language, money with its narrow symbol, the account
 * number grouped 3-3-4 and spelled for screen readers, borders at 3:1 against the dialog in light
 * and dark, the merchant's background and text variables, the card brand beside the number at
 * 320 px, expiry and security code level, and no tab stop on the dialog itself. Contrast is
 * computed here from getComputedStyle, as WCAG 2.2 defines it. Run `npm run build:widget` first.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { cardMessagesEn, cardMessagesFr } from '../../src/widget/channels/card/messages';
import { en } from '../../src/widget/messages/en';
import { fr } from '../../src/widget/messages/fr';
import { checkoutOn, openTab, useChromium } from '../helpers/page';
import { type Shop, startShop } from '../helpers/shop';

// It copies to the clipboard and reads it back: a Chromium of its own (test/helpers/browser.ts).
const browser = useChromium({ ownClipboard: true });
let context: BrowserContext | undefined;
let page: Page;
let shop: Shop | undefined;

afterEach(async () => {
  await context?.close();
  await shop?.close();
  context = undefined;
  shop = undefined;
});

/** A shop page whose pay button opens `order` in `locale`, with the merchant's own `style`. */
function shopPage(order: string, locale: 'en' | 'fr', style = ''): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${style ? `<style>${style}</style>` : ''}
<script src="/paydrop.js" defer></script></head>
<body><main><h1>Shop</h1><button id="pay" data-paydrop-order="${order}" data-paydrop-endpoint="/api/checkout" data-paydrop-locale="${locale}">Pay</button></main></body></html>`;
}

async function setUp(options: BrowserContextOptions = {}, style = ''): Promise<Shop> {
  // No CSP: the theming test's page styles itself inline.
  shop = await startShop({ csp: null, companion: { cardEntry: 'direct' } });
  for (const locale of ['en', 'fr'] as const) {
    shop.pages.set(`/${locale}/transfer`, shopPage('tote-ngn', locale, style));
    shop.pages.set(`/${locale}/gbp`, shopPage('scarf-gbp', locale, style));
  }
  ({ context, page } = await openTab(browser(), options));
  return shop;
}

const checkout = checkoutOn(() => page);
const { heading, button, cardForm, cardField: field, dialog } = checkout;

async function openCheckout(path: string, waitFor: string): Promise<void> {
  if (!shop) throw new Error('setUp first');
  await page.goto(`${shop.url}${path}`);
  await page.locator('#pay').click();
  await heading(waitFor).waitFor();
}

// Contrast, as WCAG 2.2 defines it (relative luminance of sRGB).

/** 'rgb(1, 2, 3)', 'rgba(…)' or 'color(srgb 0.1 0.2 0.3)' as 0-255 channels. */
function channels(color: string): [number, number, number] {
  const numbers = (color.match(/[\d.]+/g) ?? []).map(Number);
  const scale = color.startsWith('color(') ? 255 : 1;
  const [r = 0, g = 0, b = 0] = numbers.map((value) => value * scale);
  return [r, g, b];
}

function luminance(color: string): number {
  const [r, g, b] = channels(color).map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(one: string, other: string): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** A computed style property of each element matching `selector` inside the checkout. */
function computed(selector: string, property: string): Promise<string[]> {
  return page.evaluate(
    ([selector, property]) => {
      const root = document.querySelector('paydrop-checkout')?.shadowRoot;
      return [...(root?.querySelectorAll(selector) ?? [])].map((element) =>
        getComputedStyle(element).getPropertyValue(property),
      );
    },
    [selector, property] as const,
  );
}

async function dialogBackground(): Promise<string> {
  const [background] = await computed('dialog', 'background-color');
  if (!background) throw new Error('no dialog');
  return background;
}

describe('language and numbers', () => {
  it('sets lang="fr" on the French checkout and lang="en" on the English one', async () => {
    await setUp();
    await openCheckout('/fr/transfer', 'Virez sur ce compte');
    expect(await dialog().getAttribute('lang')).toBe('fr');
    await openCheckout('/en/transfer', 'Transfer to this account');
    expect(await dialog().getAttribute('lang')).toBe('en');
  });

  it('shows naira as ₦ in the English checkout, as the shop does', async () => {
    await setUp();
    await openCheckout('/en/transfer', 'Transfer to this account');
    const text = await checkout.dialogText();
    expect(text).toContain('₦25,000.50');
    expect(text).not.toContain('NGN');
  });

  it('names the channels in the customer’s language, without repeating the description', async () => {
    await setUp();
    await openCheckout('/fr/gbp', fr.chooseMethod);
    // Described by its text, through aria-describedby, in the checkout's shadow root.
    expect(
      await button(fr.channelCard).evaluate((element) => {
        const id = element.getAttribute('aria-describedby') ?? '';
        const root = element.getRootNode() as ShadowRoot;
        return root.getElementById(id)?.textContent ?? null;
      }),
    ).toBe(fr.channelCardText);
    expect(
      await page.getByRole('button', { name: fr.channelPayByAccount, exact: true }).count(),
    ).toBe(1);
    expect(await checkout.dialogText()).toContain(fr.channelCardText);
  });

  it('groups the account number 3-3-4, spells it for screen readers, and copies plain digits', async () => {
    await setUp({ permissions: ['clipboard-read', 'clipboard-write'] });
    await openCheckout('/en/transfer', 'Transfer to this account');
    const shown = await page.locator('paydrop-checkout .account').innerText();
    expect(shown).toMatch(/^\d{3} \d{3} \d{4}$/);
    const digits = shown.replaceAll(' ', '');
    const spelled = `${digits.slice(0, 3).split('').join(' ')}, ${digits.slice(3, 6).split('').join(' ')}, ${digits.slice(6).split('').join(' ')}`;
    // What the accessibility tree holds: the digits one by one, not three numbers.
    const tree = await page.locator('paydrop-checkout dl').ariaSnapshot();
    expect(tree).toContain(spelled);
    expect(tree).not.toContain(shown);
    await button('Copy Account number').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(digits);
  });
});

describe('colours', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`gives inputs and secondary buttons 3:1 against the dialog, decorative rules light (${colorScheme})`, async () => {
      await setUp({ colorScheme });
      await openCheckout('/en/gbp', en.chooseMethod);
      const background = await dialogBackground();
      const light = luminance(background) > 0.5;
      expect(light, `dialog ${background}`).toBe(colorScheme === 'light');

      const buttons = await computed('button.secondary', 'border-top-color');
      expect(buttons.length).toBeGreaterThan(1);
      for (const color of buttons) {
        expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(3);
      }
      // The line under the header is decoration (WCAG 1.4.11 does not apply): light, not a
      // wireframe's dark grey (issue 23), yet there.
      const [divider = ''] = await computed('.header', 'border-bottom-color');
      expect(contrast(divider, background), divider).toBeGreaterThan(1.1);
      expect(contrast(divider, background), divider).toBeLessThan(1.6);
      // The backdrop sets the dialog apart: dark and mostly opaque, in either scheme, over this
      // white page: at least 3:1 against a light dialog.
      const backdrop = await dialog().evaluate(
        (element) => getComputedStyle(element, '::backdrop').backgroundColor,
      );
      const alpha = Number(backdrop.match(/[\d.]+(?=\))/)?.[0] ?? 1);
      expect(alpha, backdrop).toBeGreaterThanOrEqual(0.6);
      const over = channels(backdrop).map((value) => Math.round(value * alpha + 255 * (1 - alpha)));
      const onPage = `rgb(${over.join(', ')})`;
      if (colorScheme === 'light') expect(contrast(onPage, background)).toBeGreaterThanOrEqual(3);
      else expect(luminance(onPage)).toBeLessThan(0.15);

      await button(en.channelCard).click();
      await field(cardMessagesEn.numberLabel).waitFor();
      // The inputs are the card frame's (issue 19), over the dialog's background.
      const inputs = await cardForm()
        .locator('input')
        .evaluateAll((elements) =>
          elements.map((element) => getComputedStyle(element).borderTopColor),
        );
      expect(inputs).toHaveLength(4);
      for (const color of inputs) {
        expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(3);
      }
      // The focus ring, around a control the keyboard reached.
      await page.keyboard.press('Tab');
      await cardForm().locator('input:focus-visible').waitFor();
      const ring = await cardForm()
        .locator('input:focus-visible')
        .evaluate((element) => getComputedStyle(element).outlineColor);
      expect(ring).toMatch(/^rgba?\(/);
      expect(contrast(ring ?? '', background)).toBeGreaterThanOrEqual(3);
    });
  }

  it('is dark in dark mode, its text light on it', async () => {
    await setUp({ colorScheme: 'dark' });
    await openCheckout('/en/transfer', 'Transfer to this account');
    const background = await dialogBackground();
    expect(luminance(background)).toBeLessThan(0.05);
    const [text] = await computed('dialog', 'color');
    expect(contrast(text ?? '', background)).toBeGreaterThanOrEqual(7);
    // The account details' panel is dark too.
    const [panel] = await computed('dl', 'background-color');
    expect(luminance(panel ?? '')).toBeLessThan(0.05);
  });

  it('takes the merchant’s --paydrop-background and --paydrop-text', async () => {
    await setUp(
      {},
      'paydrop-checkout { --paydrop-background: #fdf6e3; --paydrop-text: #1b1b3a; --paydrop-brand: #0a7d5a; }',
    );
    await openCheckout('/en/transfer', 'Transfer to this account');
    expect(await dialogBackground()).toBe('rgb(253, 246, 227)');
    expect((await computed('dialog', 'color'))[0]).toBe('rgb(27, 27, 58)');
    expect((await computed('button.primary', 'background-color'))[0]).toBe('rgb(10, 125, 90)');
  });
});

describe('layout', () => {
  for (const width of [320, 360, 1280]) {
    it(`shows the card brand's logo inside the number field, clear of its text, at ${width} px`, async () => {
      await setUp({ viewport: { width, height: 720 } });
      await openCheckout('/fr/gbp', fr.chooseMethod);
      await button(fr.channelCard).click();
      const number = field(cardMessagesFr.numberLabel);
      await number.waitFor();
      // American Express: the longest number grouping.
      await number.pressSequentially('378282246310005');
      await cardForm().locator('.card-brand svg').waitFor();
      const placed = await cardForm()
        .locator('html')
        .evaluate((root) => {
          const input = root.querySelector<HTMLInputElement>('input[name="cardnumber"]');
          const logo = root.querySelector('.card-brand svg');
          if (!input || !logo) throw new Error('no number or logo');
          const box = input.getBoundingClientRect();
          const style = getComputedStyle(input);
          // The text area: the input's box less its border and padding.
          const text = {
            left:
              box.left +
              Number.parseFloat(style.borderLeftWidth) +
              Number.parseFloat(style.paddingLeft),
            right:
              box.right -
              Number.parseFloat(style.borderRightWidth) -
              Number.parseFloat(style.paddingRight),
          };
          const b = logo.getBoundingClientRect();
          return {
            inside:
              b.left >= box.left &&
              b.right <= box.right &&
              b.top >= box.top &&
              b.bottom <= box.bottom,
            clear: b.left >= text.right || b.right <= text.left,
            width: text.right - text.left,
            // The brand in words, for screen readers, is what the field's description names.
            described: root.querySelector(`#${input.getAttribute('aria-describedby')}`)
              ?.textContent,
          };
        });
      expect(placed.inside).toBe(true);
      expect(placed.clear).toBe(true);
      // Room for the whole grouped number: 17 characters of 16 px text.
      expect(placed.width).toBeGreaterThan(150);
      expect(placed.described).toBe(cardMessagesFr.brandAmex);
    });
  }

  it('keeps expiry and security code level when the French expiry label wraps at 320 px', async () => {
    await setUp({ viewport: { width: 320, height: 720 } });
    await openCheckout('/fr/gbp', fr.chooseMethod);
    await button(fr.channelCard).click();
    await field(cardMessagesFr.expiryLabel).waitFor();
    const expiry = await field(cardMessagesFr.expiryLabel).boundingBox();
    const cvc = await field(cardMessagesFr.cvcLabel).boundingBox();
    expect(Math.abs((expiry?.y ?? 0) - (cvc?.y ?? 1))).toBeLessThan(1);
    expect(Math.abs((expiry?.height ?? 0) - (cvc?.height ?? 1))).toBeLessThan(1);
  });

  for (const width of [320, 1280]) {
    it(`never makes the dialog itself a tab stop (${width} px)`, async () => {
      await setUp({ viewport: { width, height: 900 } });
      await openCheckout('/en/transfer', 'Transfer to this account');
      if (width === 1280) {
        // Nothing overflows: the dialog has nothing to scroll, so it is no scroll container to focus.
        const [scroll, client] = await dialog().evaluate((element) => [
          element.scrollHeight,
          element.clientHeight,
        ]);
        expect(scroll).toBeLessThanOrEqual(client ?? 0);
      }
      const stops: string[] = [];
      for (let step = 0; step < 14; step++) {
        await page.keyboard.press('Tab');
        stops.push(
          await page.evaluate(
            () =>
              document.querySelector('paydrop-checkout')?.shadowRoot?.activeElement?.tagName ?? '',
          ),
        );
      }
      expect(stops).not.toContain('DIALOG');
      expect(stops.filter((stop) => stop === 'BUTTON').length).toBeGreaterThan(5);
    });
  }

  it('draws no ring round a heading that took focus, and a 3:1 ring round a control', async () => {
    await setUp();
    await openCheckout('/en/transfer', 'Transfer to this account');
    const focused = await page.evaluate(() => {
      const active = document.querySelector('paydrop-checkout')?.shadowRoot?.activeElement;
      return active ? [active.tagName, getComputedStyle(active).outlineStyle] : [];
    });
    expect(focused).toEqual(['H3', 'none']);
    await page.keyboard.press('Tab');
    const [ring] = await computed('button:focus-visible', 'outline-color');
    const [style] = await computed('button:focus-visible', 'outline-style');
    expect(style).toBe('solid');
    expect(contrast(ring ?? '', await dialogBackground())).toBeGreaterThanOrEqual(3);
  });
});
