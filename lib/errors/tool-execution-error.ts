import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolExecutionError');

/**
 * A tool's `execute` threw, rejected or errored its Observable (the original error is the
 * `cause`). With `onToolError: 'report'` (the default) the model sees the message as an
 * error tool result; with `'throw'` the stream fails with this error.
 *
 * @example
 * ```ts partial
 * import { ToolExecutionError } from 'rx-advisors';
 *
 * stream$.subscribe({
 *   error: (error) => {
 *     if (ToolExecutionError.isInstance(error)) console.log(error.toolName, error.cause);
 *   },
 * });
 * ```
 */
export class ToolExecutionError extends RxAdvisorsError {
  /** The tool that failed. */
  readonly toolName: string;
  /** The id of the tool call. */
  readonly toolCallId: string;

  /** @param options The tool, the call id and the error it raised. */
  constructor(options: { toolName: string; toolCallId: string; cause: unknown }) {
    super(`The tool "${options.toolName}" failed: ${describe(options.cause)}`, {
      cause: options.cause,
    });
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }

  /**
   * Whether `error` is a {@link ToolExecutionError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolExecutionError {
    return hasErrorMarker(error, MARKER);
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'string') return cause;
  return String(cause);
}
