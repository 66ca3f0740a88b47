/**
 * Money inside paydrop is always an integer number of minor units (kobo, pence, cents, fils).
 * The provider speaks three units (see provider-api.md): major-unit numbers on initiation and
 * links, minor-unit digit strings on fund transfers, integer subunits in the transaction list.
 * Conversions happen here and at the provider boundary only.
 */

/**
 * Digits after the decimal point for each currency we know (ISO 4217 minor units).
 * A table rather than `Intl` so the answer never depends on the runtime's locale data.
 */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  NGN: 2,
  GBP: 2,
  USD: 2,
  EUR: 2,
  CAD: 2,
  GHS: 2,
  KES: 2,
  ZAR: 2,
  JPY: 0,
  XOF: 0,
  XAF: 0,
  KWD: 3,
  BHD: 3,
  OMR: 3,
  JOD: 3,
};

/** A currency whose minor unit we do not know, or an amount that cannot be money. */
export class MoneyError extends RangeError {
  override readonly name = 'MoneyError' as const;
}

/** An amount in the currency's minor unit, e.g. `{ amountMinor: 250050, currency: 'NGN' }`. */
export interface Money {
  readonly amountMinor: number;
  readonly currency: string;
}

/**
 * How many digits the currency has after the decimal point.
 * @example minorDigits('KWD') // 3
 */
export function minorDigits(currency: string): number {
  // hasOwn, not a plain lookup: 'toString' or 'constructor' must not pass as a currency.
  const digits = Object.hasOwn(MINOR_DIGITS, currency) ? MINOR_DIGITS[currency] : undefined;
  if (digits === undefined) throw new MoneyError(`Unsupported currency "${currency}".`);
  return digits;
}

/** True for the ISO 4217 codes this module can convert. */
export function isKnownCurrency(currency: string): boolean {
  return Object.hasOwn(MINOR_DIGITS, currency);
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Converts a major-unit amount (as the provider sends it on initiation) to minor units, exactly.
 * Works on the decimal text, never on `x * 100`, so 2500.55 NGN is 250055 kobo and not 250054.
 * Refuses negative amounts, non-numbers and more decimals than the currency has.
 * @example toMinor(2500.5, 'NGN') // 250050
 * @example toMinor('12.345', 'KWD') // 12345
 */
export function toMinor(major: number | string, currency: string): number {
  const digits = minorDigits(currency);
  // String(number) is the shortest text that reads back as the same double: exact for money.
  const text = typeof major === 'number' ? String(major) : major.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyError(`"${text}" is not a non-negative decimal amount.`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) {
    throw new MoneyError(
      `${text} ${currency} has more than ${digits} decimal place${digits === 1 ? '' : 's'}.`,
    );
  }
  const minor = Number(whole + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`${text} ${currency} is too large.`);
  return minor;
}

/**
 * Converts minor units to a major-unit number for the provider's initiation and link fields.
 * @example toMajor(250050, 'NGN') // 2500.5
 */
export function toMajor(amountMinor: number, currency: string): number {
  return Number(toMajorText(amountMinor, currency));
}

/**
 * Minor units as exact major-unit decimal text with all the currency's digits.
 * @example toMajorText(5, 'KWD') // '0.005'
 */
export function toMajorText(amountMinor: number, currency: string): string {
  assertMinor(amountMinor, currency);
  const digits = minorDigits(currency);
  const sign = amountMinor < 0 ? '-' : '';
  const text = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const DIGITS = /^\d+$/;

/**
 * Reads the fund-transfer amount: a string of digits in minor units.
 * @example parseMinorString('150000') // 150000
 */
export function parseMinorString(amount: string): number {
  if (!DIGITS.test(amount)) throw new MoneyError(`"${amount}" is not a string of digits.`);
  const minor = Number(amount);
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`"${amount}" is too large.`);
  return minor;
}

/**
 * Writes minor units as the fund transfer wants them: a digit string.
 * @example toMinorString(150000) // '150000'
 */
export function toMinorString(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new MoneyError(`${amountMinor} is not a non-negative whole number of minor units.`);
  }
  return String(amountMinor);
}

function assertMinor(amountMinor: number, currency: string): void {
  if (!Number.isSafeInteger(amountMinor)) {
    throw new MoneyError(`${amountMinor} is not a whole number of ${currency} minor units.`);
  }
}
