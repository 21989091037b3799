import {
  Rules,
  validateOptions,
  type OptionRule,
  type OptionRules,
} from '../core/validate-options.js';

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
 * The `order` rule of an advisor that accepts only some orders (integers, or an order
 * before the tool loop): still every advisor's order rule, narrowed by `narrower`, whose
 * words the error names.
 * @internal
 * @example
 * ```ts
 * const rules = { ...ADVISOR_IDENTITY_RULES, order: narrowOrder(Rules.integer()) };
 * ```
 * @param narrower The advisor's own constraint on its order.
 * @returns The rule to put under `order`, after spreading {@link ADVISOR_IDENTITY_RULES}.
 */
export function narrowOrder(narrower: OptionRule): OptionRule {
  return Rules.custom(
    narrower.expected,
    (value) => ADVISOR_IDENTITY_RULES.order.test(value) && narrower.test(value),
  );
}

const REQUIRED_IDENTITY_RULES = {
  name: Rules.required(ADVISOR_IDENTITY_RULES.name),
  order: Rules.required(ADVISOR_IDENTITY_RULES.order),
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
  validateOptions<AdvisorIdentity>(options, REQUIRED_IDENTITY_RULES);
}
