import { isIbanValid, isLuhnValid } from './pii-checksums.js';
import type { PiiDetector, PiiSpan } from './pii-detector.js';

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const isUpper = (code: number): boolean => code >= 65 && code <= 90;
const isAlnum = (code: number): boolean =>
  isDigit(code) || isUpper(code) || (code >= 97 && code <= 122);
const SPACE = 32;

/** The run without leading and trailing characters `keep` rejects; `undefined` when empty. */
function trimmed(run: string, keep: (code: number) => boolean): PiiSpan | undefined {
  let start = 0;
  let end = run.length;
  while (start < end && !keep(run.charCodeAt(start))) start++;
  while (end > start && !keep(run.charCodeAt(end - 1))) end--;
  return start === end ? undefined : { start, end };
}

const EMAIL_LOCAL = /^[A-Za-z0-9._%+-]+$/;
const EMAIL_DOMAIN = /^(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/;

/**
 * E-mail addresses: `local@domain.tld`, a sentence's final dot left out.
 * @example
 * ```ts
 * import { PiiDetectors } from 'rx-advisors/guardrails';
 * PiiDetectors.email.detect('bob@example.com.'); // { start: 0, end: 15 }
 * ```
 */
const email: PiiDetector = {
  name: 'email',
  maxLength: 254,
  minLength: 6, // a@b.cd
  isKeyChar: (code) => code === 64,
  // Letters, digits and . _ % + - @
  isRunChar: (code) =>
    isAlnum(code) ||
    code === 46 ||
    code === 95 ||
    code === 37 ||
    code === 43 ||
    code === 45 ||
    code === 64,
  detect: (run) => {
    const span = trimmed(run, isAlnum);
    if (span === undefined) return undefined;
    const text = run.slice(span.start, span.end);
    const at = text.indexOf('@');
    if (at <= 0 || at !== text.lastIndexOf('@')) return undefined;
    const ok = EMAIL_LOCAL.test(text.slice(0, at)) && EMAIL_DOMAIN.test(text.slice(at + 1));
    return ok ? span : undefined;
  },
};

/**
 * Digits with at most `maxSeparators` characters of `separators` in a row between them: the
 * digits, or `undefined`.
 */
function digitsOf(
  text: string,
  separators: (code: number) => boolean,
  maxSeparators: number,
): string | undefined {
  let digits = '';
  let inRow = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      digits += text[i];
      inRow = 0;
    } else if (separators(code) && ++inRow <= maxSeparators) {
      continue;
    } else {
      return undefined;
    }
  }
  return digits;
}

/**
 * Payment card numbers: 13 to 19 digits, grouped by single spaces or dashes, that pass Luhn.
 * @example
 * ```ts
 * import { PiiDetectors } from 'rx-advisors/guardrails';
 * PiiDetectors.card.detect(' 4111 1111 1111 1111 '); // { start: 1, end: 20 }
 * ```
 */
const card: PiiDetector = {
  name: 'card',
  maxLength: 40,
  minLength: 13,
  isKeyChar: isDigit,
  isRunChar: (code) => isDigit(code) || code === SPACE || code === 45,
  detect: (run) => {
    const span = trimmed(run, isDigit);
    if (span === undefined) return undefined;
    const digits = digitsOf(run.slice(span.start, span.end), (c) => c === SPACE || c === 45, 1);
    if (digits === undefined || digits.length < 13 || digits.length > 19) return undefined;
    return isLuhnValid(digits) ? span : undefined;
  },
};

/**
 * Phone numbers: `+` and 8 to 15 digits, or 10 to 15 digits grouped by spaces, dashes or
 * parentheses, or 10 or 11 digits in a row (a heuristic: shorter local numbers are left
 * alone).
 * @example
 * ```ts
 * import { PiiDetectors } from 'rx-advisors/guardrails';
 * PiiDetectors.phone.detect('+33 1 23 45 67 89'); // { start: 0, end: 17 }
 * ```
 */
