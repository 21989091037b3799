/**
 * One issue of a Standard Schema validator (zod's issues have this shape).
 */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/**
 * What a Standard Schema validator returns.
 */
export type StandardResult =
  { readonly value: unknown } | { readonly issues: readonly StandardIssue[] };

/**
 * A zod v4 schema, seen structurally so that rx-advisors never imports zod (an optional
 * peer). `z.infer<typeof schema>` is `schema['_zod']['output']`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import type { ZodLikeSchema } from 'rx-advisors';
 * const city: ZodLikeSchema<{ city: string }> = z.object({ city: z.string() });
 * ```
 */
export interface ZodLikeSchema<TOutput = unknown> {
  readonly _zod: { readonly output: TOutput };
  readonly '~standard': {
    readonly vendor: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}

/**
 * Whether `value` is a zod v4 schema, checked structurally: zod's `_zod` internals and its
 * Standard Schema `~standard.validate`. The one zod detection of the library (tool
 * parameters and output schemas both use it).
 * @internal
 * @param value Anything.
 * @returns `true` for a zod v4 schema.
 */
export function isZodSchema(value: unknown): value is ZodLikeSchema {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { _zod?: unknown; '~standard'?: { validate?: unknown } };
  return (
    typeof candidate._zod === 'object' &&
    candidate._zod !== null &&
    typeof candidate['~standard']?.validate === 'function'
  );
}
