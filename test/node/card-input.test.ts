// What the card fields make of what a customer types: brand, grouping, expiry in every shape
// people and autofill write it, and the checks that decide what reaches the companion.
import { describe, expect, it } from 'vitest';
import {
  type CardBrand,
  type CardFieldValues,
  cardBrand,
  cardNumberLengths,
  cvcLength,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
  validateCard,
} from '../../src/protocol/card-input';

/** 15 May 2026, midday UTC. */
const NOW = new Date(Date.UTC(2026, 4, 15, 12));

const VALID: CardFieldValues = {
  number: '4242 4242 4242 4242',
  expiry: '12 / 28',
  cvc: '123',
  name: 'Amina Bello',
};

function errorsOf(fields: Partial<CardFieldValues>, now = NOW) {
  const result = validateCard({ ...VALID, ...fields }, now);
  return result.valid ? {} : result.errors;
}

describe('cardBrand', () => {
  it.each<[string, CardBrand]>([
    ['4', 'visa'],
    ['4242424242424242', 'visa'],
    ['51', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2221', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720', 'mastercard'],
    ['34', 'amex'],
    ['37', 'amex'],
    ['378282246310005', 'amex'],
    ['506099', 'verve'],
    ['5061980000000000001', 'verve'],
    ['650002', 'verve'],
    ['650027', 'verve'],
    ['507865', 'verve'],
    ['507964', 'verve'],
    ['6011', 'discover'],
    ['6011111111111117', 'discover'],
    ['644', 'discover'],
    ['649', 'discover'],
    ['651', 'discover'],
    ['650001', 'discover'],
    ['650028', 'discover'],
  ])('%s is %s', (digits, brand) => {
    expect(cardBrand(digits)).toBe(brand);
  });

  it.each([
    ['', 'nothing typed'],
    ['5', 'Mastercard or Verve'],
    ['50', 'maybe Verve'],
    ['5060', 'maybe Verve'],
    ['506098', 'just below Verve'],
    ['506199', 'just above Verve'],
    ['56', 'no brand of ours'],
    ['2', 'maybe Mastercard'],
    ['2220', 'below the 2-series'],
    ['2721', 'above the 2-series'],
    ['6', 'maybe Discover or Verve'],
    ['65', 'Discover or Verve (650002–650027)'],
    ['6500', 'Discover or Verve'],
    ['65002', 'Discover or Verve'],
    ['643', 'below 644'],
    ['6012', 'not 6011'],
    ['3', 'maybe Amex'],
    ['35', 'no brand of ours'],
    ['1234', 'no brand of ours'],
  ])('%s is not settled (%s)', (digits) => {
    expect(cardBrand(digits)).toBeNull();
  });

  it('is settled as soon as the digits rule Verve out', () => {
    expect(cardBrand('65003')).toBe('discover');
    expect(cardBrand('5060')).toBeNull();
    expect(cardBrand('5061')).toBeNull();
    expect(cardBrand('5062')).toBeNull();
    expect(cardBrand('51')).toBe('mastercard');
  });

  it('ignores spaces and dashes', () => {
    expect(cardBrand('3782 822463 10005')).toBe('amex');
    expect(cardBrand('5060-9905-8000')).toBe('verve');
  });
});

describe('cardNumberLengths', () => {
  it('gives each brand its lengths, shortest first', () => {
    expect(cardNumberLengths('visa')).toEqual([13, 16, 19]);
    expect(cardNumberLengths('mastercard')).toEqual([16]);
    expect(cardNumberLengths('amex')).toEqual([15]);
    expect(cardNumberLengths('verve')).toEqual([16, 18, 19]);
    expect(cardNumberLengths('discover')).toEqual([16, 17, 18, 19]);
  });

  it('allows 12 to 19 digits, as the companion does, when the brand is unknown', () => {
    expect(cardNumberLengths(null)).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
  });
});

