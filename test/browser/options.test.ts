// @vitest-environment jsdom
// The merchant's options to open(): a good set passes untouched, each mistake is a TypeError that
// names the option. Theming is CSS on the page (custom properties), never an option.
import { describe, expect, it } from 'vitest';
import { checkOptions } from '../../src/widget/options';

const VALID = {
  endpoint: '/api/checkout',
  order: 'order_1042',
  locale: 'en-NG',
  customer: {
    firstName: 'Amina',
    lastName: 'Bello',
    email: 'amina@example.com',
    phone: '+2348000000000',
  },

  messages: { sentMoney: 'Done, I paid' },
  onSuccess: () => {},
  onFailure: () => {},
  onPending: () => {},
  onClose: () => {},
  onEvent: () => {},
};

function refusal(options: unknown): string {
  try {
    checkOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(options)}`);
}

describe('checkOptions accepts', () => {
  it('a full, valid set, returned as given', () => {
    expect(checkOptions(VALID)).toBe(VALID);
  });

  it('the smallest sets: endpoint with an order, or with a link', () => {
    expect(() => checkOptions({ endpoint: '/api/checkout', order: 'A-1' })).not.toThrow();
    expect(() =>
      checkOptions({ endpoint: 'https://shop.example/api', link: 'spring.sale:2025' }),
    ).not.toThrow();
  });
});

describe('checkOptions refuses, naming the option', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['no options at all', undefined, /options object/],
    ['null', null, /options object/],
    ['a string', '/api/checkout', /options object/],
    ['a missing endpoint', { order: 'o1' }, /"endpoint"/],
    ['an empty endpoint', { endpoint: '', order: 'o1' }, /"endpoint"/],
    ['a blank endpoint', { endpoint: '   ', order: 'o1' }, /"endpoint"/],
    ['an endpoint that is not a string', { endpoint: 42, order: 'o1' }, /"endpoint"/],
    ['both order and link', { endpoint: '/api', order: 'o1', link: 'l1' }, /"order".*"link"/],
    ['neither order nor link', { endpoint: '/api' }, /"order".*"link"/],
    ['an order with spaces', { endpoint: '/api', order: 'order 1042' }, /"order"/],
    [
      'an order with markup',
      { endpoint: '/api', order: '<img src=x onerror=alert(1)>' },
      /"order"/,
    ],
    ['an order of 200 characters', { endpoint: '/api', order: 'a'.repeat(200) }, /"order"/],
    ['an empty order', { endpoint: '/api', order: '' }, /"order"/],
    ['an order that is a number', { endpoint: '/api', order: 1042 }, /"order"/],
    ['a link with a slash', { endpoint: '/api', link: '../admin' }, /"link"/],
    ['a malformed locale', { endpoint: '/api', order: 'o1', locale: 'en_US!' }, /"locale"/],
    ['an empty locale', { endpoint: '/api', order: 'o1', locale: '' }, /"locale"/],
    [
      'a theme object: theming is CSS now',
      { endpoint: '/api', order: 'o1', theme: { brandColor: '#0a7d5a' } },
      /"theme" is set in CSS: paydrop-checkout \{ --paydrop-brand/,
    ],
    [
      'CSS injected through a theme',
      { endpoint: '/api', order: 'o1', theme: { brandColor: 'red; background:url(x)' } },
      /"theme"/,
    ],
    [
      'messages that are a string',
      { endpoint: '/api', order: 'o1', messages: 'Pay now' },
      /"messages"/,
    ],
    ['null messages', { endpoint: '/api', order: 'o1', messages: null }, /"messages"/],
    [
      'a message that is not a string',
      { endpoint: '/api', order: 'o1', messages: { close: 42 } },
      /"messages\.close"/,
    ],
    [
      'onSuccess that is not a function',
      { endpoint: '/api', order: 'o1', onSuccess: 'thanks()' },
      /"onSuccess"/,
    ],
    [
      'onFailure that is not a function',
      { endpoint: '/api', order: 'o1', onFailure: {} },
      /"onFailure"/,
    ],
    [
      'onPending that is not a function',
      { endpoint: '/api', order: 'o1', onPending: 1 },
      /"onPending"/,
    ],
    [
      'onClose that is not a function',
      { endpoint: '/api', order: 'o1', onClose: null },
      /"onClose"/,
    ],
    [
      'onEvent that is not a function',
      { endpoint: '/api', order: 'o1', onEvent: true },
      /"onEvent"/,
    ],
    [
      'a customer that is not an object',
      { endpoint: '/api', order: 'o1', customer: 'Amina' },
      /"customer"/,
    ],
    [
      'an unknown customer field',
      { endpoint: '/api', order: 'o1', customer: { address: '1 Marina, Lagos' } },
      /"customer\.address"/,
    ],
    [
      'a customer value that is not a string',
      { endpoint: '/api', order: 'o1', customer: { phone: 2348000000000 } },
      /"customer\.phone"/,
    ],
  ];

  for (const [what, options, names] of cases) {
    it(what, () => {
      const message = refusal(options);
      expect(message.startsWith('Paydrop.open: ')).toBe(true);
      expect(message).toMatch(names);
    });
  }
});
