/**
 * axe-core over every state a customer can reach, in English and French, light and dark, at 320
 * and 1280 px (issue 12, item 8): the channel list, the card form empty and with its errors, a
 * declined card, the bank's screen, the transfer's account, "leave?", confirming, received, the
 * expired account, a bank's decline, a transfer short, a lost connection and an account the
 * provider expired on its own clock. Zero violations of impact moderate or above. Set
 * SHOTS=<folder> to keep a screenshot of each state for a person to look at. Run
 * `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { cardMessagesEn, cardMessagesFr } from '../../src/widget/channels/card/messages';
import { en, type Messages } from '../../src/widget/messages/en';
import { fr } from '../../src/widget/messages/fr';
import { outcomeMessagesEn, outcomeMessagesFr } from '../../src/widget/outcomes/messages';
import { AXE_PATH, axeFindings } from '../helpers/axe-page';
import { checkoutOn, keepScreenshot, openTab, useChromium } from '../helpers/page';
import { DEFAULT_ORDERS, type Shop, startShop } from '../helpers/shop';

const TOTE = DEFAULT_ORDERS['tote-ngn'] ?? { amountMinor: 2_500_050, currency: 'NGN' };

const SERIOUS = ['moderate', 'serious', 'critical'];

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

function shopPage(order: string, locale: 'en' | 'fr'): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/paydrop.js" defer></script></head>
<body><main><h1>Shop</h1><button id="pay" data-paydrop-order="${order}" data-paydrop-endpoint="/api/checkout" data-paydrop-locale="${locale}">Pay</button></main></body></html>`;
}

const checkout = checkoutOn(() => page);

/** What the copy button of the `index`th detail names (French: « le numéro de compte »). */
function copyName(messages: Messages, index: number): string {
  const terms = [
    messages.amountLabel,
    messages.accountNumberLabel,
    messages.bankLabel,
    messages.accountNameLabel,
  ];
  return messages.copyNames.split('|')[index] || (terms[index] ?? '');
}
const { heading, button } = checkout;

/** A state's findings of impact moderate or above, each prefixed with the state's name. */
async function moderateFindings(state: string): Promise<string[]> {
  const found = await axeFindings(page, state, { impacts: SERIOUS, iframes: false });
  return found.map((finding) => `${finding.impact} ${finding.id} ${finding.targets.join(' ')}`);
}

async function openOn(path: string): Promise<void> {
  if (!shop) throw new Error('no shop');
  await page.goto(`${shop.url}${path}`);
  await page.addScriptTag({ path: AXE_PATH });
  await page.locator('#pay').click();
}

/**
 * The looks each state is checked in. The walk itself runs in the first; each state is then
 * looked at in every one by switching the page's colour scheme and width in place, so one walk
 * per language covers all four (eight walks, one per look, took four times as long).
 */
const LOOKS = [
  { colorScheme: 'light', width: 320 },
  { colorScheme: 'dark', width: 320 },
  { colorScheme: 'light', width: 1280 },
  { colorScheme: 'dark', width: 1280 },
] as const;
const [WALKED_IN] = LOOKS;

async function lookAs(look: (typeof LOOKS)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: look.colorScheme });
  await page.setViewportSize({ width: look.width, height: 800 });
  // Two frames: the new media queries' styles and layout are in before axe reads them.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

