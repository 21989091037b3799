import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolCallLimitError');

/**
 * A tool was called more often in one tool loop than `toolCallLimits` allows. The call is
 * not executed; by default the model sees this error as the tool result.
 *
 * @example
 * ```ts
 * import { ToolCallingAdvisor, ToolCallLimitError } from 'rx-advisors';
 *
 * const loop = new ToolCallingAdvisor({ toolCallLimits: { search: 3 } });
 * ToolCallLimitError.isInstance(new Error()); // false
 * ```
 */
export class ToolCallLimitError extends RxAdvisorsError {
  /** The tool that hit its limit. */
  readonly toolName: string;
  /** The limit per loop. */
  readonly limit: number;

  /** @param options The tool and its limit. */
  constructor(options: { toolName: string; limit: number }) {
    super(
      `The tool "${options.toolName}" may be called at most ${options.limit} times per request ` +
        'and was not run again. Answer with the results you already have.',
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.limit = options.limit;
  }

  /**
   * Whether `error` is a {@link ToolCallLimitError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolCallLimitError {
    return hasErrorMarker(error, MARKER);
  }
}