const phone: PiiDetector = {
  name: 'phone',
  maxLength: 32,
  minLength: 9, // + and 8 digits
  isKeyChar: isDigit,
  isRunChar: (code) =>
    isDigit(code) || code === SPACE || code === 45 || code === 43 || code === 40 || code === 41,
  detect: (run) => {
    const span = trimmed(run, (c) => isDigit(c) || c === 43 || c === 40 || c === 41);
    if (span === undefined) return undefined;
    let text = run.slice(span.start, span.end);
    const international = text.startsWith('+');
    if (international) text = text.slice(1);
    const digits = digitsOf(text, (c) => c === SPACE || c === 45 || c === 40 || c === 41, 2);
    if (digits === undefined) return undefined;
    // Without a + or a separator, only 10 or 11 digits (a bare 14-digit number is no phone).
    const grouped = international || digits.length !== text.length;
    const [min, max] = international ? [8, 15] : grouped ? [10, 15] : [10, 11];
    return digits.length >= min && digits.length <= max ? span : undefined;
  },
};

/**
 * IBANs: two letters, two check digits, up to 30 letters or digits, in groups of four or
 * not, that pass the mod-97 check.
 * @example
 * ```ts
 * import { PiiDetectors } from 'rx-advisors/guardrails';
 * PiiDetectors.iban.detect('DE89 3704 0044 0532 0130 00'); // { start: 0, end: 27 }
 * ```
 */
const iban: PiiDetector = {
  name: 'iban',
  maxLength: 42,
  minLength: 15,
  isKeyChar: isDigit,
  isRunChar: (code) => isDigit(code) || isUpper(code) || code === SPACE,
  detect: (run) => {
    // The first place a country code and check digits start, then the longest end at a
    // group boundary that passes: at most 42 × 42 steps, bounded by maxLength.
    for (let start = 0; start + 4 <= run.length; start++) {
      const c = (i: number) => run.charCodeAt(start + i);
      if (!(isUpper(c(0)) && isUpper(c(1)) && isDigit(c(2)) && isDigit(c(3)))) continue;
      if (start > 0 && run.charCodeAt(start - 1) !== SPACE) continue;
      for (let end = run.length; end >= start + 15; end--) {
        if (run.charCodeAt(end - 1) === SPACE) continue;
        if (end < run.length && run.charCodeAt(end) !== SPACE) continue;
        const compact = run.slice(start, end).replace(/ /g, '');
        if (compact.length >= 15 && compact.length <= 34 && isIbanValid(compact)) {
          return { start, end };
        }
      }
      return undefined;
    }
    return undefined;
  },
};

const KEY_PREFIXES = [
  'sk-',
  'sk_live_',
  'sk_test_',
  'rk_live_',
  'pk_live_',
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'github_pat_',
  'glpat-',
  'xoxb-',
  'xoxp-',
  'xapp-',
  'AKIA',
  'ASIA',
  'AIza',
];

/**
 * API keys and tokens by their well-known prefixes (`sk-`, `sk_live_`, `ghp_`,
 * `github_pat_`, `glpat-`, `xoxb-`, `AKIA`, `AIza`, …) followed by at least 16 more
 * letters, digits, `_` or `-`.
 * @example
 * ```ts
 * import { PiiDetectors } from 'rx-advisors/guardrails';
 * PiiDetectors.apiKey.detect('sk-proj-abcdefghijklmnop1234'); // { start: 0, end: 28 }
 * ```
 */
const apiKey: PiiDetector = {
  name: 'api-key',
  maxLength: 256,
  minLength: 19, // sk- and 16 more
  isRunChar: (code) => isAlnum(code) || code === 95 || code === 45,
  detect: (run) => {
    const prefix = KEY_PREFIXES.find((p) => run.startsWith(p));
    return prefix !== undefined && run.length >= prefix.length + 16
      ? { start: 0, end: run.length }
      : undefined;
  },
};

/**
 * The built-in PII detectors: `email`, `card` (Luhn), `phone`, `iban` (mod 97) and
 * `apiKey`. Where two overlap, the one that starts first wins, then the longer one, then the
 * one listed first.
 * @example
 * ```ts
 * import { PiiDetectors, piiRedaction } from 'rx-advisors/guardrails';
 * piiRedaction({ detectors: [PiiDetectors.email, PiiDetectors.card] });
 * ```
 */
export const PiiDetectors = { email, card, phone, iban, apiKey } as const;

/**
 * Every built-in detector, in the order ties are broken.
 * @internal
 */
export const DEFAULT_PII_DETECTORS: readonly PiiDetector[] = [apiKey, email, card, iban, phone];
