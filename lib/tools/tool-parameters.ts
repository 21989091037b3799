import type { JsonSchema } from '../core/tool-definition.js';
import { ToolArgumentsError } from '../errors/tool-arguments-error.js';
import { compileSchema } from '../schema/compile-schema.js';
import { formatIssueLine, omittedIssuesLine } from '../schema/format-issues.js';
import { parseJson } from '../schema/parse-json.js';
import {
  resolveSchemaLimits,
  SCHEMA_LIMIT_DEFAULTS,
  type SchemaLimits,
} from '../schema/schema-limits.js';
import { withoutMetaSchema } from '../schema/schema-validator.js';
import type { ValidationIssue } from '../schema/validation-issue.js';
import { isZodSchema, type ZodLikeSchema } from '../schema/zod-like-schema.js';

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
 * Builds the parser of one tool's arguments on the schema module: safe JSON parsing
 * (unsafe keys dropped, depth capped) then validation (ajv or zod), issues capped. Fails
 * fast on a schema that cannot be compiled or a bad limit.
 * @internal
 * @param toolName The tool, for errors.
 * @param parameters A JSON Schema object or a zod v4 schema.
 * @param limits `maxDepth` and `maxIssues` (defaults 64 and 20).
 * @returns The parser.
 */
export function createArgumentsParser(
  toolName: string,
  parameters: unknown,
  limits?: SchemaLimits,
): ArgumentsParser {
  const { maxDepth, maxIssues } = resolveSchemaLimits(limits, `${toolName}.argumentLimits.`);
  const schema = compileSchema(parameters, `${toolName}.parameters`);
  return {
    // zod's `$schema` is left out of tool definitions; a JSON Schema is sent as given.
    inputSchema: isZodSchema(parameters) ? withoutMetaSchema(schema.jsonSchema) : schema.jsonSchema,
    parse(text: string): unknown {
      const args = parseArgumentsJson(toolName, text, maxDepth);
      const result = schema.validate(args, maxIssues);
      if (result.valid) return result.value;
      throw new ToolArgumentsError({
        toolName,
        arguments: text,
        reason: 'invalid',
        issues: issueLines(result.issues, result.issueCount),
      });
    },
  };
}

/**
 * Parses a model's arguments text: an empty string is `{}`; JSON nested deeper than
 * `maxDepth` is rejected; `__proto__` keys, and `constructor` keys whose value has a
 * `prototype` key, are dropped, so that no later merge of the arguments can reach a
 * prototype through them.
 * @internal
 * @param toolName The tool, for errors.
 * @param text The arguments text.
 * @param maxDepth The deepest nesting accepted; default 64.
 * @returns The parsed arguments.
 */
export function parseArgumentsJson(
  toolName: string,
  text: string,
  maxDepth: number = SCHEMA_LIMIT_DEFAULTS.maxDepth,
): unknown {
  if (text.trim() === '') return {};
  const parsed = parseJson(text, maxDepth);
  if (parsed.ok) return parsed.value;
  throw new ToolArgumentsError({
    toolName,
    arguments: text,
    reason: parsed.reason === 'too-deep' ? 'invalid' : 'malformed-json',
    issues: [parsed.reason === 'too-deep' ? `(root): ${parsed.message}` : parsed.detail],
    cause: parsed.cause,
  });
}

function issueLines(issues: readonly ValidationIssue[], issueCount: number): string[] {
  const lines = issues.map(formatIssueLine);
  const omitted = omittedIssuesLine(issues.length, issueCount);
  if (omitted !== undefined) lines.push(omitted);
  return lines;
}
