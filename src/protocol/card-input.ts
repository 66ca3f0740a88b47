/**
 * What a customer types into the card fields, read and checked: the brand from the first digits,
 * the number grouped as it is printed on the card, the expiry in every shape people and browser
 * autofill write it, and the checks the companion would otherwise refuse. Pure functions: no DOM.
 */
import { passesLuhn } from './card';

/**
 * The card as the companion takes it from the card frame (docs/browser-calls.md):
 * month 1–12 and a four-digit year as numbers, the rest strings. It goes to the companion and
 * nowhere else.
 * @example { number: '4242424242424242', expiryMonth: 12, expiryYear: 2028, cvv: '123', holderName: 'Amina Bello' }
 */
export interface CardDetails {
  readonly number: string;
  readonly expiryMonth: number;
  readonly expiryYear: number;
  readonly cvv: string;
  readonly holderName: string;
}

/** The brands we recognise from a number's first digits. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'verve' | 'discover';

/** A card field, by what it holds. */
export type CardField = 'number' | 'expiry' | 'cvc' | 'name';

/** The four fields as the customer typed them (or autofill wrote them). */
export type CardFieldValues = Readonly<Record<CardField, string>>;

/** Why a field cannot be sent; each is a key of the card messages. */
export type CardErrorKey =
  | 'numberIncomplete'
  | 'numberInvalid'
  | 'expiryInvalid'
  | 'expiryPast'
  | 'cvcInvalid'
  | 'nameMissing';

export type CardErrors = Partial<Record<CardField, CardErrorKey>>;

export type CardValidation =
  | { readonly valid: true; readonly card: CardDetails }
  | { readonly valid: false; readonly errors: CardErrors };

/** Verve's six-digit ranges (BIN ranges, inclusive). */
const VERVE_RANGES: readonly (readonly [number, number])[] = [
  [506099, 506198],
  [650002, 650027],
  [507865, 507964],
];

/** Whether some number in [low, high] starts with these digits (fewer than six of them). */
function rangeStartsWith(digits: string, [low, high]: readonly [number, number]): boolean {
  const missing = 6 - digits.length;
  const smallest = Number(digits) * 10 ** missing;
  const largest = smallest + 10 ** missing - 1;
  return smallest <= high && largest >= low;
}

function inRange(prefix: string, low: number, high: number): boolean {
  const value = Number(prefix);
  return value >= low && value <= high;
}

/**
 * The brand the first digits settle on, or null while they do not settle on one yet: '5' may
 * still be Mastercard or Verve, '6500' Discover or Verve. Non-digits are ignored.
 * @example cardBrand('4242') // 'visa'
 */
export function cardBrand(digits: string): CardBrand | null {
  const number = digits.replace(/\D/g, '');
  if (number.startsWith('4')) return 'visa';
  if (number.startsWith('34') || number.startsWith('37')) return 'amex';
  // Verve's ranges sit inside Mastercard-free space but inside Discover's 65: six digits decide.
  if (number.length >= 6) {
    const six = Number(number.slice(0, 6));
    if (VERVE_RANGES.some(([low, high]) => six >= low && six <= high)) return 'verve';
  } else if (number !== '' && VERVE_RANGES.some((range) => rangeStartsWith(number, range))) {
    return null;
  }
  if (number.length >= 2 && inRange(number.slice(0, 2), 51, 55)) return 'mastercard';
  if (number.length >= 4 && inRange(number.slice(0, 4), 2221, 2720)) return 'mastercard';
  if (number.startsWith('6011') || number.startsWith('65')) return 'discover';
  if (number.length >= 3 && inRange(number.slice(0, 3), 644, 649)) return 'discover';
  return null;
}

const LENGTHS: Readonly<Record<CardBrand, readonly number[]>> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  verve: [16, 18, 19],
  discover: [16, 17, 18, 19],
};

/** Any length the companion accepts, for a number whose brand we do not know. */
const ANY_LENGTH = [12, 13, 14, 15, 16, 17, 18, 19] as const;

/**
 * The lengths a brand's numbers come in, shortest first; for an unknown brand, 12 to 19.
 * @example cardNumberLengths('amex') // [15]
 */
export function cardNumberLengths(brand: CardBrand | null): readonly number[] {
  return brand ? LENGTHS[brand] : ANY_LENGTH;
}

function longest(brand: CardBrand | null): number {
  return Math.max(...cardNumberLengths(brand));
}

/**
 * The number as printed on the card, grouped as the customer types or pastes it: American
 * Express 4-6-5, every other brand in fours. Non-digits go; digits past the brand's longest
 * number (19 when the brand is unknown) are cut.
 * @example formatCardNumber('4242-4242 42') // '4242 4242 42'
 */
