import type { JsonSchema } from '../core/tool-definition.js';
import type { SchemaLimits } from '../schema/schema-limits.js';
import type { StructuredOutputValidationAdvisorOptions } from './structured-output-validation-advisor.js';

/**
 * Options of `call().entity(schema, options)` and `stream().entity(schema, options)`.
 *
 * @example
 * ```ts partial
 * client.prompt('A person').call().entity(Person, { validate: true });
 * client.prompt('A person').call().entity(Person, { validate: { maxAttempts: 5, native: true } });
 * client.prompt('A person').stream().entity(Person, { maxDepth: 16, maxIssues: 5 });
 * ```
 */
export interface EntityOptions extends SchemaLimits {
  /**
   * Add a `StructuredOutputValidationAdvisor` for this call (format instructions,
   * validation, retries with the errors): `true` for the defaults, or its options.
   * Without it, `entity()` sends format instructions (see `instructions`), then parses and
   * validates the answer once and fails with an `EntityParseError`.
   */
  validate?: boolean | Omit<StructuredOutputValidationAdvisorOptions, 'outputSchema'>;
  /**
   * Format instructions carrying the schema, sent as a system message (as Spring AI's
   * `BeanOutputConverter` does): `true` (default), `false`, or a function of the schema
   * returning the text. Not sent when the call uses native structured output
   * (`responseFormat` `json-schema`); with `validate`, the validation advisor sends them
   * (its own `instructions` option wins).
   */
  instructions?: boolean | ((schema: JsonSchema) => string) | undefined;
  /**
   * The deepest nesting of objects and arrays accepted in the answer (default 64); also the
   * validation advisor's, unless `validate` sets its own.
   */
  maxDepth?: number | undefined;
  /**
   * The validation issues kept (default 20; the rest are counted); also the validation
   * advisor's, unless `validate` sets its own.
   */
  maxIssues?: number | undefined;
}

/**
 * The entity type of `entity<T, S>()`: `T` when given explicitly, else inferred from `S`.
 *
 * @example
 * ```ts
 * import type { EntityType } from 'rx-advisors';
 * type P = EntityType<{ name: string }, never>; // { name: string }
 * ```
 */
export type EntityType<T, Inferred> = [T] extends [never] ? Inferred : T;
