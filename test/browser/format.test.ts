// @vitest-environment jsdom
// Amounts, account numbers and the countdown as the customer reads them. Expected strings are the
// runtime's own Intl output (Node 20, ICU 78): French groups with a narrow no-break space (U+202F)
// and puts a no-break space (U+00A0) before the currency.
import { describe, expect, it } from 'vitest';
import {
  formatCountdown,
  formatMoney,
  groupDigits,
  plainAmount,
  spokenDigits,
} from '../../src/widget/ui/format';

const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('formatMoney', () => {
  const cases: Array<[string, number, string, string]> = [
    // currency, amountMinor, locale, shown
    ['NGN', 2_500_050, 'en-NG', '₦25,000.50'],
    // The narrow symbol in every locale, as the shop's own page shows it (issue 12).
    ['NGN', 2_500_050, 'en', '₦25,000.50'],
    ['NGN', 2_500_050, 'fr', `25${NNBSP}000,50${NBSP}₦`],
    ['GBP', 123_456, 'en', '£1,234.56'],
    ['GBP', 123_456, 'fr', `1${NNBSP}234,56${NBSP}£`],
    ['USD', 99, 'en', '$0.99'],
    ['USD', 123_456, 'fr', `1${NNBSP}234,56${NBSP}$`],
    ['JPY', 1_500, 'en', '¥1,500'],
    ['JPY', 1_500, 'fr', `1${NNBSP}500${NBSP}¥`],
    ['XOF', 25_000, 'en', `F${NNBSP}CFA${NBSP}25,000`],
    ['XOF', 25_000, 'fr', `25${NNBSP}000${NBSP}F${NNBSP}CFA`],
    ['KWD', 1_500, 'en', `KWD${NBSP}1.500`],
    ['KWD', 1_234_567, 'fr', `1${NNBSP}234,567${NBSP}KWD`],
    ['BHD', 1, 'en', `BHD${NBSP}0.001`],
    ['BHD', 1_234_567, 'fr', `1${NNBSP}234,567${NBSP}BHD`],
  ];
  for (const [currency, amountMinor, locale, shown] of cases) {
    it(`${amountMinor} minor ${currency} in '${locale}' is ${JSON.stringify(shown)}`, () => {
      expect(formatMoney({ amountMinor, currency }, locale)).toBe(shown);
    });
  }

  it('always shows the currency’s own number of decimals, even for whole amounts', () => {
    expect(formatMoney({ amountMinor: 100_000, currency: 'NGN' }, 'en-NG')).toBe('₦1,000.00');
    expect(formatMoney({ amountMinor: 0, currency: 'GBP' }, 'en')).toBe('£0.00');
    expect(formatMoney({ amountMinor: 1_000, currency: 'KWD' }, 'en')).toBe(`KWD${NBSP}1.000`);
    expect(formatMoney({ amountMinor: 1, currency: 'JPY' }, 'en')).toBe('¥1');
  });
});

describe('plainAmount', () => {
  it('is the amount as typed into a banking app: no symbol, no grouping, the currency’s decimals', () => {
    expect(plainAmount({ amountMinor: 2_500_050, currency: 'NGN' })).toBe('25000.50');
    expect(plainAmount({ amountMinor: 1_500, currency: 'KWD' })).toBe('1.500');
    expect(plainAmount({ amountMinor: 1, currency: 'BHD' })).toBe('0.001');
    expect(plainAmount({ amountMinor: 1_500, currency: 'JPY' })).toBe('1500');
    expect(plainAmount({ amountMinor: 25_000, currency: 'XOF' })).toBe('25000');
    expect(plainAmount({ amountMinor: 100, currency: 'GBP' })).toBe('1.00');
    expect(plainAmount({ amountMinor: 5, currency: 'USD' })).toBe('0.05');
  });

  it('stays exact for every cent of a large amount', () => {
    for (const amountMinor of [1_005, 100_000_000_001, 99_999_999_999_999, 123_456_789_012_345]) {
      const text = plainAmount({ amountMinor, currency: 'NGN' });
      expect(text.replace('.', ''), String(amountMinor)).toBe(String(amountMinor).padStart(3, '0'));
    }
  });
});

describe('groupDigits', () => {
  it('groups a NUBAN (10 digits) as 3-3-4, as Nigerian banks print it', () => {
    expect(groupDigits('0123456789')).toBe('012 345 6789');
  });

  it('groups other lengths in fours', () => {
    expect(groupDigits('12345678')).toBe('1234 5678');
    expect(groupDigits('123456789012')).toBe('1234 5678 9012');
    expect(groupDigits('1234567')).toBe('1234 567');
    expect(groupDigits('123456')).toBe('1234 56');
  });

  it('never loses, adds or reorders a digit', () => {
    for (let length = 6; length <= 20; length++) {
      const digits = '90817263544536271809'.slice(0, length);
      const grouped = groupDigits(digits);
      expect(grouped.replaceAll(' ', '')).toBe(digits);
      expect(grouped).not.toMatch(/^ | $| {2}/);
    }
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds under an hour, hours past it', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(61)).toBe('1:01');
    expect(formatCountdown(1_800)).toBe('30:00');
    expect(formatCountdown(3_599)).toBe('59:59');
    expect(formatCountdown(3_600)).toBe('1:00:00');
    expect(formatCountdown(3_661)).toBe('1:01:01');
    expect(formatCountdown(86_399)).toBe('23:59:59');
  });

  it('never shows a negative or fractional time', () => {
    expect(formatCountdown(-5)).toBe('0:00');
    expect(formatCountdown(59.9)).toBe('0:59');
  });
});

describe('spokenDigits', () => {
  it('spells a NUBAN digit by digit, with a pause between its groups', () => {
    expect(spokenDigits('0123456789')).toBe('0 1 2, 3 4 5, 6 7 8 9');
  });

  it('spells other lengths in their groups of four', () => {
    expect(spokenDigits('12345678')).toBe('1 2 3 4, 5 6 7 8');
    expect(spokenDigits('1234567')).toBe('1 2 3 4, 5 6 7');
  });
});
