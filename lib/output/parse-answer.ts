import type { SchemaLimits } from '../schema/schema-limits.js';
import type { SchemaValidation } from '../schema/validation-issue.js';
import type { CompiledOutputSchema } from './compile-output-schema.js';
import { extractJson } from './extract-json.js';

/**
 * Finds the JSON in an answer and validates it against a compiled schema.
 * @internal
 * @param text The answer text.
 * @param schema The compiled output schema.
 * @param limits `maxDepth` (default 64) and `maxIssues` (default 20), already validated.
 * @returns The value, or the first `maxIssues` issues and their count.
 */
export function parseAnswer<T>(
  text: string,
  schema: CompiledOutputSchema<T>,
  limits: SchemaLimits = {},
): SchemaValidation<T> {
  const extracted = extractJson(
    text,
    limits.maxDepth === undefined ? undefined : { maxDepth: limits.maxDepth },
  );
  if (!extracted.ok) return { valid: false, issues: [extracted.issue], issueCount: 1 };
  return schema.validate(extracted.value, limits.maxIssues);
}
