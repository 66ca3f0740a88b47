import { describe, expect, it } from 'vitest';
import {
  isKnownCurrency,
  MoneyError,
  minorDigits,
  parseMinorString,
  toMajor,
  toMajorText,
  toMinor,
  toMinorString,
} from '../../../src/protocol';

const TWO_DECIMALS = ['NGN', 'GBP', 'USD', 'EUR', 'CAD', 'GHS', 'KES', 'ZAR'] as const;
const ZERO_DECIMALS = ['JPY', 'XOF', 'XAF'] as const;
const THREE_DECIMALS = ['KWD', 'BHD', 'OMR', 'JOD'] as const;

describe('minorDigits', () => {
  it.each(TWO_DECIMALS)('gives 2 digits for %s', (currency) => {
    expect(minorDigits(currency)).toBe(2);
  });

  it.each(ZERO_DECIMALS)('gives 0 digits for %s', (currency) => {
    expect(minorDigits(currency)).toBe(0);
  });

  it.each(THREE_DECIMALS)('gives 3 digits for %s', (currency) => {
    expect(minorDigits(currency)).toBe(3);
  });

  it.each(['XYZ', 'ngn', 'NGN ', '', 'NAIRA'])('refuses the unknown currency %j', (currency) => {
    expect(() => minorDigits(currency)).toThrow(MoneyError);
  });

  // Object.prototype keys must not pass for currencies: a lookup in a plain object literal finds
  // them, so 'toString' would read as a currency whose digits are a function.
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'refuses the prototype key %j as a currency',
    (currency) => {
      expect(() => minorDigits(currency)).toThrow(MoneyError);
      expect(() => toMinor(2500.5, currency)).toThrow(MoneyError);
    },
  );
});

describe('isKnownCurrency', () => {
  it.each([...TWO_DECIMALS, ...ZERO_DECIMALS, ...THREE_DECIMALS])('knows %s', (currency) => {
    expect(isKnownCurrency(currency)).toBe(true);
  });

  it.each(['XYZ', 'ngn', '', 'toString', 'constructor', '__proto__'])(
    'does not know %j',
    (currency) => {
      expect(isKnownCurrency(currency)).toBe(false);
    },
  );
});

