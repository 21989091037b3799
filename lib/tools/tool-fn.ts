import type { JSONSchemaType } from 'ajv';
import type { JsonSchema } from '../core/tool-definition.js';
import { Rules, validateOptions, type OptionRules } from '../core/validate-options.js';
import type { FromJsonSchema } from '../schema/from-json-schema.js';
import type { Tool, ToolContext, ToolOutput } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import type { SchemaLimits } from '../schema/schema-limits.js';
import type { ZodLikeSchema } from '../schema/zod-like-schema.js';
import { createArgumentsParser } from './tool-parameters.js';

/**
 * Options of {@link tool}.
 * @example
 * ```ts
 * import { tool, type ToolOptions } from 'rx-advisors';
 * const options: ToolOptions<{ city: string }, string, object> = {
 *   name: 'getTime',
 *   description: 'The current time in a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   execute: ({ city }) => `12:00 in ${city}`,
 *   timeout: 5_000,
 * };
 * ```
 */
export interface ToolOptions<TArgs, TResult, TParameters> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What the tool does and when to use it; the model reads this. */
  description: string;
  /** A JSON Schema (a literal, or ajv's `JSONSchemaType<T>`) or a zod v4 schema. */
  parameters: TParameters;
  /** Runs the tool on validated arguments: returns a value, a Promise or an Observable. */
  execute: (args: TArgs, context: ToolContext) => ToolOutput<TResult>;
  /** When every tool of a round is return-direct, their results are the answer. Default `false`. */
  returnDirect?: boolean;
  /**
   * What the model sees: text, or `{ content, media }` to send images and files with it
   * (see `ToolResultContent`). Default: strings as they are, anything else `JSON.stringify`.
   */
  resultConverter?: (result: TResult) => string | ToolResultContent;
  /** Milliseconds (RxJS time) before the tool is cancelled with a `ToolTimeoutError`. */
  timeout?: number;
  /**
   * Limits on the arguments the model sends: `maxDepth` (nesting of objects and arrays,
   * default 64) and `maxIssues` (validation issues kept in a `ToolArgumentsError`, default 20).
   */
  argumentLimits?: SchemaLimits;
  /**
   * Whether a call must be approved by a human before it runs: `true`, or a function of
   * the validated arguments and the context (sync or async). Default: no approval.
   */
  needsApproval?: boolean | ((args: TArgs, context: ToolContext) => boolean | PromiseLike<boolean>);
  /**
   * Whether running it again with the same arguments is safe: it reads, or its effect
   * happens once whatever the repeats (an upsert keyed by the call). A durable run that
   * resumes re-runs an idempotent call whose outcome was not recorded; a call of any other
   * tool is never re-run silently. Default `false`.
   */
  idempotent?: boolean;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

type AnyToolOptions = ToolOptions<unknown, unknown, unknown>;

const TOOL_NAME_RULE = {
  name: Rules.required(
    Rules.custom(
      'letters, digits, "_" or "-", 1 to 64 characters (what providers accept)',
      (value) => typeof value === 'string' && NAME_PATTERN.test(value),
    ),
  ),
} as const satisfies OptionRules<AnyToolOptions>;

/** Checked with the tool's name as a prefix (`getTime.execute`). */
const TOOL_RULES = {
  description: Rules.required(
    Rules.custom(
      'a string telling the model what the tool does',
      (value) => typeof value === 'string',
    ),
  ),
  execute: Rules.required(
    Rules.custom(
      'a function (args, context) => value | Promise | Observable',
      (value) => typeof value === 'function',
    ),
  ),
  resultConverter: Rules.func,
  timeout: Rules.custom(
    'a positive number of milliseconds',
    (value) => typeof value === 'number' && value > 0,
  ),
  needsApproval: Rules.custom(
    'a boolean or a function (args, context) => boolean | Promise<boolean>',
    (value) => typeof value === 'boolean' || typeof value === 'function',
  ),
  idempotent: Rules.boolean,
} as const satisfies OptionRules<AnyToolOptions>;

/**
 * Defines a tool. `parameters` is a JSON Schema or a zod v4 schema; the arguments the
 * model sends are parsed safely and validated before `execute` runs, and `execute`'s
 * argument type follows from the schema (an inline literal, a zod schema, or an explicit
 * type argument for ajv's `JSONSchemaType<T>`).
 *
 * @example
 * ```ts
 * import { tool } from 'rx-advisors';
 * import { z } from 'zod';
 *
 * const getTime = tool({
 *   name: 'getTime',
 *   description: 'The current time in a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   execute: ({ city }) => `12:00 in ${city}`, // city: string
 * });
 * const getWeather = tool({
 *   name: 'getWeather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: async ({ city }, { signal }) => (await fetch(`https://wttr.in/${city}`, { signal })).text(),
 * });
 * ```
 * @param options Name, description, parameters, execute, and optionally returnDirect,
 *   resultConverter and timeout.
 * @returns A tool to pass to `prompt().tools(...)`, `defaultTools(...)` or a `ToolRegistry`.
 */
export function tool<const TSchema extends ZodLikeSchema, TResult>(
  options: ToolOptions<TSchema['_zod']['output'], TResult, TSchema>,
): Tool<TSchema['_zod']['output'], TResult>;
export function tool<const TSchema extends JsonSchema, TResult>(
  options: ToolOptions<FromJsonSchema<TSchema>, TResult, TSchema>,
): Tool<FromJsonSchema<TSchema>, TResult>;
export function tool<TArgs, TResult = unknown>(
  options: ToolOptions<TArgs, TResult, JSONSchemaType<TArgs>>,
): Tool<TArgs, TResult>;
export function tool(options: ToolOptions<unknown, unknown, unknown>): Tool {
  const { name, description, parameters, execute, returnDirect = false, timeout } = options;
  validateOptions(options, TOOL_NAME_RULE, '', { unknownKeys: 'allow' });
  validateOptions(options, TOOL_RULES, `${name}.`, {
    known: ['name', 'parameters', 'returnDirect', 'argumentLimits'],
  });
  const { needsApproval } = options;
  const parser = createArgumentsParser(name, parameters, options.argumentLimits);
  const convert = options.resultConverter ?? defaultResultConverter;
  return Object.freeze({
    name,
    description,
    inputSchema: parser.inputSchema,
    returnDirect,
    timeout,
    ...(needsApproval === undefined || needsApproval === false ? {} : { needsApproval }),
    ...(options.idempotent === true ? { idempotent: true } : {}),
    parseArguments: (text: string) => parser.parse(text),
    execute,
    convertResult: (result: unknown) => convert(result),
  });
}

/**
 * Strings as they are; `undefined` as `null`; anything else as JSON.
 */
function defaultResultConverter(result: unknown): string {
  if (typeof result === 'string') return result;
  return JSON.stringify(result ?? null);
}
