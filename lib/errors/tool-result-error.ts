import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolResultError');

/**
 * A tool's result could not become the text the model sees: the result converter returned
 * something that is not a string (the default converter, `JSON.stringify`, returns
 * `undefined` for a function or a symbol) or threw (the original error is the `cause`).
 * With `onToolError: 'report'` (the default) the model sees this message as an error tool
 * result, never an empty message; with `'throw'` the stream fails with this error.
 *
 * @example
 * ```ts partial
 * import { ToolResultError } from 'rx-advisors';
 *
 * stream$.subscribe({
 *   error: (error) => {
 *     if (ToolResultError.isInstance(error)) console.log(error.toolName, error.received);
 *   },
 * });
 * ```
 */
export class ToolResultError extends RxAdvisorsError {
  /** The tool whose result failed to convert. */
  readonly toolName: string;
  /** The id of the tool call. */
  readonly toolCallId: string;
  /** What the converter returned (`typeof`), or `'an error'` when it threw. */
  readonly received: string;

  /** @param options The tool, the call id, what the converter returned, and its error. */
  constructor(options: {
    toolName: string;
    toolCallId: string;
    received: string;
    cause?: unknown;
  }) {
    super(
      `The tool "${options.toolName}" returned a result that is not text (its result converter ` +
        `gave ${options.received}). Answer without this result, or call the tool differently.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
    this.received = options.received;
  }

  /**
   * Whether `error` is a {@link ToolResultError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolResultError {
    return hasErrorMarker(error, MARKER);
  }
}
