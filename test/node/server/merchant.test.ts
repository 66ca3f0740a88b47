// The companion's `merchant` option (issue 23): each bad value is a TypeError naming what is wrong
// when the server starts; a good one rides along with every checkout (`POST /session`, and a paid
// order's refusal), its brand colour only for the schemes where it keeps its contrast.
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutHandler } from '../../../src/server';
import { type CheckoutHandlerOptions, checkOptions } from '../../../src/server/checkout/options';
import { type CompanionRig, companionCall, startCompanion } from '../../helpers/companion';

const BASE: CheckoutHandlerOptions = {
  secretKey: 'sk_test_merchant',
  baseUrl: 'http://127.0.0.1:9/sandbox',
  resolveOrder: () => null,
};

function refusal(merchant: unknown): string {
  try {
    checkOptions({ ...BASE, merchant } as CheckoutHandlerOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(merchant)}`);
}

describe('the merchant option refuses', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['a string instead of an object', 'Adire & Co.', /^merchant must be an object/],
    ['an array', [{ name: 'Adire' }], /^merchant must be an object/],
    ['null', null, /^merchant must be an object/],
    ['no name', { logoUrl: 'https://shop.example/logo.svg' }, /^merchant\.name must be/],
    ['an empty name', { name: '' }, /^merchant\.name .*1 to 80 characters/],
    ['a name of spaces', { name: '   ' }, /^merchant\.name/],
    ['a name of 81 characters', { name: 'x'.repeat(81) }, /^merchant\.name .*1 to 80/],
    ['a number for a name', { name: 42 }, /^merchant\.name/],
    [
      'a logo over http: on a public host',
      { name: 'A', logoUrl: 'http://shop.example/l.png' },
      /^merchant\.logoUrl must be an https: URL.*"http:\/\/shop\.example\/l\.png"/,
    ],
    ['a javascript: logo', { name: 'A', logoUrl: 'javascript:alert(1)' }, /^merchant\.logoUrl/],
    ['a data: logo', { name: 'A', logoUrl: 'data:image/svg+xml,<svg/>' }, /^merchant\.logoUrl/],
    ['a relative logo', { name: 'A', logoUrl: '/logo.svg' }, /^merchant\.logoUrl/],
    [
      'a colour name',
      { name: 'A', brandColor: 'green' },
      /^merchant\.brandColor must be a colour written #rrggbb.*"green"/,
    ],
    ['a short hex colour', { name: 'A', brandColor: '#0a5' }, /^merchant\.brandColor/],
    ['a colour with alpha', { name: 'A', brandColor: '#0a7d5aff' }, /^merchant\.brandColor/],
    ['an rgb() colour', { name: 'A', brandColor: 'rgb(10,125,90)' }, /^merchant\.brandColor/],
    [
      'a misspelt key',
      { name: 'A', logo: 'https://shop.example/l.png' },
      /^merchant has an unknown key "logo"/,
    ],
  ];
  for (const [what, merchant, message] of cases) {
    it(what, () => {
      expect(refusal(merchant)).toMatch(message);
    });
  }

  it('at createCheckoutHandler, before any request', () => {
    expect(() => createCheckoutHandler({ ...BASE, merchant: { name: '' } })).toThrow(TypeError);
  });
});

describe('the merchant option accepts', () => {
  it('a name alone, an https: logo, a loopback http: logo and a #RRGGBB colour', () => {
    for (const merchant of [
      { name: 'Adire & Co.' },
      { name: 'x'.repeat(80), logoUrl: 'https://cdn.shop.example/logo.svg' },
      { name: 'Dev shop', logoUrl: 'http://localhost:3000/logo.svg', brandColor: '#0A7D5A' },
    ]) {
      expect(() => checkOptions({ ...BASE, merchant })).not.toThrow();
    }
  });
});

let rig: CompanionRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function sessionCheckout(merchant?: CheckoutHandlerOptions['merchant']) {
  rig = await startCompanion(merchant ? { merchant } : {});
  const answer = await companionCall(rig, 'POST', '/session', {
    body: { order: `order-gbp:${crypto.randomUUID()}` },
  });
  expect(answer.status).toBe(200);
  return answer.body.checkout;
}

describe('the session answer', () => {
  it('names no merchant when the option is not set', async () => {
    expect(await sessionCheckout()).not.toHaveProperty('merchant');
  });

  it('carries the name (trimmed) and the logo', async () => {
    const checkout = await sessionCheckout({
      name: '  Adire & Co. ',
      logoUrl: 'https://cdn.shop.example/logo.svg',
    });
    expect(checkout.merchant).toEqual({
      name: 'Adire & Co.',
      logoUrl: 'https://cdn.shop.example/logo.svg',
    });
  });

  it('sends a brand colour for each scheme where it keeps its contrast, and only there', async () => {
    // #0a7d5a: white on it 5.13:1, and 3.37:1 against the dark panel: both schemes.
    expect((await sessionCheckout({ name: 'A', brandColor: '#0A7D5A' })).merchant).toEqual({
      name: 'A',
      brandColor: '#0a7d5a',
      brandColorDark: '#0a7d5a',
    });
    await rig?.close();
    // Navy: white on it 15.5:1, but 1.11:1 against the dark panel: light only.
    expect((await sessionCheckout({ name: 'A', brandColor: '#0a2540' })).merchant).toEqual({
      name: 'A',
      brandColor: '#0a2540',
    });
    await rig?.close();
    // Pale yellow: white on it 1.30:1: neither; the checkout keeps its own colour.
    expect((await sessionCheckout({ name: 'A', brandColor: '#ffe066' })).merchant).toEqual({
      name: 'A',
    });
  });

  it('comes with a paid order’s refusal too, so "Already paid" names the merchant', async () => {
    rig = await startCompanion({
      merchant: { name: 'Adire & Co.' },
      resolveOrder: () => ({
        amountMinor: 4_999,
        currency: 'GBP',
        description: 'Merino scarf',
        paid: true,
      }),
    });
    const answer = await companionCall(rig, 'POST', '/session', { body: { order: 'paid-1' } });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('already_paid');
    expect(answer.body.checkout.merchant).toEqual({ name: 'Adire & Co.' });
  });
});
