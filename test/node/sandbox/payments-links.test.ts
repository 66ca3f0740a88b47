/**
 * Payment links (endpoint 1) and payments made on them: the link's answer as the provider spells
 * it, its hosted page, one-time versus reusable, static amounts, unknown aliases.
 */
import { describe, expect, it } from 'vitest';
import { call, cardInitiation, sandboxPerTest, TRANSFER_INITIATION } from '../../helpers/sandbox';

const LINK = '/api/payment/payment-link';
const INITIATE = '/api/payment/pay/initiate';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

const sandbox = sandboxPerTest();

const STATIC_ONE_TIME = {
  name: 'Invoice 1042',
  description: 'Two bags of rice',
  linkType: 0,
  amountType: 0,
  currencyCode: 'NGN',
  amountInfo: { currencyCode: 'NGN', amount: 5000 },
};

const DYNAMIC_REUSABLE = {
  name: 'Donations',
  description: 'Give what you like',
  linkType: 1,
  amountType: 1,
  currencyCode: 'NGN',
};

async function createLink(body: unknown) {
  const answer = await call(sandbox, 'POST', LINK, body);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.isSuccess).toBe(true);
  expect(typeof answer.body.message).toBe('string');
  return answer.body.value;
}

function initiateOn(alias: string, overrides: Record<string, unknown> = {}) {
  return call(sandbox, 'POST', INITIATE, {
    ...TRANSFER_INITIATION,
    amount: 5000,
    link: { alias },
    ...overrides,
  });
}

async function payOn(alias: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await initiateOn(alias, overrides);
  expect(answer.status, answer.text).toBe(200);
  const reference = answer.body.value.paymentItem.paymentReference as string;
  const paid = await call(sandbox, 'POST', `/__sandbox/payments/${reference}/transfer`, {});
  expect(paid.status).toBe(200);
  const status = await call(sandbox, 'GET', `/api/payment/pay/status/${reference}`);
  expect(status.body.value.paymentStatus).toBe('Successfull');
  return reference;
}

async function paymentCount(): Promise<number> {
  return ((await call(sandbox, 'GET', '/__sandbox/payments')).body.payments as unknown[]).length;
}

describe('creating a link', () => {
  it('answers a one-time static link as the provider does', async () => {
    const before = Date.now();
    const link = await createLink(STATIC_ONE_TIME);
    expect(link.id).toMatch(UUID);
    expect(link.name).toBe('Invoice 1042');
    expect(link.description).toBe('Two bags of rice');
    expect(typeof link.alias).toBe('string');
    expect(link.alias.length).toBeGreaterThan(0);
    expect(link.amountInfo).toEqual({ currencyCode: 'NGN', amount: 5000 });
    expect(link.linkType).toBe('OneTime');
    expect(link.status).toBe('New');
    expect(link.environment).toBe('Test');
    expect(link.createdDate).toMatch(ISO_WITH_OFFSET);
    expect(Math.abs(Date.parse(link.createdDate) - before)).toBeLessThan(10_000);
    expect(link.link.startsWith(`${sandbox.url}/`)).toBe(true);
    expect(link.link).toContain(link.alias);
  });

  it("spells a reusable link's type Reuseable", async () => {
    const link = await createLink(DYNAMIC_REUSABLE);
    expect(link.linkType).toBe('Reuseable');
    expect(link.status).toBe('New');
    expect(link.environment).toBe('Test');
  });

  it('gives two links two aliases and two ids', async () => {
    const first = await createLink(STATIC_ONE_TIME);
    const second = await createLink(STATIC_ONE_TIME);
    expect(second.alias).not.toBe(first.alias);
    expect(second.id).not.toBe(first.id);
  });

  it('needs amountInfo for a static link', async () => {
    const { amountInfo: _, ...withoutAmount } = STATIC_ONE_TIME;
    const answer = await call(sandbox, 'POST', LINK, withoutAmount);
    expect(answer.status).toBe(400);
    expect(answer.body.isSuccess).toBe(false);
    expect(answer.body.type).toBe('ValidationException');
    expect((answer.body.failures as string[]).some((text) => /amountInfo/.test(text))).toBe(true);
  });
});