describe('formatCardNumber', () => {
  it('groups in fours as the customer types', () => {
    const typed = '4242424242424242';
    const shown = [...typed].map((_, index) => formatCardNumber(typed.slice(0, index + 1)));
    expect(shown).toEqual([
      '4',
      '42',
      '424',
      '4242',
      '4242 4',
      '4242 42',
      '4242 424',
      '4242 4242',
      '4242 4242 4',
      '4242 4242 42',
      '4242 4242 424',
      '4242 4242 4242',
      '4242 4242 4242 4',
      '4242 4242 4242 42',
      '4242 4242 4242 424',
      '4242 4242 4242 4242',
    ]);
  });

  it('groups American Express 4-6-5, as typed', () => {
    expect(formatCardNumber('3782')).toBe('3782');
    expect(formatCardNumber('37828')).toBe('3782 8');
    expect(formatCardNumber('3782822463')).toBe('3782 822463');
    expect(formatCardNumber('37828224631')).toBe('3782 822463 1');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
  });

  it('regroups text already formatted, so the next digit lands in the right group', () => {
    expect(formatCardNumber('4242 42424')).toBe('4242 4242 4');
    expect(formatCardNumber('4242 4242 ')).toBe('4242 4242');
    expect(formatCardNumber('3782 8224')).toBe('3782 8224');
  });

  it('takes pasted numbers with spaces, dashes, dots or anything else around the digits', () => {
    expect(formatCardNumber(' 4242 4242 4242 4242 ')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242-4242-4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('3782-822463-10005')).toBe('3782 822463 10005');
    expect(formatCardNumber('5555.5555.5555.4444')).toBe('5555 5555 5555 4444');
    expect(formatCardNumber('card: 4242abcd4242')).toBe('4242 4242');
    expect(formatCardNumber('')).toBe('');
    expect(formatCardNumber('abc')).toBe('');
  });

  it("cuts digits past the brand's longest number", () => {
    expect(formatCardNumber('55555555555544441')).toBe('5555 5555 5555 4444');
    expect(formatCardNumber('3782822463100051')).toBe('3782 822463 10005');
    expect(formatCardNumber('40000000000000000061')).toBe('4000 0000 0000 0000 006');
    expect(formatCardNumber('5061980000000000001')).toBe('5061 9800 0000 0000 001');
  });

  it('allows 19 digits when the brand is unknown', () => {
    expect(formatCardNumber('90000000000000000012')).toBe('9000 0000 0000 0000 001');
  });
});

describe('parseExpiry', () => {
  it.each([
    ['12/28', 12, 2028],
    ['12 / 28', 12, 2028],
    ['12 /28', 12, 2028],
    ['1228', 12, 2028],
    ['12/2028', 12, 2028],
    ['12 / 2028', 12, 2028],
    ['122028', 12, 2028],
    ['1/28', 1, 2028],
    ['1/2028', 1, 2028],
    ['01/30', 1, 2030],
    ['0130', 1, 2030],
    ['12-28', 12, 2028],
    ['12.28', 12, 2028],
    [' 07/29 ', 7, 2029],
  ])('reads %j as %i/%i', (text, month, year) => {
    expect(parseExpiry(text)).toEqual({ month, year });
  });

  it.each([
    '',
    '1',
    '12',
    '12/',
    '12 / ',
    '12/2',
    '12/202',
    '12/20288',
    '128',
    '12345',
    '13/28',
    '00/28',
    '0/28',
    '1328',
    'ab/cd',
    '12/28/30',
    'December 2028',
  ])('refuses %j', (text) => {
    expect(parseExpiry(text)).toBeNull();
  });
});

describe('formatExpiry', () => {
  it('adds the separator as soon as the month is known', () => {
    expect(formatExpiry('')).toBe('');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('0')).toBe('0');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('122')).toBe('12 / 2');
    expect(formatExpiry('1228')).toBe('12 / 28');
    expect(formatExpiry('05')).toBe('05 / ');
  });

  it('reads a single digit 2 to 9 as a month, and 13 to 19 as 1 and the start of the year', () => {
    expect(formatExpiry('3')).toBe('03 / ');
    expect(formatExpiry('9')).toBe('09 / ');
    expect(formatExpiry('32')).toBe('03 / 2');
    expect(formatExpiry('13')).toBe('01 / 3');
    expect(formatExpiry('19')).toBe('01 / 9');
  });

  it('takes the next digit typed after the separator it added', () => {
    expect(formatExpiry('12 / 2')).toBe('12 / 2');
    expect(formatExpiry('12 / 28')).toBe('12 / 28');
    expect(formatExpiry('12 / 289')).toBe('12 / 28');
    expect(formatExpiry('03 / ')).toBe('03 / ');
  });

  it('pads a month typed with its own separator: 1/ and 1/28', () => {
    expect(formatExpiry('1/')).toBe('01 / ');
    expect(formatExpiry('1/28')).toBe('01 / 28');
    expect(formatExpiry('12/')).toBe('12 / ');
    expect(formatExpiry('12-28')).toBe('12 / 28');
  });

  it('shortens a four-digit year from autofill or a paste to two', () => {
    expect(formatExpiry('12/2028')).toBe('12 / 28');
    expect(formatExpiry('12 / 2028')).toBe('12 / 28');
    expect(formatExpiry('1/2028')).toBe('01 / 28');
    expect(formatExpiry('122028')).toBe('12 / 28');
  });

  it('keeps four digits at most and drops everything that is not one', () => {
    expect(formatExpiry('12345')).toBe('12 / 34');
    expect(formatExpiry('1a2b')).toBe('12 / ');
  });

  it('always gives text that parseExpiry reads back as the same date', () => {
    for (const text of ['1228', '12/2028', '1/28', '12-28', '122028', '0130']) {
      expect(parseExpiry(formatExpiry(text)), text).toEqual(parseExpiry(text));
    }
  });
});

