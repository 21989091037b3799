import { concat, defer, filter, map, of, type OperatorFunction } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { EntityParseError } from '../errors/entity-parse-error.js';
import { resolveSchemaLimits, type SchemaLimits } from '../schema/schema-limits.js';
import { compileOutputSchema } from './compile-output-schema.js';
import type { InferOutput, OutputSchema } from './output-schema.js';
import { parseAnswer } from './parse-answer.js';
import { NO_VALUE, PartialJsonParser } from './partial-json-parser.js';

/**
 * A value whose object properties and array items may still be missing, as a partial
 * JSON answer is.
 *
 * @example
 * ```ts
 * import type { DeepPartial } from 'rx-advisors';
 * const preview: DeepPartial<{ name: string; tags: string[] }> = { tags: ['a'] };
 * ```
 */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * From a chunk stream to the entity as it streams in: a partial object each time the
 * JSON grows (prose and fences before it are skipped), then, when the stream completes,
 * the validated entity (an `EntityParseError` when it does not match). A `retry` chunk
 * starts over: the next partial belongs to the new attempt. This is what
 * `stream().entity(schema)` does. Partials are previews: they may repeat, and strings and
 * numbers may still grow; only the last value is validated. A change is shown as soon as
 * the text grew by one character per 8 members a preview copies (the work per delta stays
 * flat at any size, see docs/structured-output.md). Previews share their complete members
 * with the next ones: treat them as read-only. They are as safe to merge as the final
 * value: no own `__proto__` key, escaped or not.
 *
 * ```
 * source:  -a--b--c--f|        a: '{"name":', b: '"Ad', c: 'a"}', f: finish
 * result:  -p--q--r--(s|)      p: {}, q: { name: 'Ad' }, r: { name: 'Ada' }, s: validated
 * ```
 *
 * @example
 * ```ts partial
 * import { streamEntity } from 'rx-advisors';
 * client.prompt('A person as JSON').stream().chunks().pipe(streamEntity(personSchema))
 *   .subscribe((partial) => render(partial));
 * ```
 * @param schema A JSON Schema or a zod v4 schema.
 * @param options `maxDepth` (default 64: no previews past it, and the final value fails)
 *   and `maxIssues` (default 20).
 * @returns An operator from chunks to partial entities, the last one complete and valid.
 */
export function streamEntity<S extends OutputSchema>(
  schema: S,
  options?: SchemaLimits,
): OperatorFunction<ChatChunk, DeepPartial<InferOutput<S>>> {
  const limits = resolveSchemaLimits(options);
  const compiled = compileOutputSchema(schema, 'schema');
  return (source) =>
    defer(() => {
      const parser = new PartialJsonParser(limits.maxDepth);
      const partials$ = source.pipe(
        map((chunk) => {
          if (chunk.type === 'text-delta') return parser.push(chunk.text);
          if (chunk.type === 'retry') parser.reset();
          return NO_VALUE;
        }),
        filter((value) => value !== NO_VALUE),
      );
      const final$ = defer(() => {
        const text = parser.fullText;
        const result = parseAnswer(text, compiled, limits);
        if (!result.valid) {
          throw new EntityParseError({
            errors: result.issues,
            errorCount: result.issueCount,
            text,
          });
        }
        return of(result.value);
      });
      return concat(partials$, final$) as ReturnType<
        OperatorFunction<ChatChunk, DeepPartial<InferOutput<S>>>
      >;
    });
}
