import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolTimeoutError');

/**
 * A tool did not finish within its `timeout`. Its `AbortSignal` has fired; by default the
 * tool loop reports this to the model as an error tool result.
 *
 * @example
 * ```ts
 * import { ToolCallingAdvisor, ToolTimeoutError } from 'rx-advisors';
 *
 * client
 *   .prompt('Book a table')
 *   .advisors(new ToolCallingAdvisor({ onToolError: 'throw', toolTimeout: 5_000 }))
 *   .call()
 *   .content()
 *   .subscribe({ error: (e) => ToolTimeoutError.isInstance(e) && console.log(e.toolName, e.timeout) });
 * ```
 */
export class ToolTimeoutError extends RxAdvisorsError {
  /** The tool that timed out. */
  readonly toolName: string;
  /** The id of the tool call. */
  readonly toolCallId: string;
  /** The limit, in milliseconds. */
  readonly timeout: number;

  /** @param options The tool, the call id and the limit. */
  constructor(options: { toolName: string; toolCallId: string; timeout: number }) {
    super(
      `The tool "${options.toolName}" did not finish within ${options.timeout} ms and was cancelled. ` +
        'Try again later or answer without it.',
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
    this.timeout = options.timeout;
  }

  /**
   * Whether `error` is a {@link ToolTimeoutError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolTimeoutError {
    return hasErrorMarker(error, MARKER);
  }
}
