import { StreamDataError } from './stream-data-error.js';

/**
 * Reads an index a provider's stream sent (a tool call's or a content block's) and
 * checks that it is a non-negative safe integer. Use it as a `Map` key, never as an
 * array position: a hostile index of 1e8 in an array makes a sparse array whose
 * iteration blocks the event loop for seconds.
 *
 * @example
 * ```ts
 * import { readStreamIndex } from 'rx-advisors/provider-kit';
 *
 * const calls = new Map<number, string>();
 * calls.set(readStreamIndex(0, 'tool_calls[0].index'), 'call_1');
 * readStreamIndex(-1, 'tool_calls[0].index'); // throws StreamDataError
 * ```
 * @param value The value from the stream.
 * @param field Where it was, for the error.
 * @returns The index.
 * @throws StreamDataError when `value` is not a non-negative safe integer.
 */
export function readStreamIndex(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new StreamDataError(field, value, 'a non-negative integer');
}
