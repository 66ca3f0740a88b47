/**
 * Expiry told truly (issue 12, item 3), in Chromium: the transfer's countdown runs on the
 * provider's clock, which the companion measures from the `Date` of the provider's answers. The
 * sandbox's clock is moved ahead of the companion's (as a provider's may be): a new account still
 * shows its 30 minutes, not 61; when the provider's clock passes the expiry, the customer sees
 * "This account has expired" (not a generic failure), and a new account counts 30 minutes again.
 * Run `npm run build:widget` first.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutOn,
  latestSandboxPayment,
  openTab,
  RECORDER_TAG,
  recordedEvents,
  serveRecorder,
  useChromium,
} from '../helpers/page';
import { buttonPage, type Shop, startShop } from '../helpers/shop';

interface SandboxPayment {
  readonly reference: string;
  readonly status: string;
}

const browser = useChromium();
let shop: Shop;
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  // The provider's clock jumps here, which real clocks do not: every /session must ask the
  // provider (and read its Date) for the jump to be seen, so the validation cache is off.
  shop = await startShop({ companion: { validationCacheMs: 0 } });
  serveRecorder(shop);
  shop.pages.set('/', buttonPage('tote-ngn', RECORDER_TAG));
  ({ context, page } = await openTab(browser()));
});

afterEach(async () => {
  await context?.close();
  await shop?.close();
});

const { heading, button, dialogText } = checkoutOn(() => page);
const timer = () => page.getByRole('timer');

/** "29:58" → 1798, "1:00:59" → 3659 */
function seconds(countdown: string): number {
  return countdown
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

async function moveProviderClock(advanceSeconds: number): Promise<void> {
  const answer = await shop.sandbox('POST', '/__sandbox/clock', { advanceSeconds });
  expect(answer.status).toBe(200);
}

describe("the transfer's countdown on the provider's clock", () => {
  it('counts 30 minutes when the provider is 31 minutes ahead, and shows the expiry the provider decides', async () => {
    // The provider's clock is 31 minutes ahead of the companion's (and of the browser's).
    await moveProviderClock(31 * 60);
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    const first = seconds(await timer().innerText());
    expect(first).toBeGreaterThan(29 * 60 + 45);
    expect(first).toBeLessThanOrEqual(30 * 60);
    const payment = await latestSandboxPayment<SandboxPayment>(shop);

    // Now the provider's clock passes the account's expiry; ours are 30 minutes short of it.
    await moveProviderClock(30 * 60 + 5);
    await heading('This account has expired').waitFor({ timeout: 8000 });
    expect(await dialogText()).toContain('No transfer arrived in time.');
    expect(await heading('Payment not completed').count()).toBe(0);
    expect(await button('Get a new account').isVisible()).toBe(true);
    await expect
      .poll(async () => (await recordedEvents(page)).map((event) => event.type))
      .toEqual(['failure']);
    expect((await recordedEvents(page))[0]?.detail?.code).toBe('expired');
    await expect
      .poll(() => shop.outcomes.map((outcome) => [outcome.reference, outcome.status]))
      .toEqual([[payment.reference, 'FAILED']]);
    expect(shop.outcomes[0]?.reason).toBe('expired');

    // A new account counts its own 30 minutes on the provider's clock, and says what it replaces.
    await button('Get a new account').click();
    await heading('Transfer to this account').waitFor();
    const again = seconds(await timer().innerText());
    expect(again).toBeGreaterThan(29 * 60 + 45);
    expect(again).toBeLessThanOrEqual(30 * 60);
    expect(await dialogText()).toContain('This is a new account.');
  });

  it("counts the time that is left on the provider's clock when a customer comes back", async () => {
    await moveProviderClock(2 * 3600);
    await page.goto(`${shop.url}/`);
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    // Ten minutes pass at the provider only.
    await moveProviderClock(10 * 60);
    await page.reload();
    await page.locator('#pay').click();
    await heading('Transfer to this account').waitFor();
    const left = seconds(await timer().innerText());
    expect(left).toBeGreaterThan(19 * 60 + 45);
    expect(left).toBeLessThanOrEqual(20 * 60);
  });
});
