const MARKER = Symbol.for('rx-advisors.fails-run');

/**
 * Marks an error a tool raises as one that fails the whole run, whatever the tool loop's
 * `onToolError` policy: a nested agent with `onError: 'throw'` uses it so that its failure
 * is the parent's stream error, not an error result the parent model reads.
 * @internal
 * @example
 * ```ts
 * throw failingRun(new Error('the child agent failed'));
 * ```
 * @param error The error to mark (an object).
 * @returns The same error.
 */
export function failingRun<E extends object>(error: E): E {
  Object.defineProperty(error, MARKER, { value: true });
  return error;
}

/**
 * The error a tool failed with, if it (or its direct `cause`: the tool layer wraps what
 * `execute` raises) was marked with {@link failingRun}; `undefined` otherwise.
 * @internal
 * @example
 * ```ts
 * const fatal = runFailureOf(error);
 * if (fatal !== undefined) throw fatal;
 * ```
 * @param error What the tool failed with.
 * @returns The marked error, or `undefined`.
 */
export function runFailureOf(error: unknown): Error | undefined {
  if (isMarked(error)) return error as Error;
  const cause = typeof error === 'object' && error !== null ? (error as Error).cause : undefined;
  return isMarked(cause) ? (cause as Error) : undefined;
}

function isMarked(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[MARKER] === true
  );
}
