import { compileSchema, type CompiledSchema } from '../schema/compile-schema.js';
import { isZodSchema } from '../schema/zod-like-schema.js';
import type { OutputSchema } from './output-schema.js';

/**
 * An output schema ready to use: its JSON Schema (for instructions and native structured
 * output) and a validator.
 * @internal
 */
export type CompiledOutputSchema<T> = CompiledSchema<T>;

/** How many JSON Schemas (by their text) stay compiled for new objects of the same text. */
const BY_TEXT_LIMIT = 64;
const byText = new Map<string, CompiledSchema<unknown>>();
const byObject = new WeakMap<object, CompiledSchema<unknown>>();

/**
 * Compiles an output schema with the schema module's compiler (the one tool parameters
 * use), typed by the entity it describes. A JSON Schema written inline in a request
 * handler is a new object on every request: it is looked up by its JSON text as well
 * (the last 64 texts), so the ajv compilation (about 2 ms, 7 µs per delta of a 1 KB
 * answer: W6 `schema=per-call`, docs/performance.md) happens once per text, not per call.
 * @internal
 * @param schema The output schema.
 * @param option The option name to blame in an `InvalidOptionsError`.
 * @returns The compiled schema (cached per schema object, and per JSON Schema text).
 */
export function compileOutputSchema<T>(
  schema: OutputSchema<T>,
  option = 'outputSchema',
): CompiledOutputSchema<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || isZodSchema(schema))
    return compileSchema<T>(schema, option);
  const seen = byObject.get(schema);
  if (seen !== undefined) return seen as CompiledSchema<T>;
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return compileSchema<T>(schema, option); // a cycle: ajv reports it
  }
  const result =
    (byText.get(text) as CompiledSchema<T> | undefined) ?? compileSchema<T>(schema, option);
  byObject.set(schema, result);
  if (byText.has(text)) return result;
  if (byText.size >= BY_TEXT_LIMIT) byText.delete(byText.keys().next().value as string);
  byText.set(text, result);
  return result;
}
