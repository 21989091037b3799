import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaValidator } from '../core/schema-validator.js';
import type { JsonSchema } from '../core/tool-definition.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ToolArgumentsError } from '../errors/tool-arguments-error.js';

interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

type StandardResult = { readonly value: unknown } | { readonly issues: readonly StandardIssue[] };

/**
 * A zod v4 schema, seen structurally so that rx-advisors never imports zod (an optional
 * peer). `z.infer<typeof schema>` is `schema['_zod']['output']`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import type { ZodLikeSchema } from 'rx-advisors';
 * const city: ZodLikeSchema<{ city: string }> = z.object({ city: z.string() });
 * ```
 */
export interface ZodLikeSchema<TOutput = unknown> {
  readonly _zod: { readonly output: TOutput };
  readonly '~standard': {
    readonly vendor: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}

/**
 * What `tool({ parameters })` accepts: a JSON Schema object or a zod v4 schema.
 * @example
 * ```ts
 * import type { ToolParameters } from 'rx-advisors';
 * const parameters: ToolParameters = { type: 'object', properties: { city: { type: 'string' } } };
 * ```
 */
export type ToolParameters = JsonSchema | ZodLikeSchema;

/** Turns a model's arguments text into validated arguments. @internal */
export interface ArgumentsParser {
  /** The JSON Schema sent to the model. */
  readonly inputSchema: JsonSchema;
  parse(text: string): unknown;
}

/**
 * Whether `value` is a zod v4 schema (checked structurally: zod's `_zod` internals and its
 * Standard Schema interface).
 * @internal
 */
export function isZodSchema(value: unknown): value is ZodLikeSchema {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return false;
  const standard = (value as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof standard?.validate === 'function';
}

/**
 * Builds the parser of one tool's arguments; fails fast on a schema ajv cannot compile.
 * @internal
 */
export function createArgumentsParser(toolName: string, parameters: unknown): ArgumentsParser {
  if (isZodSchema(parameters)) return zodParser(toolName, parameters);
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    throw new InvalidOptionsError({
      option: `${toolName}.parameters`,
      value: parameters,
      expected: 'a JSON Schema object (e.g. { type: "object", properties: {...} }) or a zod schema',
    });
  }
  const schema = parameters as JsonSchema;
  let validate: ValidateFunction;
  try {
    validate = schemaValidator(schema).compile(withoutMetaSchema(schema));
  } catch (error) {
    throw new InvalidOptionsError({
      option: `${toolName}.parameters`,
      value: schema,
      expected: `a JSON Schema ajv can compile (${error instanceof Error ? error.message : String(error)})`,
    });
  }
  return {
    inputSchema: schema,
    parse(text: string): unknown {
      const args = parseArgumentsJson(toolName, text);
      if (!validate(args)) {
        throw new ToolArgumentsError({
          toolName,
          arguments: text,
          reason: 'invalid',
          issues: (validate.errors ?? []).map(formatAjvError),
        });
      }
      return args;
    },
  };
}

/**
 * Parses a model's arguments text: an empty string is `{}`, and `__proto__` keys are
 * dropped so that no later merge of the arguments can change a prototype.
 * @internal
 */
export function parseArgumentsJson(toolName: string, text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text, dropProtoKeys) as unknown;
  } catch (error) {
    throw new ToolArgumentsError({
      toolName,
      arguments: text,
      reason: 'malformed-json',
      issues: [error instanceof Error ? error.message : String(error)],
      cause: error,
    });
  }
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

function zodParser(toolName: string, schema: ZodLikeSchema): ArgumentsParser {
  return {
    inputSchema: zodToJsonSchema(toolName, schema),
    parse(text: string): unknown {
      const args = parseArgumentsJson(toolName, text);
      const result = schema['~standard'].validate(args);
      if (result instanceof Promise) {
        throw new ToolArgumentsError({
          toolName,
          arguments: text,
          reason: 'invalid',
          issues: ['the parameters schema is asynchronous (async refinements are not supported)'],
        });
      }
      if ('issues' in result) {
        throw new ToolArgumentsError({
          toolName,
          arguments: text,
          reason: 'invalid',
          issues: result.issues.map(formatStandardIssue),
        });
      }
      return result.value;
    },
  };
}

function zodToJsonSchema(toolName: string, schema: ZodLikeSchema): JsonSchema {
  // zod's own converter, reached through the schema so the core never imports zod.
  // `io: 'input'` describes what the model must send (defaults optional, before transforms).
  const convert = (schema as { toJSONSchema?: (params: { io: 'input' }) => unknown }).toJSONSchema;
  const standard = (
    schema['~standard'] as {
      jsonSchema?: { input?: (options: { target: string }) => unknown };
    }
  ).jsonSchema;
  let converted: unknown;
  if (typeof convert === 'function') converted = convert.call(schema, { io: 'input' });
  else if (typeof standard?.input === 'function')
    converted = standard.input({ target: 'draft-2020-12' });
  else {
    throw new InvalidOptionsError({
      option: `${toolName}.parameters`,
      value: schema,
      expected:
        'a zod (classic, v4.2 or later) schema with a JSON Schema export, or a JSON Schema object such as z.toJSONSchema(schema)',
    });
  }
  return withoutMetaSchema(converted as JsonSchema);
}

function withoutMetaSchema(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function formatAjvError(error: ErrorObject): string {
  return `${error.instancePath === '' ? '(root)' : error.instancePath}: ${error.message ?? error.keyword}`;
}

function formatStandardIssue(issue: StandardIssue): string {
  const path = (issue.path ?? [])
    .map((part) => String(typeof part === 'object' ? part.key : part))
    .join('/');
  return `${path === '' ? '(root)' : `/${path}`}: ${issue.message}`;
}
