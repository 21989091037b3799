import type { CompiledOutputSchema, SchemaValidation } from './compile-output-schema.js';
import { extractJson } from './extract-json.js';

/**
 * Finds the JSON in an answer and validates it against a compiled schema.
 * @internal
 * @param text The answer text.
 * @param schema The compiled output schema.
 * @returns The value, or every issue found.
 */
export function parseAnswer<T>(text: string, schema: CompiledOutputSchema<T>): SchemaValidation<T> {
  const extracted = extractJson(text);
  if (!extracted.ok) return { valid: false, issues: [extracted.issue] };
  return schema.validate(extracted.value);
}
