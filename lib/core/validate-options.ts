import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { nearestName } from './nearest-name.js';

/** One check on one option: a predicate and the words that say what it expects. */
export interface OptionRule {
  /** What a valid value is, for the error message (`'a positive integer'`). */
  readonly expected: string;
  /** Whether `value` is valid. `undefined` never reaches a rule; absent options are skipped. */
  readonly test: (value: unknown) => boolean;
  /** When `true`, an absent (`undefined`) option is an error too. */
  readonly required?: boolean;
}

/** The rules for an options type: at most one rule per option. */
export type OptionRules<T> = { readonly [K in keyof T]?: OptionRule };

const rule = (expected: string, test: (value: unknown) => boolean): OptionRule => ({
  expected,
  test,
});

const isNumberIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && value >= min && value <= max;

/**
 * The rules every options type is built from, for {@link validateOptions}.
 * @internal
 */
export const Rules = {
  /** An integer in `[min, max]`. */
  integer: (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): OptionRule =>
    rule(
      max === Number.MAX_SAFE_INTEGER
        ? `an integer of at least ${min}`
        : `an integer from ${min} to ${max}`,
      (value) => Number.isInteger(value) && isNumberIn(value, min, max),
    ),
  /** A number in `[min, max]` (not NaN; `Infinity` only when `max` is `Infinity`). */
  number: (min = -Infinity, max = Infinity): OptionRule =>
    rule(
      max === Infinity ? `a number of at least ${min}` : `a number from ${min} to ${max}`,
      (value) => isNumberIn(value, min, max),
    ),
  /** A number greater than zero and finite (milliseconds, sizes). */
  positive: rule(
    'a positive finite number',
    (value) => typeof value === 'number' && value > 0 && Number.isFinite(value),
  ),
  /** One of the given literals. */
  oneOf: (...values: readonly unknown[]): OptionRule =>
    rule(values.map((v) => JSON.stringify(v)).join(' or '), (value) => values.includes(value)),
  /** A function. */
  func: rule('a function', (value) => typeof value === 'function'),
  /** `true` or `false`. */
  boolean: rule('true or false', (value) => typeof value === 'boolean'),
  /** A non-empty string. */
  nonEmptyString: rule(
    'a non-empty string',
    (value) => typeof value === 'string' && value.length > 0,
  ),
  /**
   * A plain SQL identifier (a table name a store puts in its statements) of at most
   * `maxLength` characters: letters, digits and underscores, not starting with a digit. At
   * 63, PostgreSQL's own limit, the message names no length.
   */
  sqlIdentifier: (maxLength = 63): OptionRule => {
    const pattern = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${maxLength - 1}}$`);
    return rule(
      `a SQL identifier${maxLength === 63 ? '' : ` of at most ${maxLength} characters`}: letters, digits and underscores, not starting with a digit`,
      (value) => typeof value === 'string' && pattern.test(value),
    );
  },
  /** A custom rule. */
  custom: rule,
  /** The same rule, for an option that must be given. */
  required: (optionRule: OptionRule): OptionRule => ({ ...optionRule, required: true }),
} as const;

/**
 * How {@link validateOptions} treats keys that are neither in the rules nor in `known`.
 * @internal
 */
export interface UnknownKeyPolicy {
  /** Options that have no rule but are known (checked elsewhere, or any value goes). */
  readonly known?: readonly string[];
  /**
   * `'typos'` (the default): a key close to a known one (`maxRound` for `maxRounds`) is an
   * error naming it; other keys pass, since some options objects are, by design, wider
   * than the rules of the function that checks them (a subclass's options, a source's
   * `server` checked elsewhere). `'refuse'`: every unknown key is an error, for a final
   * options type (a class's constructor when `new.target` is the class itself).
   * `'allow'`: no key is (the rules are a subset on purpose).
   */
  readonly unknownKeys?: 'refuse' | 'typos' | 'allow';
}

/**
 * Checks every option that has a rule and is not `undefined`; throws an
 * `InvalidOptionsError` naming the first bad option, its value and what is expected.
 * A key that is neither in the rules nor in `policy.known` but close to one of them is
 * refused too, naming it (`maxRound` → "did you mean maxRounds?"): a misspelt option would
 * otherwise be silently ignored and its default used. With `unknownKeys: 'refuse'` every
 * unknown key is.
 * The one option-validation helper of the library: every options type declares its
 * rules (and its defaults, in one readonly constant) next to its interface.
 *
 * @param options The options as the user passed them (may be `undefined`).
 * @param rules The rules, by option name.
 * @param prefix Prepended to option names in errors (`'toolCallLimits.'`).
 * @param policy Known options without a rule, and how unknown keys are treated.
 * @returns The same options object, or `{}` for `undefined`.
 * @internal
 */
export function validateOptions<T extends object>(
  options: T | undefined,
  rules: OptionRules<T>,
  prefix = '',
  policy: UnknownKeyPolicy = {},
): T {
  const given = (options ?? {}) as T;
  if (policy.unknownKeys !== 'allow') refuseUnknownKeys(given, rules, prefix, policy);
  for (const key of Object.keys(rules) as (keyof T & string)[]) {
    const check = rules[key];
    const value: unknown = given[key];
    if (check === undefined || (value === undefined && check.required !== true)) continue;
    if (value === undefined || !check.test(value)) {
      throw new InvalidOptionsError({ option: prefix + key, value, expected: check.expected });
    }
  }
  return given;
}

/**
 * Merges `defaults` with the options that are set: an option whose value is `undefined`
 * keeps its default (what `exactOptionalPropertyTypes` users expect of `{ x: undefined }`).
 *
 * @param defaults One readonly constant per options type.
 * @param options The validated options.
 * @returns A new object: the defaults, overridden by every defined option.
 * @internal
 */
export function withDefaults<D extends object, T extends object>(defaults: D, options: T): D & T {
  const merged = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) merged[key] = value;
  }
  return merged as D & T;
}

function refuseUnknownKeys(
  given: object,
  rules: object,
  prefix: string,
  policy: UnknownKeyPolicy,
): void {
  for (const key of Object.keys(given)) {
    // Nearly every key given has a rule: that one lookup is all a valid key costs (the list
    // of known names is built only for a key that has none, to name the nearest).
    if (Object.hasOwn(rules, key)) continue;
    const value: unknown = (given as Record<string, unknown>)[key];
    if (value === undefined || policy.known?.includes(key) === true) continue;
    const known = [...Object.keys(rules), ...(policy.known ?? [])];
    const nearest = nearestName(key, known);
    if (nearest === undefined && policy.unknownKeys !== 'refuse') continue;
    const options = known.map((name) => `"${prefix}${name}"`).join(', ');
    throw new InvalidOptionsError({
      option: prefix + key,
      value,
      expected:
        nearest === undefined
          ? `no such option; the known options are ${options}`
          : `no such option; did you mean "${prefix}${nearest}"?`,
    });
  }
}
