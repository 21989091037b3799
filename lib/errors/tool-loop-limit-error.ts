import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolLoopLimitError');

/**
 * Raised when the tool loop would need more rounds than `maxRounds` allows.
 *
 * @example
 * ```ts
 * import { ToolLoopLimitError } from 'rx-advisors';
 *
 * client.prompt('loop forever').call().content().subscribe({
 *   error: (error) => {
 *     if (ToolLoopLimitError.isInstance(error)) console.log(`gave up after ${error.rounds} rounds`);
 *   },
 * });
 * ```
 */
export class ToolLoopLimitError extends RxAdvisorsError {
  /** How many tool-loop rounds were run before the loop stopped. */
  readonly rounds: number;
  /** The configured limit. */
  readonly maxRounds: number;

  /** @param options The rounds made and the limit. */
  constructor(options: { rounds: number; maxRounds: number }) {
    super(
      `The tool loop stopped after ${options.rounds} rounds: the model still asked for tools, ` +
        `and maxRounds is ${options.maxRounds}. Raise maxRounds, or check why the model keeps calling tools.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.rounds = options.rounds;
    this.maxRounds = options.maxRounds;
  }

  /**
   * Whether `error` is a {@link ToolLoopLimitError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolLoopLimitError {
    return hasErrorMarker(error, MARKER);
  }
}
