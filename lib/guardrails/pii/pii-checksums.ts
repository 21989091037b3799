/**
 * Whether a string of digits passes the Luhn check (payment card numbers).
 * @example
 * ```ts
 * // internal: not exported
 * isLuhnValid('4111111111111111'); // true
 * ```
 * @param digits ASCII digits only.
 * @returns `true` when the checksum holds.
 * @internal
 */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Whether a compact IBAN (no spaces, upper case) passes the ISO 7064 mod-97 check.
 * @example
 * ```ts
 * // internal: not exported
 * isIbanValid('DE89370400440532013000'); // true
 * ```
 * @param iban Letters and digits.
 * @returns `true` when the remainder is 1.
 * @internal
 */
export function isIbanValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < moved.length; i++) {
    const code = moved.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else if (code >= 65 && code <= 90) {
      remainder = (remainder * 100 + (code - 55)) % 97;
    } else {
      return false;
    }
  }
  return remainder === 1;
}
