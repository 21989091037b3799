type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectFromProperties<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromJsonSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromJsonSchema<P[K]>;
  }
>;

/**
 * The TypeScript type of the values a JSON Schema literal accepts, for the common
 * keywords (`type`, `properties`, `required`, `items`, `enum`, `const`). Anything it does
 * not understand becomes `unknown`, never a wrong type. `tool()` uses it to type
 * `execute`'s arguments from a `parameters` schema written inline.
 *
 * @example
 * ```ts
 * import type { FromJsonSchema } from 'rx-advisors';
 *
 * const schema = {
 *   type: 'object',
 *   properties: { city: { type: 'string' }, days: { type: 'integer' } },
 *   required: ['city'],
 * } as const;
 * type Args = FromJsonSchema<typeof schema>; // { city: string; days?: number }
 * ```
 */
export type FromJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'number' | 'integer' }
        ? number
        : S extends { readonly type: 'boolean' }
          ? boolean
          : S extends { readonly type: 'null' }
            ? null
            : S extends { readonly type: 'array'; readonly items: infer I }
              ? FromJsonSchema<I>[]
              : S extends { readonly type: 'array' }
                ? unknown[]
                : S extends { readonly type: 'object'; readonly properties: infer P }
                  ? ObjectFromProperties<P, RequiredKeys<S>>
                  : S extends { readonly type: 'object' }
                    ? Record<string, unknown>
                    : unknown;
