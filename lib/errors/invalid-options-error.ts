import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.InvalidOptionsError');

/**
 * Raised by a factory or constructor when an option is invalid; names the option,
 * the bad value and the fix.
 *
 * @example
 * ```ts
 * import { InvalidOptionsError, ToolCallingAdvisor } from 'rx-advisors';
 *
 * try {
 *   new ToolCallingAdvisor({ maxRounds: 0 });
 * } catch (error) {
 *   if (InvalidOptionsError.isInstance(error)) console.log(error.option); // 'maxRounds'
 * }
 * ```
 */
export class InvalidOptionsError extends RxAdvisorsError {
  /** The name of the option that was rejected. */
  readonly option: string;
  /** The value that was rejected. */
  readonly value: unknown;

  /**
   * @param options The option name, the bad value, and what is expected instead.
   */
  constructor(options: { option: string; value: unknown; expected: string }) {
    super(
      `Invalid option "${options.option}": got ${describeValue(options.value)}; expected ${options.expected}.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.option = options.option;
    this.value = options.value;
  }

  /**
   * Whether `error` is an {@link InvalidOptionsError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is InvalidOptionsError {
    return hasErrorMarker(error, MARKER);
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
