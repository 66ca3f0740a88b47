import type { Money } from '../../protocol';

/**
 * Digits after the decimal point, from the runtime's own ISO 4217 data (KWD 3, JPY 0): the
 * widget asks Intl rather than carry a table of its own.
 */
function minorDigitsOf(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/**
 * An amount for the customer's locale with the currency's own minor unit (KWD 1.500, JPY 1,500).
 * @example formatMoney({ amountMinor: 250050, currency: 'NGN' }, 'en-NG') // '₦2,500.50'
 */
export function formatMoney(money: Money, locale: string): string {
  const digits = minorDigitsOf(money.currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: money.currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(money.amountMinor / 10 ** digits);
}

/** What the customer sends: the amount and the provider's fees. */
export function amountDue(payment: { amount: Money; fees: Money }): Money {
  return {
    amountMinor: payment.amount.amountMinor + payment.fees.amountMinor,
    currency: payment.amount.currency,
  };
}

/** The amount as a banking app wants it typed: 2500.50, no symbol, no grouping. */
export function plainAmount(money: Money): string {
  const digits = minorDigitsOf(money.currency);
  return (money.amountMinor / 10 ** digits).toFixed(digits);
}

/** Digits grouped for reading aloud and copying by eye: 0123 456 789. */
export function groupDigits(digits: string): string {
  return digits.length === 10
    ? `${digits.slice(0, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`
    : digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** 29:05, or 1:02:03 past an hour. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
