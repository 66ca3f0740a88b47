/**
 * The demo's back office (issue 14) in Chromium, as a merchant's staff use it: the payout form
 * rendered from each currency's requirements (NGN, GBP, USD), each validation failure on its
 * field with nothing sent, insufficient balance said plainly, an NGN payout watched live to
 * Completed, a failed payout's reason, a reversal appearing, a retry after a lost answer sending
 * one transfer, and the transaction list paged; all under the demo's strict CSP with Trusted
 * Types, without a violation. Staff sign in first (issue 20, item 5): a page without the login
 * gets the login page and its API calls 401, and a DNS-rebinding request sends nothing. One demo
 * server for the file (its state lives in a temporary folder), signed in once (its sign-ins are
 * limited to 5 a minute). Run `npm run build:widget` (or `npx vite build --mode back-office`) first.
 */
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seriousFindingsPastCsp } from '../helpers/axe-page';
import { launchChromium } from '../helpers/browser';
import { type DemoProcess, startDemoProcess } from '../helpers/demo-process';

const RECORDER = `
window.__demo = { violations: [] };
document.addEventListener('securitypolicyviolation', (event) => {
  window.__demo.violations.push(event.violatedDirective + ' ' + event.blockedURI);
}, true);
`;

const PASSWORD = 'e2e back-office password';
const KEY = 'sk_test_back_office_e2e';

let browser: Browser;
/** The staff's signed-in cookies, for every test's context. */
let staff: Awaited<ReturnType<BrowserContext['storageState']>>;
let demo: DemoProcess;
let base: string;
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await launchChromium();
  demo = await startDemoProcess({ BACK_OFFICE_PASSWORD: PASSWORD, PROVIDER_SECRET_KEY: KEY });
  base = demo.url;
  const signing = await browser.newContext();
  const login = await signing.newPage();
  await signIn(login);
  staff = await signing.storageState();
  await signing.close();
});

/** Signs in at the login page the back office sends a stranger to. */
async function signIn(on: Page): Promise<void> {
  await on.goto(`${base}/back-office`);
  expect(new URL(on.url()).pathname).toBe('/back-office/login');
  await on.getByLabel('Password').fill(PASSWORD);
  await on.getByRole('button', { name: 'Sign in' }).click();
  await on.getByLabel('Account name').waitFor();
  expect(new URL(on.url()).pathname).toBe('/back-office');
}

/** Every payout the sandbox made, asked of the sandbox itself (with the key), not the demo. */
async function sandboxPayouts(): Promise<unknown[]> {
  const answer = await fetch(`${base}/sandbox/__sandbox/payouts`, { headers: { 'X-Api': KEY } });
  return (await answer.json()).payouts;
}

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

