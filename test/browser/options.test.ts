// @vitest-environment jsdom
// The merchant's options to open(): a good set passes untouched, each mistake is a TypeError that
// names the option, and the theme reaches the stylesheet only as custom properties.
import { describe, expect, it } from 'vitest';
import { checkOptions, themeCss } from '../../src/widget/options';

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
  theme: {
    brandColor: '#0a7d5a',
    radius: '12px',
    fontFamily: 'Inter, "Helvetica Neue", sans-serif',
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

  it('CSS colours in their usual forms', () => {
    for (const brandColor of [
      '#fff',
      '#0a7d5aff',
      'rgb(10, 125, 90)',
      'hsl(160 85% 26% / 0.9)',
      'teal',
    ]) {
      expect(() => checkOptions({ ...VALID, theme: { brandColor } }), brandColor).not.toThrow();
    }
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
    ['a theme that is not an object', { endpoint: '/api', order: 'o1', theme: 'dark' }, /"theme"/],
    ['a null theme', { endpoint: '/api', order: 'o1', theme: null }, /"theme"/],
    [
      'CSS injected through the brand colour',
      { endpoint: '/api', order: 'o1', theme: { brandColor: 'red; background:url(x)' } },
      /"theme\.brandColor"/,
    ],
    [
      'a brand colour closing the rule',
      { endpoint: '/api', order: 'o1', theme: { brandColor: 'red} body{display:none' } },
      /"theme\.brandColor"/,
    ],
    [
      'a radius without a unit',
      { endpoint: '/api', order: 'o1', theme: { radius: '10' } },
      /"theme\.radius"/,
    ],
    [
      'a radius with CSS after it',
      { endpoint: '/api', order: 'o1', theme: { radius: '10px; color: red' } },
      /"theme\.radius"/,
    ],
    [
      'a font family with braces',
      { endpoint: '/api', order: 'o1', theme: { fontFamily: 'Inter} :host{display:none' } },
      /"theme\.fontFamily"/,
    ],
    [
      'a font family with a url()',
      { endpoint: '/api', order: 'o1', theme: { fontFamily: 'x;src:url(https://evil.example)' } },
      /"theme\.fontFamily"/,
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

describe('themeCss', () => {
  it('emits only the three custom properties on :host', () => {
    const css = themeCss({
      brandColor: '#0a7d5a',
      radius: '12px',
      fontFamily: 'Inter, sans-serif',
    });
    const body = /^:host \{(.*)\}$/.exec(css)?.[1];
    expect(body).toBeDefined();
    const declarations = (body as string)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean);
    expect(declarations).toEqual([
      '--paydrop-brand: #0a7d5a',
      '--paydrop-radius: 12px',
      '--paydrop-font: Inter, sans-serif',
    ]);
  });

  it('leaves out what is not given, and is empty without a theme', () => {
    expect(themeCss(undefined)).toBe('');
    const css = themeCss({ radius: '0.5rem' });
    expect(css).toContain('--paydrop-radius: 0.5rem;');
    expect(css).not.toContain('--paydrop-brand');
    expect(css).not.toContain('--paydrop-font');
  });

  it('produces one rule, whatever a checked theme holds', () => {
    const theme = checkOptions({
      endpoint: '/api',
      order: 'o1',
      theme: { brandColor: 'rgba(0,0,0,.5)', radius: '100%', fontFamily: "'Noto Sans', serif" },
    }).theme;
    const css = themeCss(theme);
    expect(css.match(/[{}]/g)).toEqual(['{', '}']);
    expect(css).not.toMatch(/url\(|@import|expression/i);
  });
});
