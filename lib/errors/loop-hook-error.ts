import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.LoopHookError');

/**
 * Raised when a tool-loop hook given as an option (`stopWhen`, `prepareRound`,
 * `repairToolCall`) throws, or returns something the loop cannot use. It names the hook,
 * the round and, for a bad return value, what was expected; a thrown error is its `cause`.
 *
 * @example
 * ```ts
 * import { LoopHookError } from 'rx-advisors';
 *
 * client.prompt('hi').call().content().subscribe({
 *   error: (error) => {
 *     if (LoopHookError.isInstance(error)) console.log(`${error.hook} failed in round ${error.round}`);
 *   },
 * });
 * ```
 */
export class LoopHookError extends RxAdvisorsError {
  /** The option whose function failed: `stopWhen`, `prepareRound`, `repairToolCall`. */
  readonly hook: string;
  /** The round it ran for, counting from 1. */
  readonly round: number;
  /** `threw` (the cause is what it threw) or `invalid-return` (see the message). */
  readonly failure: 'threw' | 'invalid-return';

  /**
   * @param options The hook, the round, and either what it threw (`cause`) or what it
   * returned and what was expected.
   */
  constructor(
    options:
      | { hook: string; round: number; cause: unknown }
      | { hook: string; round: number; returned: unknown; expected: string },
  ) {
    const { hook, round } = options;
    const invalid = 'expected' in options;
    super(
      invalid
        ? `The tool loop's ${hook} returned ${describe(options.returned)} in round ${round}; ` +
            `expected ${options.expected}. Fix the ${hook} function.`
        : `The tool loop's ${hook} threw in round ${round}: ${messageOf(options.cause)}. ` +
            `Fix the ${hook} function (the loop stopped; nothing after it ran).`,
      invalid ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.hook = hook;
    this.round = round;
    this.failure = invalid ? 'invalid-return' : 'threw';
  }

  /**
   * Whether `error` is a {@link LoopHookError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is LoopHookError {
    return hasErrorMarker(error, MARKER);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`;
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${JSON.stringify(value) ?? ''}`;
}