describe('MoneyError', () => {
  it('is a RangeError with a literal name', () => {
    const error = new MoneyError('nope');
    expect(error).toBeInstanceOf(RangeError);
    expect(error.name).toBe('MoneyError');
    expect(error.message).toBe('nope');
  });

  it('is what the conversions throw', () => {
    try {
      toMinor(1.001, 'NGN');
      expect.unreachable('toMinor should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(MoneyError);
      expect((error as MoneyError).name).toBe('MoneyError');
    }
  });
});

describe('toMinor', () => {
  it.each([
    [2500.5, 'NGN', 250050],
    [2500.55, 'NGN', 250055],
    [19.99, 'USD', 1999],
    [19.99, 'GBP', 1999],
    [0.01, 'NGN', 1],
    [0.1, 'USD', 10],
    [0.2, 'USD', 20],
    [0.3, 'USD', 30],
    [1.1, 'GBP', 110],
    [1.15, 'GBP', 115],
    [4.35, 'GBP', 435],
    [8.2, 'USD', 820],
    [0.07, 'NGN', 7],
    [1234567.89, 'NGN', 123456789],
    [0, 'NGN', 0],
    [100, 'NGN', 10000],
    [1500, 'JPY', 1500],
    [0, 'JPY', 0],
    [2500, 'XOF', 2500],
    [1.005, 'KWD', 1005],
    [12.345, 'KWD', 12345],
    [0.001, 'BHD', 1],
    [0.1, 'BHD', 100],
    [7.5, 'BHD', 7500],
  ] as const)('converts %d %s to %d minor units exactly', (major, currency, minor) => {
    expect(toMinor(major, currency)).toBe(minor);
  });

  it('avoids the float trap where multiplying by 100 would be wrong', () => {
    // The naive conversions that these cases break, to show the cases are real traps.
    expect(2500.55 * 100).not.toBe(250055);
    expect(Math.floor(19.99 * 100)).not.toBe(1999);
    expect(Math.floor(1.005 * 1000)).not.toBe(1005);
    expect(Math.floor(4.35 * 100)).not.toBe(435);

    expect(toMinor(2500.55, 'NGN')).toBe(250055);
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(1.005, 'KWD')).toBe(1005);
    expect(toMinor(4.35, 'GBP')).toBe(435);
  });

  it('reads every two-decimal amount from 0.00 to 1000.00 exactly', () => {
    const wrong: string[] = [];
    for (let minor = 0; minor <= 100_000; minor += 1) {
      const text = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
      if (toMinor(Number(text), 'NGN') !== minor) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });

  it('reads every three-decimal amount from 0.000 to 100.000 exactly', () => {
    const wrong: string[] = [];
    for (let minor = 0; minor <= 100_000; minor += 1) {
      const text = `${Math.floor(minor / 1000)}.${String(minor % 1000).padStart(3, '0')}`;
      if (toMinor(Number(text), 'KWD') !== minor) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a computed sum that is not a whole number of minor units (0.1 + 0.2)', () => {
    // 0.1 + 0.2 is 0.30000000000000004: refusing beats silently rounding someone's money.
    expect(() => toMinor(0.1 + 0.2, 'USD')).toThrow(MoneyError);
    // Rounding to the currency's digits first is the caller's explicit choice.
    expect(toMinor(Number((0.1 + 0.2).toFixed(2)), 'USD')).toBe(30);
  });

  it('reads -0 as zero', () => {
    expect(Object.is(toMinor(-0, 'NGN'), 0)).toBe(true);
  });

  it.each([
    ['10.50', 'NGN', 1050],
    ['10.5', 'NGN', 1050],
    ['10', 'NGN', 1000],
    ['2500.55', 'NGN', 250055],
    ['0.00', 'NGN', 0],
    ['1.000', 'JPY', 1],
    ['1.0', 'JPY', 1],
    ['1500', 'JPY', 1500],
    ['12.345', 'KWD', 12345],
    ['1.005', 'KWD', 1005],
    ['1.0050', 'KWD', 1005],
    ['0.001', 'BHD', 1],
    [' 12.50 ', 'GBP', 1250],
  ] as const)(
    'reads the text %j %s as %d (trailing zeros are not precision)',
    (text, currency, minor) => {
      expect(toMinor(text, currency)).toBe(minor);
    },
  );

  it.each([
    [1.001, 'NGN'],
    [2500.555, 'NGN'],
    [0.001, 'USD'],
    [1.5, 'JPY'],
    [0.1, 'XOF'],
    [1.0001, 'KWD'],
    [0.0001, 'BHD'],
  ] as const)('refuses %d %s: more decimals than the currency has', (major, currency) => {
    expect(() => toMinor(major, currency)).toThrow(MoneyError);
  });

  it.each([
    ['1.001', 'NGN'],
    ['1.5', 'JPY'],
    ['1.10', 'JPY'],
    ['1.0001', 'KWD'],
  ] as const)('refuses the text %j %s: more decimals than the currency has', (text, currency) => {
    expect(() => toMinor(text, currency)).toThrow(MoneyError);
  });

  it.each([
    -1,
    -0.01,
    -2500.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1e-7,
    5e-324,
    1e21,
  ])('refuses the number %d', (major) => {
    expect(() => toMinor(major, 'NGN')).toThrow(MoneyError);
  });

  it.each([
    '',
    ' ',
    '-1',
    '-0.01',
    '+1',
    '.5',
    '5.',
    '1,000.00',
    '1 000',
    '1e3',
    '1e-7',
    '1E2',
    '0x10',
    'NaN',
    'Infinity',
    '12.50 NGN',
    '₦100',
    '1..2',
  ])('refuses the text %j', (text) => {
    expect(() => toMinor(text, 'NGN')).toThrow(MoneyError);
  });

  it.each(['XYZ', 'ngn', ''])('refuses the unknown currency %j', (currency) => {
    expect(() => toMinor(10, currency)).toThrow(MoneyError);
    expect(() => toMinor('10', currency)).toThrow(MoneyError);
  });

  it('accepts the largest safe amount and refuses anything beyond it', () => {
    expect(toMinor(Number.MAX_SAFE_INTEGER, 'JPY')).toBe(Number.MAX_SAFE_INTEGER);
    expect(toMinor('90071992547409.91', 'NGN')).toBe(Number.MAX_SAFE_INTEGER);
    expect(toMinor('9007199254740.991', 'KWD')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toMinor('9007199254740992', 'JPY')).toThrow(MoneyError);
    expect(() => toMinor('90071992547409.92', 'NGN')).toThrow(MoneyError);
    expect(() => toMinor(1e20, 'NGN')).toThrow(MoneyError);
  });
});

describe('toMajorText', () => {
  it.each([
    [250050, 'NGN', '2500.50'],
    [250055, 'NGN', '2500.55'],
    [1999, 'USD', '19.99'],
    [7, 'NGN', '0.07'],
    [70, 'GBP', '0.70'],
    [0, 'NGN', '0.00'],
    [100, 'USD', '1.00'],
    [1500, 'JPY', '1500'],
    [0, 'JPY', '0'],
    [2500, 'XOF', '2500'],
    [5, 'KWD', '0.005'],
    [1005, 'KWD', '1.005'],
    [12345, 'BHD', '12.345'],
    [0, 'BHD', '0.000'],
    [Number.MAX_SAFE_INTEGER, 'NGN', '90071992547409.91'],
  ] as const)('writes %d %s as %j', (minor, currency, text) => {
    expect(toMajorText(minor, currency)).toBe(text);
  });

  it.each([1.5, 0.1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])(
    'refuses %d: not a whole number of minor units',
    (minor) => {
      expect(() => toMajorText(minor, 'NGN')).toThrow(MoneyError);
    },
  );

  it('refuses an unknown currency', () => {
    expect(() => toMajorText(100, 'XYZ')).toThrow(MoneyError);
  });
});

describe('toMajor', () => {
  it.each([
    [250050, 'NGN', 2500.5],
    [250055, 'NGN', 2500.55],
    [1999, 'USD', 19.99],
    [1999, 'GBP', 19.99],
    [0, 'NGN', 0],
    [1500, 'JPY', 1500],
    [2500, 'XOF', 2500],
    [5, 'KWD', 0.005],
    [1005, 'KWD', 1.005],
    [12345, 'BHD', 12.345],
  ] as const)('turns %d %s into the number %d', (minor, currency, major) => {
    expect(toMajor(minor, currency)).toBe(major);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d', (minor) => {
    expect(() => toMajor(minor, 'NGN')).toThrow(MoneyError);
  });

  it('refuses an unknown currency', () => {
    expect(() => toMajor(100, 'XYZ')).toThrow(MoneyError);
  });
});

describe('round trips between minor and major units', () => {
  const samples = [0, 1, 5, 10, 99, 100, 101, 1005, 1999, 12345, 250050, 250055, 999_999_999];

  describe.each([...TWO_DECIMALS, ...ZERO_DECIMALS, ...THREE_DECIMALS])('%s', (currency) => {
    it.each(samples)('%d survives toMajor then toMinor', (minor) => {
      expect(toMinor(toMajor(minor, currency), currency)).toBe(minor);
    });

    it.each(samples)('%d survives toMajorText then toMinor', (minor) => {
      expect(toMinor(toMajorText(minor, currency), currency)).toBe(minor);
    });
  });

  it('round trips every NGN amount up to 1000.00 through the number form', () => {
    const wrong: number[] = [];
    for (let minor = 0; minor <= 100_000; minor += 1) {
      if (toMinor(toMajor(minor, 'NGN'), 'NGN') !== minor) wrong.push(minor);
    }
    expect(wrong).toEqual([]);
  });

  it('round trips a fifteen-digit amount through the number form', () => {
    const minor = 999_999_999_999_999;
    expect(toMajor(minor, 'NGN')).toBe(9999999999999.99);
    expect(toMinor(toMajor(minor, 'NGN'), 'NGN')).toBe(minor);
    expect(toMinor(toMajor(minor, 'KWD'), 'KWD')).toBe(minor);
  });

  it('round trips the major text of the largest safe amount', () => {
    for (const currency of ['NGN', 'JPY', 'KWD']) {
      expect(toMinor(toMajorText(Number.MAX_SAFE_INTEGER, currency), currency)).toBe(
        Number.MAX_SAFE_INTEGER,
      );
    }
  });
});

describe('parseMinorString', () => {
  it.each([
    ['150000', 150000],
    ['0', 0],
    ['1', 1],
    ['250050', 250050],
    ['007', 7],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ] as const)('reads %j as %d', (text, minor) => {
    expect(parseMinorString(text)).toBe(minor);
  });

  it.each([
    '',
    ' ',
    '-1',
    '+1',
    '1.5',
    '1.0',
    '1500.00',
    '1e3',
    '0x10',
    ' 150000',
    '150000 ',
    '150,000',
    'NaN',
    'Infinity',
    '１２',
  ])('refuses %j: not a string of digits', (text) => {
    expect(() => parseMinorString(text)).toThrow(MoneyError);
  });

  it.each(['9007199254740992', '99999999999999999999'])(
    'refuses %j: too large to be exact',
    (text) => {
      expect(() => parseMinorString(text)).toThrow(MoneyError);
    },
  );
});

describe('toMinorString', () => {
  it.each([
    [150000, '150000'],
    [0, '0'],
    [1, '1'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ] as const)('writes %d as %j', (minor, text) => {
    expect(toMinorString(minor)).toBe(text);
  });

  it('writes -0 as "0"', () => {
    expect(toMinorString(-0)).toBe('0');
  });

  it.each([
    -1,
    -150000,
    1.5,
    0.1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.MAX_SAFE_INTEGER + 1,
    1e21,
  ])('refuses %d', (minor) => {
    expect(() => toMinorString(minor)).toThrow(MoneyError);
  });

  it.each([0, 1, 150000, 250050, Number.MAX_SAFE_INTEGER])(
    'round trips %d through parseMinorString',
    (minor) => {
      expect(parseMinorString(toMinorString(minor))).toBe(minor);
    },
  );

  it('never writes a sign, a decimal point or an exponent', () => {
    for (const minor of [0, 7, 150000, 1e15, Number.MAX_SAFE_INTEGER]) {
      expect(toMinorString(minor)).toMatch(/^\d+$/);
    }
  });
});
