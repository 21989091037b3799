import type { JsonSchema } from '../core/tool-definition.js';
import type { FromJsonSchema } from '../schema/from-json-schema.js';
import type { ZodLikeSchema } from '../schema/zod-like-schema.js';

/**
 * A JSON Schema that carries the type it describes, as made by {@link typedJsonSchema}.
 *
 * @example
 * ```ts
 * import { typedJsonSchema, type TypedJsonSchema } from 'rx-advisors';
 * const point: TypedJsonSchema<{ x: number }> = typedJsonSchema<{ x: number }>({ type: 'object', properties: { x: { type: 'number' } } });
 * ```
 */
export type TypedJsonSchema<T> = JsonSchema & { readonly __type?: T };

/**
 * What `outputSchema` and `entity()` accept: a JSON Schema (draft 2020-12 or draft-07,
 * validated by ajv with formats) or a zod v4 schema (validated by zod).
 *
 * @example
 * ```ts
 * import type { OutputSchema } from 'rx-advisors';
 * const person: OutputSchema = {
 *   type: 'object',
 *   properties: { name: { type: 'string' } },
 *   required: ['name'],
 * };
 * ```
 */
export type OutputSchema<T = unknown> = TypedJsonSchema<T> | ZodLikeSchema<T>;

/**
 * The static type an output schema describes: zod's output type, the type given to
 * {@link typedJsonSchema}, or the type read off a JSON Schema literal written `as const`.
 *
 * @example
 * ```ts
 * import type { InferOutput } from 'rx-advisors';
 * const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;
 * type Out = InferOutput<typeof schema>; // { n: number }
 * ```
 */
export type InferOutput<S> =
  S extends ZodLikeSchema<infer T>
    ? T
    : S extends { readonly __type?: infer T }
      ? unknown extends T
        ? FromJsonSchema<S>
        : T
      : FromJsonSchema<S>;

/**
 * Tags a JSON Schema with the type it describes, so `entity(schema)` is typed.
 *
 * @example
 * ```ts
 * import { typedJsonSchema } from 'rx-advisors';
 * interface Person { name: string }
 * const person = typedJsonSchema<Person>({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
 * client.prompt('Who?').call().entity(person); // Observable<Person>
 * ```
 * @param schema A JSON Schema.
 * @returns The same object, typed.
 */
export function typedJsonSchema<T>(schema: JsonSchema): TypedJsonSchema<T> {
  return schema;
}
