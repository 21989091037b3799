import { compileSchema, type CompiledSchema } from '../schema/compile-schema.js';
import type { OutputSchema } from './output-schema.js';

/**
 * An output schema ready to use: its JSON Schema (for instructions and native structured
 * output) and a validator.
 * @internal
 */
export type CompiledOutputSchema<T> = CompiledSchema<T>;

/**
 * Compiles an output schema with the schema module's compiler (the one tool parameters
 * use), typed by the entity it describes.
 * @internal
 * @param schema The output schema.
 * @param option The option name to blame in an `InvalidOptionsError`.
 * @returns The compiled schema (cached per schema object).
 */
export function compileOutputSchema<T>(
  schema: OutputSchema<T>,
  option = 'outputSchema',
): CompiledOutputSchema<T> {
  return compileSchema<T>(schema, option);
}