describe('cvcLength', () => {
  it('is 4 for American Express and 3 for every other brand, known or not', () => {
    expect(cvcLength('amex')).toBe(4);
    expect(cvcLength('visa')).toBe(3);
    expect(cvcLength('mastercard')).toBe(3);
    expect(cvcLength('verve')).toBe(3);
    expect(cvcLength('discover')).toBe(3);
    expect(cvcLength(null)).toBe(3);
  });
});

describe('validateCard', () => {
  it('gives the card as the companion takes it: digits, numeric month and four-digit year', () => {
    expect(validateCard(VALID, NOW)).toEqual({
      valid: true,
      card: {
        number: '4242424242424242',
        expiryMonth: 12,
        expiryYear: 2028,
        cvv: '123',
        holderName: 'Amina Bello',
      },
    });
  });

  it('trims the name and the security code and closes up runs of spaces in the name', () => {
    const result = validateCard({ ...VALID, name: '  Amina   Bello ', cvc: ' 123 ' }, NOW);
    expect(result.valid && result.card.holderName).toBe('Amina Bello');
    expect(result.valid && result.card.cvv).toBe('123');
  });

  it('takes a number pasted with dashes and a full-year expiry', () => {
    const result = validateCard(
      { ...VALID, number: '4242-4242-4242-4242', expiry: '12/2028' },
      NOW,
    );
    expect(result.valid && result.card).toMatchObject({
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2028,
    });
  });

  it('accepts every brand at each of its lengths', () => {
    for (const [number, cvc] of [
      ['4000000000006', '123'],
      ['4000000000000000006', '123'],
      ['5555555555554444', '123'],
      ['2221000000000009', '123'],
      ['378282246310005', '1234'],
      ['5060990000000008', '123'],
      ['650027000000000001', '123'],
      ['5079640000000000005', '123'],
      ['6011111111111117', '123'],
      ['60110000000000001', '123'],
      ['6011000000000000001', '123'],
      ['6445000000000000', '123'],
      ['123400000006', '123'],
      ['9000000000000000001', '123'],
    ] as const) {
      expect(validateCard({ ...VALID, number, cvc }, NOW).valid, number).toBe(true);
    }
  });

  it('says a number that fails Luhn is invalid', () => {
    expect(errorsOf({ number: '4242 4242 4242 4241' })).toEqual({ number: 'numberInvalid' });
    expect(errorsOf({ number: '378282246310006', cvc: '1234' })).toEqual({
      number: 'numberInvalid',
    });
  });

  it('says a number shorter than its brand allows is incomplete', () => {
    expect(errorsOf({ number: '' })).toEqual({ number: 'numberIncomplete' });
    expect(errorsOf({ number: '4242 4242' })).toEqual({ number: 'numberIncomplete' });
    // 14 digits: not a Visa length, but a 16- or 19-digit one is still being typed.
    expect(errorsOf({ number: '4242 4242 4242 42' })).toEqual({ number: 'numberIncomplete' });
    expect(errorsOf({ number: '3782 822463 1000', cvc: '1234' })).toEqual({
      number: 'numberIncomplete',
    });
    expect(errorsOf({ number: '12340000000' })).toEqual({ number: 'numberIncomplete' });
  });

  it('says a number longer than its brand allows, or with letters in it, is invalid', () => {
    expect(errorsOf({ number: '55555555555544440' })).toEqual({ number: 'numberInvalid' });
    expect(errorsOf({ number: '3782822463100050', cvc: '1234' })).toEqual({
      number: 'numberInvalid',
    });
    expect(errorsOf({ number: '90000000000000000001' })).toEqual({ number: 'numberInvalid' });
    expect(errorsOf({ number: '4242 4242 4242 424O' })).toEqual({ number: 'numberInvalid' });
  });

  it('accepts an expiry in this very month: a card is valid to the end of it', () => {
    expect(errorsOf({ expiry: '05 / 26' })).toEqual({});
    expect(errorsOf({ expiry: '05/2026' })).toEqual({});
    const lastMomentOfMay = new Date(Date.UTC(2026, 4, 31, 23, 59, 59, 999));
    expect(errorsOf({ expiry: '05 / 26' }, lastMomentOfMay)).toEqual({});
  });

  it('says an expiry last month, or any earlier, is in the past', () => {
    expect(errorsOf({ expiry: '04 / 26' })).toEqual({ expiry: 'expiryPast' });
    expect(errorsOf({ expiry: '12 / 25' })).toEqual({ expiry: 'expiryPast' });
    expect(errorsOf({ expiry: '05 / 25' })).toEqual({ expiry: 'expiryPast' });
    expect(errorsOf({ expiry: '12/1999' })).toEqual({ expiry: 'expiryPast' });
    const firstMomentOfJune = new Date(Date.UTC(2026, 5, 1));
    expect(errorsOf({ expiry: '05 / 26' }, firstMomentOfJune)).toEqual({ expiry: 'expiryPast' });
  });

  it('counts the month in UTC, as the companion does', () => {
    // 00:30 on 1 June in Lagos is still 31 May in UTC: the companion takes a May card, so do we.
    const lagosJuneFirst = new Date('2026-06-01T00:30:00+01:00');
    expect(errorsOf({ expiry: '05 / 26' }, lagosJuneFirst)).toEqual({});
  });

  it('says an expiry that is not a date, or more than 20 years away, is invalid', () => {
    for (const expiry of ['', '1', '12', '12 / ', '12 / 2', '13 / 28', '00 / 28', 'soon']) {
      expect(errorsOf({ expiry }), expiry).toEqual({ expiry: 'expiryInvalid' });
    }
    expect(errorsOf({ expiry: '12 / 46' })).toEqual({});
    expect(errorsOf({ expiry: '01 / 47' })).toEqual({ expiry: 'expiryInvalid' });
    expect(errorsOf({ expiry: '12/2208' })).toEqual({ expiry: 'expiryInvalid' });
  });

  it('wants a 4-digit security code for American Express and 3 digits for the rest', () => {
    const amex = '3782 822463 10005';
    expect(errorsOf({ number: amex, cvc: '1234' })).toEqual({});
    expect(errorsOf({ number: amex, cvc: '123' })).toEqual({ cvc: 'cvcInvalid' });
    expect(errorsOf({ cvc: '1234' })).toEqual({ cvc: 'cvcInvalid' });
    expect(errorsOf({ cvc: '12' })).toEqual({ cvc: 'cvcInvalid' });
    expect(errorsOf({ cvc: '' })).toEqual({ cvc: 'cvcInvalid' });
    expect(errorsOf({ cvc: '12a' })).toEqual({ cvc: 'cvcInvalid' });
    expect(errorsOf({ number: '5555 5555 5555 4444', cvc: '999' })).toEqual({});
    expect(errorsOf({ number: '5060 9900 0000 0008', cvc: '1234' })).toEqual({
      cvc: 'cvcInvalid',
    });
  });

  it('wants a name', () => {
    expect(errorsOf({ name: '' })).toEqual({ name: 'nameMissing' });
    expect(errorsOf({ name: '   ' })).toEqual({ name: 'nameMissing' });
  });

  it('reports every field at once', () => {
    expect(validateCard({ number: '4242', expiry: '01 / 20', cvc: '1', name: '' }, NOW)).toEqual({
      valid: false,
      errors: {
        number: 'numberIncomplete',
        expiry: 'expiryPast',
        cvc: 'cvcInvalid',
        name: 'nameMissing',
      },
    });
  });
});
