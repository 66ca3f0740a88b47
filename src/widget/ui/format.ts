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
 * An amount for the customer's locale with the currency's own minor unit (KWD 1.500, JPY 1,500),
 * and its narrow symbol where it has one, in every locale: the shop's page says ₦25,000.50, so the
 * dialog says so too, never "NGN 25,000.50" (issue 12).
 * @example formatMoney({ amountMinor: 250050, currency: 'NGN' }, 'en') // '₦2,500.50'
 */
export function formatMoney(money: Money, locale: string): string {
  const digits = minorDigitsOf(money.currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: money.currency,
    currencyDisplay: 'narrowSymbol',
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

/**
 * Digits grouped for copying by eye: a 10-digit NUBAN as Nigerian banks print it, 3-3-4
 * (012 345 6789); anything else in fours.
 */
export function groupDigits(digits: string): string {
  return digits.length === 10
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
    : digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The digits one by one, for screen readers, which read "012 345 6789" as three numbers:
 * '0 1 2, 3 4 5, 6 7 8 9' (a comma pauses between the groups).
 */
export function spokenDigits(digits: string): string {
  return groupDigits(digits)
    .split(' ')
    .map((group) => group.split('').join(' '))
    .join(', ');
}

/** 29:05, or 1:02:03 past an hour. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
