/**
 * Card number checks shared by the widget's card fields, the companion and the sandbox.
 */

/**
 * Luhn: catches a mistyped digit before any bank is asked.
 * @example passesLuhn('4242424242424242') // true
 */
export function passesLuhn(number: string): boolean {
  if (!/^\d+$/.test(number)) return false;
  let sum = 0;
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
