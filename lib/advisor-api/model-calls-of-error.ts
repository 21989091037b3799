/**
 * How many model calls were made behind a failed stream. A failed stream sends no final
 * `metadata` chunk, so an advisor that gives up (a recursive advisor out of attempts, a
 * tool loop whose round failed) notes its count here, against the error it re-throws, for
 * an advisor further out that retries: that advisor then counts every model call in
 * `metadata.rounds`, the failed ones included. A WeakMap, so errors are never changed
 * (they may be frozen, or shared) and nothing outlives them.
 */
const MODEL_CALLS = new WeakMap<object, number>();

/**
 * Notes that `calls` model calls were made behind `error` (an error that is not an object
 * cannot be noted: it then counts as one).
 * @internal
 * @example
 * ```ts
 * const error = new Error('overloaded');
 * noteModelCalls(error, 3);
 * takeModelCalls(error); // 3
 * ```
 * @param error The error a stream fails with.
 * @param calls The model calls behind it, at least 1.
 */
export function noteModelCalls(error: unknown, calls: number): void {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
    MODEL_CALLS.set(error, calls);
  }
}

/**
 * The model calls behind a failed stream: what an advisor noted with `noteModelCalls`,
 * otherwise 1 (the failed call itself). The note is taken (removed): the same error object
 * thrown again by a later model call counts as that one call.
 * @internal
 * @example
 * ```ts
 * takeModelCalls(new Error('reset')); // 1
 * ```
 * @param error The error the stream failed with.
 * @returns The model calls, at least 1.
 */
export function takeModelCalls(error: unknown): number {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
    const calls = MODEL_CALLS.get(error);
    if (calls !== undefined) {
      MODEL_CALLS.delete(error);
      return calls;
    }
  }
  return 1;
}
