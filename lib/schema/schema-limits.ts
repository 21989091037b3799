import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';

/**
 * The limits on parsing and validating untrusted JSON (model answers, tool arguments).
 *
 * @example
 * ```ts
 * import { StructuredOutputValidationAdvisor, type SchemaLimits } from 'rx-advisors';
 * const limits: SchemaLimits = { maxDepth: 32, maxIssues: 10 };
 * new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' }, ...limits });
 * ```
 */
export interface SchemaLimits {
  /**
   * The deepest nesting of objects and arrays accepted (the top-level value is depth 1);
   * deeper JSON is rejected with the issue "is nested too deeply" before it is parsed.
   * Default 64, at most 1000.
   */
  maxDepth?: number | undefined;
  /**
   * The validation issues kept per validation (per attempt, per tool call); the rest are
   * counted, not kept. Default 20.
   */
  maxIssues?: number | undefined;
}

/**
 * Both limits, resolved.
 * @internal
 */
export interface ResolvedSchemaLimits {
  readonly maxDepth: number;
  readonly maxIssues: number;
}

/**
 * The defaults of {@link SchemaLimits}.
 * @internal
 */
export const SCHEMA_LIMIT_DEFAULTS: ResolvedSchemaLimits = {
  maxDepth: 64,
  maxIssues: 20,
};

/**
 * The rules of {@link SchemaLimits}, for `validateOptions`. `maxDepth` stays far below the
 * depth where recursive JSON revivers and validators overflow the stack (~3000).
 * @internal
 */
export const SCHEMA_LIMIT_RULES = {
  maxDepth: Rules.integer(1, 1000),
  maxIssues: Rules.integer(1, 100_000),
} as const satisfies OptionRules<SchemaLimits>;

/**
 * Validates `limits` and fills in the defaults.
 * @internal
 * @param limits The limits as the user passed them (may be `undefined`).
 * @param prefix Prepended to option names in errors (`'getTime.'`).
 * @returns Both limits, defaults filled in.
 * @throws InvalidOptionsError naming the bad limit.
 */
export function resolveSchemaLimits(
  limits: SchemaLimits | undefined,
  prefix = '',
): ResolvedSchemaLimits {
  const { maxDepth, maxIssues } = limits ?? {};
  return withDefaults(
    SCHEMA_LIMIT_DEFAULTS,
    validateOptions({ maxDepth, maxIssues }, SCHEMA_LIMIT_RULES, prefix),
  );
}