beforeEach(async () => {
  context = await browser.newContext({
    viewport: { width: 1280, height: 1000 },
    storageState: staff,
  });
  await context.addInitScript(RECORDER);
  problems = [];
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${base}/back-office`);
  await page.getByLabel('Account name').waitFor();
});

afterEach(async () => {
  expect(await page.evaluate('window.__demo.violations')).toEqual([]);
  expect(problems).toEqual([]);
  await context?.close();
});

const amountField = () => page.getByRole('textbox', { name: /^Amount \(/ });

/** The payouts the handler lists (newest first), from the page's own origin. */
async function listedPayouts(): Promise<
  Array<{ reference: string; tenantReference: string; status: string }>
> {
  const answer = await page.request.get(`${base}/api/back-office/payouts?limit=500`);
  return (await answer.json()).payouts;
}

async function fillNgn(
  values: Partial<Record<'amount' | 'name' | 'number' | 'code' | 'narration', string>> = {},
) {
  await amountField().fill(values.amount ?? '1500.50');
  await page.getByLabel('Account name').fill(values.name ?? 'Ada Obi');
  await page.getByLabel('Account number').fill(values.number ?? '0123456789');
  await page.getByLabel('Bank code').fill(values.code ?? '058');
  await page.getByLabel('Narration').fill(values.narration ?? 'Supplier invoice 88');
}

function row(reference: string) {
  return page.locator(`#payouts tr[data-reference="${reference}"]`);
}

async function send(): Promise<string> {
  await page.getByRole('button', { name: 'Send payout' }).click();
  const status = page.locator('.pd-payout-form [role="status"]');
  await expect
    .poll(() => status.textContent())
    .toMatch(/Payout \S+ of .* accepted by the provider/);
  return /Payout (\S+) of/.exec((await status.textContent()) ?? '')?.[1] ?? '';
}

// Under a loaded machine a journey with three settlements can outlast the default 20 s.
describe('the back office', { timeout: 45_000 }, () => {
  it.each([
    ['NGN', 'Bank code', '3 to 6 digits, e.g. 058', 'Account number', '10 digits'],
    ['GBP', 'Sort code', '6 to 8 digits, e.g. 40-47-84', 'Account number', '8 digits'],
    ['USD', 'Routing number', '9 digits, e.g. 021000021', 'Account number', '6 to 17 digits'],
  ])(
    'renders the %s form from its requirements',
    async (currency, routing, routingHint, account, accountHint) => {
      await page.getByLabel('Currency', { exact: true }).first().selectOption(currency);
      await page.getByLabel(routing).waitFor();
      await expect.poll(() => amountField().getAttribute('id')).toBe('payout-amount');
      expect(await page.getByRole('textbox', { name: `Amount (${currency})` }).count()).toBe(1);
      const routingInput = page.getByLabel(routing);
      expect(
        await page.locator(`#${await routingInput.getAttribute('aria-describedby')}`).textContent(),
      ).toBe(routingHint);
      const accountInput = page.getByLabel(account);
      expect(
        await page.locator(`#${await accountInput.getAttribute('aria-describedby')}`).textContent(),
      ).toMatch(accountHint);
      expect(await page.getByLabel('Narration').count()).toBe(1);
    },
  );

  it('is usable from the keyboard alone and has no serious axe finding', async () => {
    expect(await seriousFindingsPastCsp(page, 'back office')).toEqual([]);
    await page.getByLabel('Currency', { exact: true }).first().focus();
    for (const value of ['', '75.25', 'Ada Obi', '0123456789', '058', 'Keyboard only']) {
      if (value) await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    // Tab has reached the submit button; Enter sends.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send payout');
    await page.keyboard.press('Enter');
    const status = page.locator('.pd-payout-form [role="status"]');
    await expect.poll(() => status.textContent()).toMatch(/₦75\.25 accepted by the provider/);
    // After a failure the first field to fix has the focus, and axe still finds nothing serious.
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('payout-amount');
    expect(await seriousFindingsPastCsp(page, 'back office')).toEqual([]);
  });

  it('shows each validation failure on its field, moves focus there, and sends nothing', async () => {
    const before = (await listedPayouts()).length;
    await amountField().fill('12.345');
    await page.getByLabel('Account number').fill('12');
    await page.getByLabel('Bank code').fill('ab');
    await page.getByRole('button', { name: 'Send payout' }).click();
    const expectations: Array<[string, RegExp]> = [
      ['Amount (NGN)', /at most 2 decimals/],
      ['Account name', /Enter the account name/],
      ['Account number', /must be 10 digits/],
      ['Bank code', /must be 3 to 6 digits/],
      ['Narration', /Enter a narration/],
    ];
    for (const [label, message] of expectations) {
      const input = page.getByLabel(label, { exact: true });
      expect(await input.getAttribute('aria-invalid'), label).toBe('true');
      const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ');
      const texts = await Promise.all(ids.map((id) => page.locator(`#${id}`).textContent()));
      expect(texts.join(' '), label).toMatch(message);
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('payout-amount');
    await expect
      .poll(() => page.getByRole('alert').allTextContents())
      .toContainEqual(expect.stringMatching(/Nothing was sent/));
    expect((await listedPayouts()).length).toBe(before);
    // Typing a good value clears its error at once.
    await page.getByLabel('Bank code').fill('058');
    expect(await page.getByLabel('Bank code').getAttribute('aria-invalid')).toBe('false');
  });

  it('says plainly when the balance is not enough, on the amount, and sends nothing', async () => {
    const before = (await listedPayouts()).length;
    await fillNgn({ amount: '20000000.00' });
    await page.getByRole('button', { name: 'Send payout' }).click();
    await expect
      .poll(() => page.getByRole('alert').allTextContents())
      .toContainEqual(
        expect.stringMatching(
          /Your NGN balance is not enough for this payout\. Nothing was sent\./,
        ),
      );
    expect(await amountField().getAttribute('aria-invalid')).toBe('true');
    expect((await listedPayouts()).length).toBe(before);
  });

  it('an NGN payout from the form moves live from Pending to Completed; balances follow', async () => {
    const balance = page.locator('#balances dd[data-currency="NGN"]');
    await balance.waitFor();
    const start = await balance.textContent();
    await fillNgn({ amount: '2500.00' });
    const reference = await send();
    await expect
      .poll(() => row(reference).locator('.status').textContent())
      .toMatch(/Pending|Completed/);
    await expect
      .poll(() => row(reference).locator('.status').textContent(), { timeout: 10_000 })
      .toBe('Completed');
    await expect.poll(() => balance.textContent()).not.toBe(start);
  });

  it("a failed payout shows the provider's reason; a reversal appears live", async () => {
    await fillNgn({ amount: '300.00', number: '0000000000', name: 'Wrong Account' });
    const failed = await send();
    await expect
      .poll(() => row(failed).locator('td.reason').textContent(), { timeout: 10_000 })
      .toBe('Invalid beneficiary account details.');
    expect(await row(failed).locator('.status').textContent()).toBe('Failed');

    await fillNgn({ amount: '400.00' });
    const completed = await send();
    await expect
      .poll(() => row(completed).locator('.status').textContent(), { timeout: 10_000 })
      .toBe('Completed');
    await row(completed)
      .getByRole('button', { name: `Reverse payout ${completed}` })
      .click();
    await expect
      .poll(() => row(completed).locator('.status').textContent(), { timeout: 10_000 })
      .toBe('Reversed');
    expect(await row(completed).locator('td.reason').textContent()).toBe(
      'Returned by the receiving bank.',
    );
  });

  it('the sandbox control sends a payout that fails, and its reason shows', async () => {
    await page
      .getByRole('group', { name: /Sandbox/ })
      .getByRole('button', { name: 'Send a payout that fails' })
      .click();
    const notice = page.locator('#payouts [role="status"]');
    await expect
      .poll(() => notice.textContent())
      .toMatch(/Sent payout (\S+) to account 0000000000/);
    const reference = /Sent payout (\S+) to/.exec((await notice.textContent()) ?? '')?.[1] ?? '';
    await expect
      .poll(() => row(reference).locator('td.reason').textContent(), { timeout: 10_000 })
      .toBe('Invalid beneficiary account details.');
  });

  it('a retry after a lost answer sends one transfer: the same tenantReference twice', async () => {
    const bodies: string[] = [];
    let lost = false;
    await page.route('**/api/back-office/payouts', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      bodies.push(route.request().postData() ?? '');
      if (!lost) {
        lost = true;
        // The request reaches the server (the payout is made), then the answer is lost.
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await fillNgn({ amount: '123.45' });
    const reference = await send();
    expect(bodies).toHaveLength(2);
    const keys = bodies.map((body) => JSON.parse(body).tenantReference);
    expect(keys[0]).toBe(keys[1]);
    const same = (await listedPayouts()).filter((payout) => payout.tenantReference === keys[0]);
    expect(same.map((payout) => payout.reference)).toEqual([reference]);
  });

  it('pages the transaction list, newest first', async () => {
    // Enough transactions for two pages of five, sent through the handler from the page itself.
    for (let i = 0; i < 6; i++) {
      const answer = await page.evaluate(async (n) => {
        const response = await fetch('/api/back-office/payouts', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            tenantReference: `paging-${n}-${crypto.randomUUID()}`,
            amount: { amountMinor: 10_000 + n, currency: 'NGN' },
            narration: `Paging ${n}`,
            paymentMethodType: 'BankCode',
            paymentMethodValue: '058',
            beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
          }),
        });
        return response.status;
      }, i);
      expect(answer).toBe(202);
    }
    await page.reload();
    const pager = page.getByRole('navigation', { name: 'Transaction pages' });
    await expect.poll(() => pager.textContent()).toMatch(/Page 1 of \d+/);
    const rows = async () =>
      (await page.locator('#transactions tbody tr').allTextContents()).map((text) =>
        text.replace(/[\u00a0\u202f]/g, ' '),
      );
    const firstPage = await rows();
    // Five a page, newest first, whatever the provider's oldest-first pages hold.
    expect(firstPage).toHaveLength(5);
    expect(firstPage[0]).toMatch(/₦100\.05/);
    await pager.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => pager.textContent()).toMatch(/Page 2 of/);
    await expect.poll(rows).not.toEqual(firstPage);
    const secondPage = await rows();
    expect(secondPage.length).toBeGreaterThan(0);
    await pager.getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => pager.textContent()).toMatch(/Page 1 of/);
  });

  it('signs in at the login page with the password, sends a payout, and signs out', async () => {
    const fresh = await browser.newContext();
    await fresh.addInitScript(RECORDER);
    const own = await fresh.newPage();
    own.on('pageerror', (error) => problems.push(error.message));
    await own.goto(`${base}/back-office`);
    expect(await own.getByRole('heading', { name: 'Staff sign-in' }).isVisible()).toBe(true);
    await own.getByLabel('Password').fill('not the password');
    await own.getByRole('button', { name: 'Sign in' }).click();
    expect(await own.getByRole('alert').textContent()).toBe('That password is not right.');
    expect(await own.evaluate('window.__demo.violations')).toEqual([]);
    const before = (await sandboxPayouts()).length;
    await signIn(own);
    const cookie = (await fresh.cookies()).find((one) => one.name === 'paydrop_staff');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
    await own.getByRole('textbox', { name: /^Amount \(/ }).fill('42.00');
    await own.getByLabel('Account name').fill('Ada Obi');
    await own.getByLabel('Account number').fill('0123456789');
    await own.getByLabel('Bank code').fill('058');
    await own.getByLabel('Narration').fill('Signed in');
    await own.getByRole('button', { name: 'Send payout' }).click();
    await expect
      .poll(() => own.locator('.pd-payout-form [role="status"]').textContent())
      .toMatch(/accepted by the provider/);
    expect((await sandboxPayouts()).length).toBe(before + 1);
    await own.getByRole('button', { name: 'Sign out' }).click();
    await own.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    expect((await own.request.get(`${base}/api/back-office/payouts`)).status()).toBe(401);
    await fresh.close();
  });

  it('a browser without the login gets the login page, and its direct API POST gets 401', async () => {
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    await other.goto(`${base}/back-office`);
    expect(new URL(other.url()).pathname).toBe('/back-office/login');
    expect(await other.getByLabel('Password').isVisible()).toBe(true);
    expect(await other.getByLabel('Account name').count()).toBe(0);
    const before = await sandboxPayouts();
    const direct = await other.evaluate(async () => {
      const answer = await fetch('/api/back-office/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          tenantReference: 'stranger-payout-0001',
          amount: { amountMinor: 100_000, currency: 'NGN' },
          narration: 'Not staff',
          paymentMethodType: 'BankCode',
          paymentMethodValue: '058',
          beneficiary: { accountName: 'Mallory', accountNumber: '0123456789' },
        }),
      });
      return { status: answer.status, code: (await answer.json()).error?.code };
    });
    expect(direct).toEqual({ status: 401, code: 'unauthorized' });
    expect(await sandboxPayouts()).toEqual(before);
    await stranger.close();
  });

  it('a DNS-rebinding request (Host: rebind.example) sends no payout, even with a staff cookie', async () => {
    const { port } = new URL(base);
    const cookie = (await context.cookies()).find((one) => one.name === 'paydrop_staff');
    expect(cookie).toBeDefined();
    const before = await sandboxPayouts();
    const body = JSON.stringify({
      tenantReference: 'rebinding-payout-0001',
      amount: { amountMinor: 100_000, currency: 'NGN' },
      narration: 'Rebinding',
      paymentMethodType: 'BankCode',
      paymentMethodValue: '058',
      beneficiary: { accountName: 'Mallory', accountNumber: '0123456789' },
    });
    for (const withCookie of [false, true]) {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const sent = httpRequest(
          {
            host: '127.0.0.1',
            port: Number(port),
            path: '/api/back-office/payouts',
            method: 'POST',
            setHost: false,
            headers: {
              host: `rebind.example:${port}`,
              origin: `http://rebind.example:${port}`,
              'sec-fetch-site': 'same-origin',
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...(withCookie ? { cookie: `paydrop_staff=${cookie?.value}` } : {}),
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
      expect(answer.status, `cookie: ${withCookie}`).toBe(403);
      expect(JSON.parse(answer.text).error.code).toBe('host_not_allowed');
    }
    expect(await sandboxPayouts()).toEqual(before);
  });

  it('creates a payment link, lists it and opens it', async () => {
    await page.getByLabel('Link name').fill('Workshop ticket');
    await page.getByLabel('Link amount (empty: the payer chooses)').fill('35.00');
    await page.getByRole('button', { name: 'Create link' }).click();
    const opener = page.getByRole('link', { name: /^Open / });
    await opener.first().waitFor();
    expect(await page.locator('#links tbody tr').first().textContent()).toMatch(
      /Workshop ticket.*£35\.00.*One-time.*New/,
    );
    const [hosted] = await Promise.all([context.waitForEvent('page'), opener.first().click()]);
    await hosted.waitForLoadState();
    expect(hosted.url()).toMatch(/\/pages\/link\//);
    await hosted.close();
  });

  it('lists every link, a page at a time: "Show more links" by keyboard until none are left', async () => {
    // 25 links more, made through the back office's own API with the staff's cookies.
    const total = await page.evaluate(async () => {
      for (let n = 1; n <= 25; n++) {
        const made = await fetch('/api/back-office/links', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Invoice ${n}`, linkType: 'Reusable', currency: 'NGN' }),
        });
        if (made.status !== 201) throw new Error(`link ${n}: ${made.status}`);
      }
      let count = 0;
      let after: string | null = null;
      do {
        const query: string = after ? `?after=${encodeURIComponent(after)}` : '';
        const listed = await (await fetch(`/api/back-office/links${query}`)).json();
        count += listed.links.length;
        after = listed.next;
      } while (after);
      return count;
    });
    expect(total).toBeGreaterThanOrEqual(25);
    await page.reload();
    const rows = page.locator('#links tbody tr');
    await rows.nth(19).waitFor();
    expect(await rows.count()).toBe(20);
    // Newest first: the last link made heads the list.
    expect(await rows.first().textContent()).toMatch(/Invoice 25/);
    const more = page.getByRole('button', { name: 'Show more links' });
    while ((await rows.count()) < total) {
      const shown = await rows.count();
      await more.focus();
      await page.keyboard.press('Enter');
      await rows.nth(Math.min(total, shown + 20) - 1).waitFor();
    }
    expect(await rows.count()).toBe(total);
    await expect.poll(() => more.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

// Keeps the shop's header link honest: the back office is one click from the shop.
it('the shop links to the back office', async () => {
  const shop = await readFile(new URL('../../demo/index.html', import.meta.url), 'utf8');
  expect(shop).toMatch(/<a href="\/back-office">Back office<\/a>/);
});