for (const locale of ['en', 'fr'] as const) {
  const messages = locale === 'fr' ? fr : en;
  const card = locale === 'fr' ? cardMessagesFr : cardMessagesEn;
  const ending = locale === 'fr' ? outcomeMessagesFr : outcomeMessagesEn;
  describe(locale, () => {
    it('finds nothing of moderate impact or above in any state, light and dark, at 320 and 1280 px', async () => {
      shop = await startShop({
        csp: null,
        companion: { cardEntry: 'direct' },
        // A second tote, for the account that expires after the first is paid.
        orders: {
          ...DEFAULT_ORDERS,
          'tote-later': { ...TOTE, description: 'Adire tote bag' },
          // One more tote each for the short transfer, the lost connection and the account
          // the provider expires on its own clock (issue 12).
          'tote-short': { ...TOTE, description: 'Adire tote bag' },
          'tote-lost': { ...TOTE, description: 'Adire tote bag' },
          'tote-provider': { ...TOTE, description: 'Adire tote bag' },
        },
      });
      for (const order of ['tote-short', 'tote-lost', 'tote-provider']) {
        shop.pages.set(`/${order}`, shopPage(order, locale));
      }
      shop.pages.set('/transfer', shopPage('tote-ngn', locale));
      shop.pages.set('/gbp', shopPage('scarf-gbp', locale));
      shop.pages.set('/bank', shopPage('scarf-bank', locale));
      shop.pages.set('/later', shopPage('tote-later', locale));
      ({ context, page } = await openTab(browser(), {
        colorScheme: WALKED_IN.colorScheme,
        viewport: { width: WALKED_IN.width, height: 800 },
        permissions: ['clipboard-read', 'clipboard-write'],
      }));
      const findings: string[] = [];
      /** The state in every look, then back to the walk's; `again` renews a passing state. */
      const look = async (state: string, again?: () => Promise<void>) => {
        for (const each of LOOKS) {
          await lookAs(each);
          await again?.();
          const name = `${locale}-${each.colorScheme}-${each.width}-${state}`;
          findings.push(...(await moderateFindings(name)));
          await keepScreenshot(page, name);
        }
        await lookAs(WALKED_IN);
      };
      const stepHeading = () => page.locator('paydrop-checkout .body h3').first();

      // The card form is the card frame's (issue 19); Pay is the step's, outside it.
      const cardField = (label: string) =>
        page.frameLocator('paydrop-checkout iframe.card-frame').getByLabel(label, { exact: true });
      const pay = () => page.locator('paydrop-checkout .card-step .actions button.primary');

      // The channel list, the card form, its errors, a declined card.
      await openOn('/gbp');
      await heading(messages.chooseMethod).waitFor();
      await look('1-channels');
      await button(messages.channelCard).click();
      await cardField(card.numberLabel).waitFor();
      await look('2-card');
      await pay().click();
      await page
        .frameLocator('paydrop-checkout iframe.card-frame')
        .getByText(card.numberIncomplete)
        .waitFor();
      await look('3-card-errors');
      const expiry = `12${(new Date().getFullYear() + 5) % 100}`;
      await cardField(card.numberLabel).fill('4000000000000002');
      await cardField(card.expiryLabel).fill(expiry);
      await cardField(card.cvcLabel).fill('123');
      await cardField(card.nameLabel).fill('Ada Obi');
      await pay().click();
      await page.locator('paydrop-checkout .mark.bad').waitFor({ timeout: 10_000 });
      await look('4-card-declined');
      // Each card failure says why: not enough funds, an expired card (the sandbox's cards).
      for (const [number, state] of [
        ['4000000000009995', '4-card-insufficient'],
        ['4000000000000069', '4-card-expired'],
      ] as const) {
        await button(messages.tryAgain).click();
        // A new card frame each time: nothing of the last card comes back.
        await cardField(card.numberLabel).waitFor();
        await cardField(card.numberLabel).fill(number);
        await cardField(card.expiryLabel).fill(expiry);
        await cardField(card.cvcLabel).fill('123');
        await cardField(card.nameLabel).fill('Ada Obi');
        await pay().click();
        await page.locator('paydrop-checkout .mark.bad').waitFor({ timeout: 10_000 });
        await look(state);
      }

      // The bank's screen.
      await openOn('/bank');
      await heading(messages.bankTitle).waitFor();
      await look('5-bank');

      // The transfer: the account, "leave?", confirming, received.
      await openOn('/transfer');
      await page.locator('paydrop-checkout .account').waitFor();
      await look('6-account');
      await button(messages.copyLabel.replace('{what}', copyName(messages, 1))).click();
      // "Copied" shows for two seconds: copied again in each look (the account number's row).
      await look('7-copied', () =>
        page.locator('paydrop-checkout .row').nth(1).locator('button.copy').click(),
      );
      await button(messages.close).click();
      await heading(messages.leaveTitle).waitFor();
      await look('8-leave');
      await button(messages.stay).click();
      await button(messages.sentMoney).click();
      await checkout.shown(messages.confirmingTitle).waitFor();
      await look('9-confirming');
      const payment = await shop.latestPayment();
      await shop.sandbox('POST', `/__sandbox/payments/${payment?.reference}/transfer`);
      await heading(messages.succeededTitle).waitFor({ timeout: 10_000 });
      await look('10-received');

      // The expired account: the page's clock moves past it.
      await page.clock.install();
      await openOn('/later');
      await page.locator('paydrop-checkout .account').waitFor();
      await page.clock.fastForward('31:00');
      await heading(ending.expiredTitle).waitFor({ timeout: 10_000 });
      await look('11-expired');
      expect(await stepHeading().count()).toBeGreaterThan(0);

      // Declined at the bank (issue 12): the bank's screen, then the customer says no.
      await openOn('/bank');
      await heading(messages.bankTitle).waitFor();
      // The bank payment of step 5, picked up again (the newest payment is a transfer).
      const listed = (await (await shop.sandbox('GET', '/__sandbox/payments')).json()) as {
        payments: Array<{ reference: string; channel: string }>;
      };
      const atBank = listed.payments.findLast((each) => each.channel === 'PayByAccount');
      await shop.sandbox('POST', `/__sandbox/payments/${atBank?.reference}/bank`, {
        approve: false,
      });
      await heading(ending.bankDeclinedTitle).waitFor({ timeout: 10_000 });
      await look('12-bank-declined');

      // A transfer short of the amount: what arrived, what is missing.
      await openOn('/tote-short');
      await page.locator('paydrop-checkout .account').waitFor();
      const short = await shop.latestPayment();
      await shop.sandbox('POST', `/__sandbox/payments/${short?.reference}/transfer`, {
        amount: 20_000,
      });
      await heading(ending.shortTitle).waitFor({ timeout: 10_000 });
      await look('13-transfer-short');

      // The connection to the checkout lost.
      await page.route('**/api/checkout/session', (route) => route.abort());
      await openOn('/tote-lost');
      await checkout.shown(messages.errorNetwork).waitFor({ timeout: 10_000 });
      await look('14-network-lost');
      await page.unroute('**/api/checkout/session');

      // The account the provider expires on its own clock: the expired screen, as above.
      await openOn('/tote-provider');
      await page.locator('paydrop-checkout .account').waitFor();
      await shop.sandbox('POST', '/__sandbox/clock', { advanceSeconds: 31 * 60 });
      await heading(ending.expiredTitle).waitFor({ timeout: 10_000 });
      await look('15-expired-by-provider');

      expect(findings).toEqual([]);
      // Seventeen states, each reached and axed in four looks: longer than one e2e step.
    }, 240_000);
  });
}
