const MARKER = Symbol.for('rx-advisors.error');

/**
 * Checks whether `error` carries the given marker symbol.
 * Markers survive duplicated copies of the package, where `instanceof` does not.
 * @internal
 */
export function hasErrorMarker(error: unknown, marker: symbol): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[marker] === true
  );
}

/** Options every rx-advisors error accepts. */
export interface RxAdvisorsErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The base class of every error rx-advisors raises.
 *
 * @example
 * ```ts
 * import { RxAdvisorsError } from 'rx-advisors';
 *
 * client.prompt('hi').call().content().subscribe({
 *   error: (error) => {
 *     if (RxAdvisorsError.isInstance(error)) console.error('rx-advisors:', error.message);
 *   },
 * });
 * ```
 */
export class RxAdvisorsError extends Error {
  /**
   * @param message What failed, the bad value and what to do.
   * @param options The cause, when there is one.
   */
  constructor(message: string, options: RxAdvisorsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.name = new.target.name;
  }

  /**
   * Whether `error` is an rx-advisors error, even one from another copy of the package.
   * @param error Any value.
   * @returns `true` for every error rx-advisors raises.
   */
  static isInstance(error: unknown): error is RxAdvisorsError {
    return hasErrorMarker(error, MARKER);
  }
}
