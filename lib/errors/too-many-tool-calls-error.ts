import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.TooManyToolCallsError');

/**
 * A model response asked for more tool calls in one round than `maxToolCallsPerRound`
 * allows. None of the round's tools runs and the stream fails with this error, whatever
 * the `onToolError` policy (a round that large is a runaway or hostile model, not a tool
 * failure the model could correct).
 *
 * @example
 * ```ts
 * import { ToolCallingAdvisor, TooManyToolCallsError } from 'rx-advisors';
 *
 * const loop = new ToolCallingAdvisor({ maxToolCallsPerRound: 32 });
 * TooManyToolCallsError.isInstance(new Error()); // false
 * ```
 */
export class TooManyToolCallsError extends RxAdvisorsError {
  /** How many calls the round asked for. */
  readonly calls: number;
  /** The limit per round. */
  readonly limit: number;
  /** The round (model call) that asked for them, counting from 1. */
  readonly round: number;

  /** @param options The number of calls, the limit and the round. */
  constructor(options: { calls: number; limit: number; round: number }) {
    super(
      `Round ${options.round} asked for ${options.calls} tool calls; at most ` +
        `${options.limit} may run in one round (option maxToolCallsPerRound). No tool was run.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.calls = options.calls;
    this.limit = options.limit;
    this.round = options.round;
  }

  /**
   * Whether `error` is a {@link TooManyToolCallsError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is TooManyToolCallsError {
    return hasErrorMarker(error, MARKER);
  }
}
