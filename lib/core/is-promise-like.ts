/**
 * Whether `value` is a thenable (a Promise or anything with a `then` method), the test
 * `from()` applies, for callbacks that may answer with a value, a Promise or an Observable.
 * @internal
 * @example
 * ```ts
 * if (isPromiseLike(result)) return from(result);
 * ```
 * @param value Any value.
 * @returns `true` for thenables.
 */
export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
