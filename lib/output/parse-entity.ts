import { map, type OperatorFunction } from 'rxjs';
import type { ChatResponse } from '../core/chat-response.js';
import { EntityParseError } from '../errors/entity-parse-error.js';
import { resolveSchemaLimits, type SchemaLimits } from '../schema/schema-limits.js';
import { compileOutputSchema } from './compile-output-schema.js';
import type { InferOutput, OutputSchema } from './output-schema.js';
import { parseAnswer } from './parse-answer.js';

/**
 * Turns each response into the entity its text holds: the JSON is found (fences and prose
 * allowed), parsed safely and validated; failure is an `EntityParseError` (its first
 * `maxIssues` issues, and their count). This is what `call().entity(schema)` does.
 *
 * ```
 * source:  ----r|       r: { text: '{"name":"Ada"}' }
 * result:  ----e|       e: { name: 'Ada' }
 * ```
 *
 * @example
 * ```ts partial
 * import { parseEntity } from 'rx-advisors';
 * client.prompt('A person as JSON').call().chatResponse().pipe(parseEntity(personSchema));
 * ```
 * @param schema A JSON Schema or a zod v4 schema.
 * @param options `maxDepth` (default 64) and `maxIssues` (default 20).
 * @returns An operator from responses to entities.
 */
export function parseEntity<S extends OutputSchema>(
  schema: S,
  options?: SchemaLimits,
): OperatorFunction<Pick<ChatResponse, 'text'>, InferOutput<S>> {
  const limits = resolveSchemaLimits(options);
  const compiled = compileOutputSchema(schema, 'schema');
  return map((response) => {
    const result = parseAnswer(response.text, compiled, limits);
    if (result.valid) return result.value as InferOutput<S>;
    throw new EntityParseError({
      errors: result.issues,
      errorCount: result.issueCount,
      text: response.text,
    });
  });
}
