/**
 * The hosted link page's card form, read from its posted fields: each field's rule, with the
 * customer's words for what is wrong. Nothing here keeps or repeats the number or the code; the
 * caller gets them once, to initiate with, or a list of field errors that carry no card data.
 */
import { MoneyError, passesLuhn, toMinor } from '../protocol';
import { expiryHasPassed } from './routes/payments';
import { MAX_PAYMENT_MAJOR } from './test-data';

/** The form's fields, by their `name`. `amount` is asked only on a link of dynamic amount. */
export type CardFormField = 'name' | 'number' | 'expiry' | 'cvc' | 'amount';

export type CardFormErrors = Partial<Record<CardFormField, string>>;

export interface CardFormEntry {
  readonly holderName: string;
  readonly number: string;
  readonly expiryMonth: number;
  /** Four digits: a two-digit year YY is 20YY. */
  readonly expiryYear: number;
  readonly cvv: string;
  /** The amount the customer chose, on a link of dynamic amount; undefined otherwise. */
  readonly amountMinor: number | undefined;
}

export type CardFormResult =
  | { readonly ok: true; readonly entry: CardFormEntry }
  | {
      readonly ok: false;
      readonly errors: CardFormErrors;
      /** What may be shown again: the name and the amount, never the card's own data. */
      readonly kept: { readonly name: string; readonly amount: string };
    };

export interface CardFormOptions {
  /** The sandbox's now, for the expiry. */
  readonly now: number;
  /** The link's currency, for the amount's decimals. */
  readonly currency: string;
  /** True on a link of dynamic amount: the customer types the amount. */
  readonly asksAmount: boolean;
}

/** No field of this form is longer than this; a longer one is junk, refused without a look. */
const MAX_FIELD_CHARS = 200;
const MAX_NAME_CHARS = 100;

// Control characters and the line and paragraph separators: nothing a printed name holds.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

function text(form: URLSearchParams, field: CardFormField): string {
  return (form.get(field) ?? '').trim();
}

function readName(raw: string): string | { error: string } {
  if (raw === '') return { error: 'Enter the name on the card.' };
  if (raw.length > MAX_NAME_CHARS) {
    return { error: `The name on the card must be at most ${MAX_NAME_CHARS} characters.` };
  }
  if (CONTROL.test(raw))
    return { error: 'The name on the card has characters that cannot be used.' };
  return raw;
}

function readNumber(raw: string): string | { error: string } {
  if (raw === '') return { error: 'Enter the card number.' };
  // Spaces and dashes are how people copy a number from the card; nothing else belongs in it.
  if (raw.length > MAX_FIELD_CHARS || !/^[\d -]+$/.test(raw)) {
    return { error: 'The card number must contain only digits.' };
  }
  const digits = raw.replace(/[ -]/g, '');
  if (digits.length < 12 || digits.length > 19) {
    return { error: 'The card number must be 12 to 19 digits.' };
  }
  if (!passesLuhn(digits)) {
    return { error: 'This card number is not valid: check it for a mistyped digit.' };
  }
  return digits;
}

function readExpiry(raw: string, now: number): { month: number; year: number } | { error: string } {
  if (raw === '') return { error: 'Enter the expiry date as MM/YY.' };
  // MM/YY as printed; MMYY from a numeric keypad, which has no slash; MM/YYYY from autofill.
  const found = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(raw) ?? /^(\d{2})(\d{2})$/.exec(raw);
  if (!found) return { error: 'Enter the expiry date as MM/YY, for example 04/29.' };
  const month = Number(found[1]);
  const year = (found[2] ?? '').length === 2 ? 2000 + Number(found[2]) : Number(found[2]);
  if (month < 1 || month > 12) return { error: 'The expiry month must be from 01 to 12.' };
  if (year < 2000 || year > 2099)
    return { error: 'Enter the expiry date as MM/YY, for example 04/29.' };
  if (expiryHasPassed(month, year, now)) return { error: 'The expiry date has passed.' };
  return { month, year };
}

function readCvc(raw: string): string | { error: string } {
  if (raw === '') return { error: 'Enter the security code.' };
  if (!/^\d{3,4}$/.test(raw)) return { error: 'The security code must be 3 or 4 digits.' };
  return raw;
}

function readAmount(raw: string, currency: string): number | { error: string } {
  if (raw === '') return { error: 'Enter the amount to pay.' };
  const plain = raw.replace(/,/g, '');
  if (raw.length > 32 || !/^\d+(\.\d+)?$/.test(plain)) {
    return { error: 'Enter the amount as a number, for example 1500 or 1500.50.' };
  }
  let minor: number;
  try {
    minor = toMinor(plain, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    return { error: `The amount has more decimal places than ${currency} allows.` };
  }
  if (minor <= 0) return { error: 'The amount must be more than 0.' };
  if (Number(plain) > MAX_PAYMENT_MAJOR) {
    return { error: `The amount must be at most ${MAX_PAYMENT_MAJOR.toLocaleString('en')}.` };
  }
  return minor;
}

/**
 * Reads the posted card form: the card and amount to initiate with, or one error per field.
 * @example readCardForm(new URLSearchParams('name=Ada&number=4242424242424242&expiry=12/30&cvc=123'), { now: Date.now(), currency: 'NGN', asksAmount: false })
 */
export function readCardForm(form: URLSearchParams, options: CardFormOptions): CardFormResult {
  const rawName = text(form, 'name');
  const rawAmount = options.asksAmount ? text(form, 'amount') : '';
  const name = readName(rawName);
  const number = readNumber(text(form, 'number'));
  const expiry = readExpiry(text(form, 'expiry'), options.now);
  const cvc = readCvc(text(form, 'cvc'));
  const amount = options.asksAmount ? readAmount(rawAmount, options.currency) : undefined;

  const errors: CardFormErrors = {};
  if (typeof name !== 'string') errors.name = name.error;
  if (typeof number !== 'string') errors.number = number.error;
  if ('error' in expiry) errors.expiry = expiry.error;
  if (typeof cvc !== 'string') errors.cvc = cvc.error;
  if (typeof amount === 'object') errors.amount = amount.error;
  if (
    typeof name !== 'string' ||
    typeof number !== 'string' ||
    'error' in expiry ||
    typeof cvc !== 'string' ||
    typeof amount === 'object'
  ) {
    const keptName = rawName.length <= MAX_NAME_CHARS && !CONTROL.test(rawName) ? rawName : '';
    return {
      ok: false,
      errors,
      kept: { name: keptName, amount: rawAmount.length <= 32 ? rawAmount : '' },
    };
  }
  return {
    ok: true,
    entry: {
      holderName: name,
      number,
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvv: cvc,
      amountMinor: amount,
    },
  };
}
