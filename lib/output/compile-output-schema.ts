import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaValidator } from '../core/schema-validator.js';
import type { JsonSchema } from '../core/tool-definition.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ZodLikeSchema } from '../tools/tool-parameters.js';
import { isZodLikeSchema, type OutputSchema, type ValidationIssue } from './output-schema.js';

/**
 * The outcome of validating a parsed answer.
 * @internal
 */
export type SchemaValidation<T> =
  { valid: true; value: T } | { valid: false; issues: ValidationIssue[] };

/**
 * An output schema ready to use: its JSON Schema (for instructions and native structured
 * output) and a validator.
 * @internal
 */
export interface CompiledOutputSchema<T> {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): SchemaValidation<T>;
}

const compiled = new WeakMap<object, CompiledOutputSchema<unknown>>();

/**
 * Compiles a JSON Schema (ajv, in the dialect `schemaValidator` picks: 2020-12 by default)
 * or a zod v4 schema (converted with its own `toJSONSchema`, validated by zod). Compiled
 * schemas are cached per schema object.
 * @internal
 * @param schema The output schema.
 * @param option The option name to blame in an `InvalidOptionsError`.
 * @returns The compiled schema.
 */
export function compileOutputSchema<T>(
  schema: OutputSchema<T>,
  option = 'outputSchema',
): CompiledOutputSchema<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected: 'a JSON Schema object or a zod v4 schema',
    });
  }
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached as CompiledOutputSchema<T>;
  const result = isZodLikeSchema(schema)
    ? compileZod(schema, option)
    : compileJsonSchema<T>(schema, option);
  compiled.set(schema, result);
  return result;
}

function compileJsonSchema<T>(schema: JsonSchema, option: string): CompiledOutputSchema<T> {
  let validator: ValidateFunction;
  try {
    validator = schemaValidator(schema).compile(schema);
  } catch (error) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected: `a valid JSON Schema (ajv: ${error instanceof Error ? error.message : String(error)})`,
    });
  }
  return {
    jsonSchema: schema,
    validate(value) {
      if (validator(value)) return { valid: true, value: value as T };
      return { valid: false, issues: (validator.errors ?? []).map(toIssue) };
    },
  };
}

function toIssue(error: ErrorObject): ValidationIssue {
  const message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params['additionalProperty']))}`,
        message: 'is not allowed (additionalProperties is false)',
      };
    case 'required':
      return {
        path: `${error.instancePath}/${escapePointer(String(params['missingProperty']))}`,
        message: 'is required but missing',
      };
    case 'enum':
      return {
        path: error.instancePath,
        message: `${message}: ${JSON.stringify(params['allowedValues'])}`,
      };
    default:
      return { path: error.instancePath, message };
  }
}

function compileZod<T>(schema: ZodLikeSchema<T>, option: string): CompiledOutputSchema<T> {
  return {
    jsonSchema: zodToJsonSchema(schema, option),
    validate(value) {
      const result = standardValidate(schema, value);
      if (result instanceof Promise) {
        // Never left unhandled; an async schema cannot judge a value synchronously.
        result.catch(() => undefined);
        return {
          valid: false,
          issues: [{ path: '', message: 'cannot be checked: the zod schema is asynchronous' }],
        };
      }
      if (!('issues' in result)) return { valid: true, value: result.value as T };
      return {
        valid: false,
        issues: result.issues.map((issue) => ({
          path: (issue.path ?? [])
            .map((part) => `/${escapePointer(String(typeof part === 'object' ? part.key : part))}`)
            .join(''),
          message: issue.message,
        })),
      };
    },
  };
}

type StandardResult = ReturnType<ZodLikeSchema['~standard']['validate']>;

function standardValidate(schema: ZodLikeSchema, value: unknown): StandardResult {
  // zod's `safeParse` lets an exception of a user refinement through (the stream's error);
  // its Standard Schema `validate` would retry asynchronously instead.
  const safeParse = (schema as { safeParse?: unknown }).safeParse;
  if (typeof safeParse !== 'function') return schema['~standard'].validate(value);
  const result = (safeParse as (data: unknown) => ZodSafeParseResult).call(schema, value);
  return result.success ? { value: result.data } : { issues: result.error.issues };
}

type ZodSafeParseResult =
  | { success: true; data: unknown }
  | {
      success: false;
      error: { issues: { path: PropertyKey[]; message: string }[] };
    };

interface ZodJsonSchemaSource {
  toJSONSchema?: (params: { io: 'input' }) => unknown;
  '~standard'?: { jsonSchema?: { input?: (options: { target: string }) => unknown } };
}

function zodToJsonSchema(schema: ZodLikeSchema, option: string): JsonSchema {
  // zod's own converter: the schema method (zod classic) or Standard JSON Schema, when present.
  const source = schema as unknown as ZodJsonSchemaSource;
  let converted: unknown;
  try {
    // `io: 'input'`: what the model must write, before zod's transforms and defaults apply.
    if (typeof source.toJSONSchema === 'function') converted = source.toJSONSchema({ io: 'input' });
    else converted = source['~standard']?.jsonSchema?.input?.({ target: 'draft-2020-12' });
  } catch (error) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected: `a zod schema that zod can convert to JSON Schema (${error instanceof Error ? error.message : String(error)})`,
    });
  }
  if (typeof converted !== 'object' || converted === null) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected:
        'a zod v4 classic schema (zod 4.2 or later), which converts itself to JSON Schema; zod/mini schemas cannot',
    });
  }
  return converted as JsonSchema;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
