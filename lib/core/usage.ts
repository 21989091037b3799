/**
 * Token counts. A count the provider did not report is `undefined`, never a made-up 0.
 *
 * @example
 * ```ts
 * import type { Usage } from 'rx-advisors';
 * const usage: Usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
 * ```
 */
export interface Usage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
  reasoningTokens?: number | undefined;
}

/** The fields of {@link Usage}, in a fixed order. */
export const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
] as const satisfies readonly (keyof Usage)[];

/**
 * A usage with every count unknown.
 * @returns A fresh `Usage` whose fields are all `undefined`.
 * @example
 * ```ts
 * import { emptyUsage } from 'rx-advisors/advisor-api';
 * emptyUsage().inputTokens; // undefined
 * ```
 */
export function emptyUsage(): Usage {
  return { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
}