describe('the hosted page', () => {
  it('serves HTML with the name and the amount', async () => {
    const link = await createLink(STATIC_ONE_TIME);
    const page = await fetch(link.link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Invoice 1042');
    expect(html).toContain('5,000.00');
  });

  it('escapes markup in the name and the description', async () => {
    const name = '<script>alert("pwned")</script> & <b>Co</b>';
    const description = '<img src=x onerror=alert(1)>';
    const link = await createLink({ ...DYNAMIC_REUSABLE, name, description });
    expect(link.name).toBe(name);
    const html = await (await fetch(link.link)).text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>Co</b>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(');
    expect(html).toContain('&amp; &lt;b&gt;Co&lt;/b&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('answers 404 for an unknown alias', async () => {
    const page = await fetch(`${sandbox.url}/pages/link/nosuchalias`);
    expect(page.status).toBe(404);
  });
});

describe('paying on a link', () => {
  it('takes one payment on a one-time link and refuses the next initiation with 409', async () => {
    const link = await createLink(STATIC_ONE_TIME);
    await payOn(link.alias);
    const again = await initiateOn(link.alias);
    expect(again.status).toBe(409);
    expect(again.body.isSuccess).toBe(false);
    expect(await paymentCount()).toBe(1);
    const html = await (await fetch(link.link)).text();
    expect(html).toMatch(/paid/i);
  });

  it('refuses a card initiation too once a one-time link is paid', async () => {
    const link = await createLink(STATIC_ONE_TIME);
    await payOn(link.alias);
    const card = await call(sandbox, 'POST', INITIATE, {
      ...cardInitiation('4242424242424242'),
      amount: 5000,
      link: { alias: link.alias },
    });
    expect(card.status).toBe(409);
  });

  it('pays a one-time link by card through authenticate and finalize', async () => {
    const link = await createLink(STATIC_ONE_TIME);
    const initiated = await call(sandbox, 'POST', INITIATE, {
      ...cardInitiation('4242424242424242'),
      amount: 5000,
      link: { alias: link.alias },
    });
    expect(initiated.status, initiated.text).toBe(200);
    const reference = initiated.body.value.paymentItem.paymentReference as string;
    await call(sandbox, 'GET', `/api/payment/pay/authenticate/${reference}`);
    const finalized = await call(sandbox, 'POST', '/api/payment/pay/finalize', {
      paymentReference: reference,
    });
    expect(finalized.body.value.status).toBe('Successfull');
    expect((await initiateOn(link.alias)).status).toBe(409);
  });

  it('takes two successful payments on a reusable link, of different amounts', async () => {
    const link = await createLink(DYNAMIC_REUSABLE);
    await payOn(link.alias, { amount: 100 });
    await payOn(link.alias, { amount: 250.75 });
    const third = await initiateOn(link.alias, { amount: 10 });
    expect(third.status).toBe(200);
  });

  it('takes two payments on a reusable static link', async () => {
    const link = await createLink({ ...STATIC_ONE_TIME, linkType: 1 });
    await payOn(link.alias);
    await payOn(link.alias);
  });

  it('refuses a different amount on a static link, and creates nothing', async () => {
    const link = await createLink(STATIC_ONE_TIME);
    const answer = await initiateOn(link.alias, { amount: 4999.99 });
    expect(answer.status).toBe(400);
    expect(answer.body.isSuccess).toBe(false);
    expect(answer.body.type).toBe('ValidationException');
    expect((answer.body.failures as string[]).some((text) => /^amount\b/.test(text))).toBe(true);
    expect(await paymentCount()).toBe(0);
  });

  it("refuses a currency other than the link's, and creates nothing", async () => {
    const link = await createLink({ ...STATIC_ONE_TIME, linkType: 1 });
    const answer = await call(sandbox, 'POST', INITIATE, {
      ...cardInitiation('4242424242424242', 'USD'),
      amount: 5000,
      link: { alias: link.alias },
    });
    expect(answer.status).toBe(400);
    expect((answer.body.failures as string[]).some((text) => /currency/.test(text))).toBe(true);
    expect(await paymentCount()).toBe(0);
  });

  it('answers 404 for an unknown alias, and creates nothing', async () => {
    const answer = await initiateOn('nosuchalias');
    expect(answer.status).toBe(404);
    expect(answer.body.isSuccess).toBe(false);
    expect(await paymentCount()).toBe(0);
  });
});
