import { Rules, validateOptions, type OptionRules } from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** The two options every advisor takes: `name` and `order`. */
interface AdvisorIdentity {
  name?: unknown;
  order?: unknown;
}

/**
 * The rules of the `name` and `order` options every advisor takes, to spread into an
 * advisor's own option rules, so every advisor checks them alike.
 * @internal
 */
export const ADVISOR_IDENTITY_RULES = {
  name: Rules.nonEmptyString,
  order: Rules.custom(
    'a number (see Order)',
    (value) => typeof value === 'number' && !Number.isNaN(value),
  ),
} as const satisfies OptionRules<AdvisorIdentity>;

/**
 * Checks a required name and order (`advisor()`, `recursiveAdvisor()`), with the same
 * typed errors as every advisor's options.
 * @internal
 * @example
 * ```ts
 * validateAdvisorIdentity({ name: 'audit', order: 0 });
 * ```
 * @param options The advisor's name and order.
 */
export function validateAdvisorIdentity(options: { name: unknown; order: unknown }): void {
  if (options.name === undefined) {
    throw new InvalidOptionsError({
      option: 'name',
      value: undefined,
      expected: ADVISOR_IDENTITY_RULES.name.expected,
    });
  }
  if (options.order === undefined) {
    throw new InvalidOptionsError({
      option: 'order',
      value: undefined,
      expected: ADVISOR_IDENTITY_RULES.order.expected,
    });
  }
  validateOptions<AdvisorIdentity>(options, ADVISOR_IDENTITY_RULES);
}
