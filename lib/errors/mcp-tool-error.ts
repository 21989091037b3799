import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.McpToolError');

/**
 * An MCP tool answered with `isError: true`, or with a result that is not a valid MCP tool
 * result. Like a throwing local tool, the tool loop turns it into an error result the
 * model sees; under `onToolError: 'throw'` it is the stream's error (as the cause of a
 * `ToolExecutionError`).
 *
 * @example
 * ```ts
 * import { McpToolError } from 'rx-advisors/mcp';
 *
 * const isServerSide = (e: unknown) => e instanceof Error && McpToolError.isInstance(e.cause);
 * ```
 */
export class McpToolError extends RxAdvisorsError {
  /** The tool's name on the server (without any prefix). */
  readonly toolName: string;
  /** `'tool-error'`: the tool reported an error; `'malformed'`/`'too-long'`: a bad result. */
  readonly reason: 'tool-error' | 'malformed' | 'too-long';

  /** @param options The tool, why it failed and the text describing it. */
  constructor(options: {
    toolName: string;
    reason: 'tool-error' | 'malformed' | 'too-long';
    detail: string;
    cause?: unknown;
  }) {
    super(options.detail, { cause: options.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.reason = options.reason;
  }

  /**
   * Whether `error` is a {@link McpToolError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is McpToolError {
    return hasErrorMarker(error, MARKER);
  }
}
