// Schema-level merging for `FromJsonSchema`'s `allOf`, `anyOf` and `oneOf`: every
// keyword of a schema applies to the same value, so a branch is read as the parent schema
// (without the combinator) merged with the branch. Merging before reading the type keeps
// the result a plain object type (not an intersection), lets a branch's `required` name
// a parent's property, and lets a branch's `const` narrow a parent's property.
//
// A keyword both sides set is combined where that is exact (`properties`, `required`,
// `type`, `enum`, `allOf`, sub-schemas through `allOf`); otherwise the parent's value is
// kept, which drops the branch's constraint and so only widens the type.

type TypeNames<T> = T extends readonly (infer N)[] ? N : T;

type AsList<T> = T extends readonly unknown[] ? T : [];

/** `type` of both: the names in both, an `integer` counting as a `number`. */
type BothTypes<X, Y> =
  | Extract<TypeNames<X>, TypeNames<Y>>
  | ('number' extends TypeNames<X> ? Extract<TypeNames<Y>, 'integer'> : never)
  | ('number' extends TypeNames<Y> ? Extract<TypeNames<X>, 'integer'> : never);

type MergeProperties<X, Y> = {
  [K in keyof X | keyof Y]: K extends keyof X
    ? K extends keyof Y
      ? { readonly allOf: readonly [X[K], Y[K]] }
      : X[K]
    : K extends keyof Y
      ? Y[K]
      : never;
};

type MergeKeyword<K, X, Y> = K extends 'properties'
  ? MergeProperties<X, Y>
  : K extends 'required' | 'allOf'
    ? readonly [...AsList<X>, ...AsList<Y>]
    : K extends 'type'
      ? BothTypes<X, Y>
      : K extends 'enum'
        ? readonly Extract<AsList<X>[number], AsList<Y>[number]>[]
        : K extends 'items' | 'additionalProperties' | 'additionalItems'
          ? { readonly allOf: readonly [X, Y] }
          : X;

/**
 * One schema that accepts what both `A` and `B` accept (best effort, see above); `true`
 * and `false` are the boolean schemas.
 */
export type MergeJsonSchemas<A, B> = B extends true
  ? A
  : A extends true
    ? B
    : [A] extends [false]
      ? false
      : [B] extends [false]
        ? false
        : {
            [K in keyof A | keyof B]: K extends keyof A
              ? K extends keyof B
                ? MergeKeyword<K, A[K], B[K]>
                : A[K]
              : K extends keyof B
                ? B[K]
                : never;
          };
