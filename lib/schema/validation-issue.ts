/**
 * One validation failure: where (a JSON Pointer, `''` for the whole value) and what.
 *
 * @example
 * ```ts
 * import type { ValidationIssue } from 'rx-advisors';
 * const issue: ValidationIssue = { path: '/age', message: 'must be number' };
 * ```
 */
export interface ValidationIssue {
  /** A JSON Pointer into the value (`/items/0/name`); `''` for the value as a whole. */
  path: string;
  /** What is wrong, in words. */
  message: string;
}

/**
 * The outcome of validating a value: the value (zod's output for a zod schema), or the
 * first `maxIssues` failures and how many there were in all.
 * @internal
 */
export type SchemaValidation<T> =
  { valid: true; value: T } | { valid: false; issues: ValidationIssue[]; issueCount: number };

/**
 * A JSON Pointer for an issue's path, one escaped reference token per segment.
 * @internal
 * @param segments The keys and indexes from the root.
 * @returns `''` for the root, else `/a/0/b`.
 */
export function jsonPointer(segments: readonly PropertyKey[]): string {
  let pointer = '';
  for (const segment of segments) pointer += `/${escapePointer(String(segment))}`;
  return pointer;
}

/**
 * Escapes one JSON Pointer reference token (`~` → `~0`, `/` → `~1`).
 * @internal
 * @param token A key.
 * @returns The escaped token.
 */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
