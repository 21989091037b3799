import type {
  JsonPrimitives,
  MinItems,
  RequiredKeys,
  Simplify,
  SplitAt,
} from './json-schema-type-helpers.js';
import type { MergeJsonSchemas } from './merge-json-schemas.js';

// Nesting levels left, one fewer per step into a sub-schema or a branch. The bound keeps
// type checking fast and clear of TypeScript's instantiation-depth error; past it the
// type is `unknown`.
type Fewer = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
type MaxDepth = 12;

type ObjectFromProperties<P, R, D extends number> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: Of<P[K], D> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: Of<P[K], D>;
  }
>;

// `additionalProperties` as a schema: an index signature. Its value type also admits the
// named properties' types, so an object literal of the type can still be written.
type ObjectType<S, D extends number> = S extends { readonly properties: infer P }
  ? S extends { readonly additionalProperties: infer X }
    ? X extends boolean
      ? ObjectFromProperties<P, RequiredKeys<S>, D>
      : Simplify<
          {
            [key: string]: Of<X, D> | { [K in keyof P]: Of<P[K], D> }[keyof P];
          } & ObjectFromProperties<P, RequiredKeys<S>, D>
        >
    : ObjectFromProperties<P, RequiredKeys<S>, D>
  : S extends { readonly additionalProperties: infer X }
    ? Record<string, Of<X, D>>
    : Record<string, unknown>;

type TupleType<Items extends readonly unknown[], S, RestKey extends string, D extends number> =
  SplitAt<{ -readonly [I in keyof Items]: Of<Items[I], D> }, MinItems<S>> extends [
    infer Required extends unknown[],
    infer Optional extends unknown[],
  ]
    ? [...Required, ...Partial<Optional>, ...RestItems<S, RestKey, D>]
    : unknown[];

type RestItems<S, RestKey extends string, D extends number> = S extends {
  readonly [K in RestKey]: infer R;
}
  ? [R] extends [false]
    ? []
    : Of<R, D>[]
  : unknown[];

type ArrayType<S, D extends number> = S extends {
  readonly prefixItems: infer P extends readonly unknown[];
}
  ? TupleType<P, S, 'items', D>
  : S extends { readonly items: infer I }
    ? I extends readonly unknown[]
      ? TupleType<I, S, 'additionalItems', D> // draft-07 tuples
      : Of<I, D>[]
    : unknown[];

type TypeOfName<N, S, D extends number> = N extends keyof JsonPrimitives
  ? JsonPrimitives[N]
  : N extends 'array'
    ? ArrayType<S, D>
    : N extends 'object'
      ? ObjectType<S, D>
      : unknown;

type Branches<Parent, Branch, D extends number> = Branch extends unknown
  ? Of<MergeJsonSchemas<Parent, Branch>, D>
  : never;

// `D` counts the levels left for `S`'s sub-schemas and branches.
type Of<S, D extends number> = [D] extends [never]
  ? unknown
  : S extends
        | boolean
        | { readonly allOf: readonly unknown[] }
        | { readonly anyOf: readonly unknown[] }
        | { readonly oneOf: readonly unknown[] }
    ? Combined<S, D>
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly type: infer T }
          ? TypeOfName<T extends readonly (infer N)[] ? N : T, S, Fewer[D]>
          : unknown;

type Combined<S, D extends number> = S extends boolean
  ? S extends false
    ? never
    : unknown
  : S extends { readonly allOf: readonly [infer First, ...infer Rest] }
    ? Of<MergeJsonSchemas<Omit<S, 'allOf'> & { readonly allOf: Rest }, First>, Fewer[D]>
    : S extends { readonly allOf: readonly unknown[] }
      ? Of<Omit<S, 'allOf'>, Fewer[D]>
      : S extends { readonly anyOf: infer L extends readonly unknown[] }
        ? Branches<Omit<S, 'anyOf'>, L[number], Fewer[D]>
        : S extends { readonly oneOf: infer L extends readonly unknown[] }
          ? Branches<Omit<S, 'oneOf'>, L[number], Fewer[D]>
          : unknown;

/**
 * The TypeScript type of the values a JSON Schema literal (written `as const`) accepts.
 * `tool()` uses it to type `execute`'s arguments from an inline `parameters` schema, and
 * `entity()` to type the answer.
 *
 * - `type` (a name or a list of names: a union), `const` (the literal), `enum` (the union
 *   of its values);
 * - objects: `properties` with `required`; `additionalProperties` as a schema is an index
 *   signature; an object without `properties` is a `Record<string, …>`;
 * - arrays: `items`, and tuples with `prefixItems` (or draft-07 `items: [...]` with
 *   `additionalItems`), elements past `minItems` optional;
 * - `anyOf` and `oneOf`: the union of their branches, each read together with the
 *   schema's other keywords (so a branch may narrow a property or require one); `allOf`:
 *   its members merged with the schema; `true`: `unknown`, `false`: `never`.
 *
 * Anything else (`$ref`, `not`, `if`, `patternProperties`, a schema not written
 * `as const`, what lies more than 12 levels deep: each property, item, branch and `allOf`
 * member is a level) reads as `unknown` or as the type without that constraint: wider than
 * the values, never narrower.
 *
 * @example
 * ```ts
 * import type { FromJsonSchema } from 'rx-advisors';
 *
 * const schema = {
 *   type: 'object',
 *   properties: {
 *     city: { type: 'string' },
 *     days: { type: ['integer', 'null'] },
 *     unit: { anyOf: [{ const: 'C' }, { const: 'F' }] },
 *   },
 *   required: ['city'],
 * } as const;
 * type Args = FromJsonSchema<typeof schema>; // { city: string; days?: number | null; unit?: 'C' | 'F' }
 * ```
 */
export type FromJsonSchema<S> = Of<S, MaxDepth>;