export function formatCardNumber(text: string): string {
  const all = text.replace(/\D/g, '');
  const brand = cardBrand(all);
  const digits = all.slice(0, longest(brand));
  const groups = brand === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 4];
  const parts: string[] = [];
  let start = 0;
  for (const size of groups) {
    if (start >= digits.length) break;
    parts.push(digits.slice(start, start + size));
    start += size;
  }
  return parts.join(' ');
}

/** Month and year with a separator: '12/28', '12 / 28', '1/28', '12-28', '12/2028'. */
const SEPARATED = /^\s*(\d{1,2})\s*[/.-]\s*(\d*)\s*$/;
/** Month and year without one: '1228', or '122028' as some autofill writes it. */
const COMPACT = /^\s*(\d{2})(\d{2}|\d{4})\s*$/;

/**
 * The month and four-digit year of an expiry in any shape people and browser autofill write it:
 * 'MM/YY', 'MM / YY', 'MMYY', 'MM/YYYY', 'M/YY', 'MM-YY'. Null when it is none of these or the
 * month is not 1 to 12.
 * @example parseExpiry('12/2028') // { month: 12, year: 2028 }
 */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const parts = SEPARATED.exec(text) ?? COMPACT.exec(text);
  const month = Number(parts?.[1]);
  const year = parts?.[2] ?? '';
  if (!(month >= 1 && month <= 12) || (year.length !== 2 && year.length !== 4)) return null;
  return { month, year: year.length === 2 ? 2000 + Number(year) : Number(year) };
}

/**
 * The expiry as the field shows it while the customer types: 'MM / YY', with the separator added
 * as soon as the month is known ('3' is March: '03 / '; '13' cannot be a month: '01 / 3'). A
 * four-digit year, from autofill or a paste, is shortened to two.
 * @example formatExpiry('122') // '12 / 2'
 */
export function formatExpiry(text: string): string {
  const separated = SEPARATED.exec(text);
  if (separated) {
    const [, month = '', year = ''] = separated;
    return `${month.padStart(2, '0')} / ${year.length === 4 ? year.slice(2) : year.slice(0, 2)}`;
  }
  let digits = text.replace(/\D/g, '');
  if (/^(0[1-9]|1[0-2])20\d\d$/.test(digits)) digits = digits.slice(0, 2) + digits.slice(4);
  if (/^([2-9]|1[3-9])/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/**
 * How many digits the security code has: four on the front of an American Express card, three on
 * the back of the others.
 */
export function cvcLength(brand: CardBrand | null): number {
  return brand === 'amex' ? 4 : 3;
}

/** Years ahead past which an expiry is taken for a typo: cards are issued for at most 20 years. */
const LONGEST_VALIDITY_YEARS = 20;

/**
 * A length the brand does not come in is incomplete while shorter than its longest number (the
 * customer may still be typing) and invalid past it; a length it does come in must pass Luhn.
 */
function numberError(digits: string, brand: CardBrand | null): CardErrorKey | null {
  if (/\D/.test(digits)) return 'numberInvalid';
  if (!cardNumberLengths(brand).includes(digits.length)) {
    return digits.length < longest(brand) ? 'numberIncomplete' : 'numberInvalid';
  }
  return passesLuhn(digits) ? null : 'numberInvalid';
}

/**
 * Checks the four fields as the customer left them. A card is valid to the end of its expiry
 * month; the month is counted in UTC, as the companion counts it, so the widget never accepts a
 * card the companion refuses or refuses one it accepts.
 * @example validateCard({ number: '4242 4242 4242 4242', expiry: '12 / 28', cvc: '123', name: 'Amina Bello' }, new Date())
 */
export function validateCard(fields: CardFieldValues, now: Date): CardValidation {
  const errors: CardErrors = {};
  const digits = fields.number.replace(/[\s-]/g, '');
  const brand = cardBrand(digits);
  const numberProblem = numberError(digits, brand);
  if (numberProblem) errors.number = numberProblem;

  const expiry = parseExpiry(fields.expiry);
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (!expiry || expiry.year > now.getUTCFullYear() + LONGEST_VALIDITY_YEARS) {
    errors.expiry = 'expiryInvalid';
  } else if (expiry.year * 12 + expiry.month - 1 < thisMonth) {
    errors.expiry = 'expiryPast';
  }

  const cvv = fields.cvc.trim();
  if (!/^\d+$/.test(cvv) || cvv.length !== cvcLength(brand)) errors.cvc = 'cvcInvalid';

  const holderName = fields.name.trim().replace(/\s+/g, ' ');
  if (holderName === '') errors.name = 'nameMissing';

  if (!expiry || Object.keys(errors).length > 0) return { valid: false, errors };
  return {
    valid: true,
    card: { number: digits, expiryMonth: expiry.month, expiryYear: expiry.year, cvv, holderName },
  };
}
