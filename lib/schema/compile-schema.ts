import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../core/tool-definition.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { formatAjvErrors, formatStandardIssues } from './format-issues.js';
import { withSafeIntegers } from './safe-integer-keyword.js';
import { SCHEMA_LIMIT_DEFAULTS } from './schema-limits.js';
import { schemaValidator, withoutMetaSchema } from './schema-validator.js';
import type { SchemaValidation } from './validation-issue.js';
import { isZodSchema, type StandardResult, type ZodLikeSchema } from './zod-like-schema.js';
import { zodToJsonSchema } from './zod-to-json-schema.js';
import { errorMessageOf } from '../errors/error-details.js';

/**
 * A schema ready to use: its JSON Schema (for a model: tool definitions, format
 * instructions, native structured output) and a validator.
 * @internal
 */
export interface CompiledSchema<T> {
  /** The JSON Schema as given, or zod's conversion of a zod schema. */
  readonly jsonSchema: JsonSchema;
  /**
   * Validates a parsed value.
   * @param value The value.
   * @param maxIssues How many issues to keep (default 20); the rest are only counted.
   */
  validate(value: unknown, maxIssues?: number): SchemaValidation<T>;
}

const compiled = new WeakMap<object, CompiledSchema<unknown>>();

/**
 * Compiles a JSON Schema (ajv, in the dialect `schemaValidator` picks) or a zod v4 schema
 * (converted by zod's own converter, validated by zod). The one compiler behind tool
 * parameters and output schemas; compiled schemas are cached per schema object.
 * @internal
 * @param schema A JSON Schema object or a zod v4 schema.
 * @param option The option to blame in an `InvalidOptionsError` (`'outputSchema'`).
 * @returns The compiled schema.
 */
export function compileSchema<T = unknown>(schema: unknown, option: string): CompiledSchema<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected:
        'a JSON Schema object or a zod v4 schema (e.g. { type: "object", properties: {…} })',
    });
  }
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached as CompiledSchema<T>;
  const result = isZodSchema(schema)
    ? compileZod<T>(schema, option)
    : compileJsonSchema<T>(schema as JsonSchema, option);
  compiled.set(schema, result);
  return result;
}

function compileJsonSchema<T>(schema: JsonSchema, option: string): CompiledSchema<T> {
  let validator: ValidateFunction;
  try {
    validator = schemaValidator(schema).compile(withSafeIntegers(withoutMetaSchema(schema)));
  } catch (error) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected: `a valid JSON Schema (ajv: ${errorMessageOf(error)})`,
    });
  }
  return {
    jsonSchema: schema,
    validate(value, maxIssues = SCHEMA_LIMIT_DEFAULTS.maxIssues) {
      if (validator(value)) return { valid: true, value: value as T };
      return { valid: false, ...formatAjvErrors(validator.errors, maxIssues) };
    },
  };
}

function compileZod<T>(schema: ZodLikeSchema, option: string): CompiledSchema<T> {
  return {
    jsonSchema: zodToJsonSchema(schema, option),
    validate(value, maxIssues = SCHEMA_LIMIT_DEFAULTS.maxIssues) {
      const result = standardValidate(schema, value);
      if (result instanceof Promise) {
        // Never left unhandled; an async schema cannot judge a value synchronously.
        result.catch(() => undefined);
        return {
          valid: false,
          issues: [
            {
              path: '',
              message:
                'cannot be checked: the zod schema is asynchronous (async refinements are not supported)',
            },
          ],
          issueCount: 1,
        };
      }
      if (!('issues' in result)) return { valid: true, value: result.value as T };
      return { valid: false, ...formatStandardIssues(result.issues, maxIssues) };
    },
  };
}

type ZodSafeParseResult =
  { success: true; data: unknown } | { success: false; error: { issues: ZodIssue[] } };

interface ZodIssue {
  path: PropertyKey[];
  message: string;
}

function standardValidate(
  schema: ZodLikeSchema,
  value: unknown,
): StandardResult | Promise<StandardResult> {
  // zod's `safeParse` lets an exception of a user refinement through (the stream's error);
  // its Standard Schema `validate` would retry asynchronously instead.
  const safeParse = (schema as { safeParse?: unknown }).safeParse;
  if (typeof safeParse !== 'function') return schema['~standard'].validate(value);
  const result = (safeParse as (data: unknown) => ZodSafeParseResult).call(schema, value);
  return result.success ? { value: result.data } : { issues: result.error.issues };
}
