// Type-level helpers of `FromJsonSchema` that do not read schemas themselves.

/**
 * An object type written out flat (no intersection left in hovers and errors).
 */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The names a schema's `required` lists.
 */
export type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/**
 * A schema's `minItems`, `0` when absent.
 */
export type MinItems<S> = S extends { readonly minItems: infer M extends number } ? M : 0;

/**
 * A tuple split into its first `Min` elements and the rest (`[Head, Rest]`).
 */
export type SplitAt<
  T extends readonly unknown[],
  Min,
  Head extends unknown[] = [],
> = Head['length'] extends Min
  ? [Head, T]
  : T extends readonly [infer First, ...infer Rest]
    ? SplitAt<Rest, Min, [...Head, First]>
    : [Head, []];

/**
 * The primitive JSON Schema type names and their TypeScript types.
 */
export interface JsonPrimitives {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  null: null;
}
