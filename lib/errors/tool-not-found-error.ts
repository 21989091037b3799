import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolNotFoundError');

/**
 * A tool name that is not available: the model called a tool that was not offered in
 * this call, or a `ToolRegistry` has no tool of that name. In the tool loop it becomes an
 * error tool result listing the tools the model may call.
 *
 * @example
 * ```ts
 * import { ToolNotFoundError, ToolRegistry } from 'rx-advisors';
 *
 * try {
 *   new ToolRegistry().pick('getTime');
 * } catch (error) {
 *   if (ToolNotFoundError.isInstance(error)) console.log(error.toolName, error.available); // 'getTime' []
 * }
 * ```
 */
export class ToolNotFoundError extends RxAdvisorsError {
  /** The name that was asked for. */
  readonly toolName: string;
  /** The names that are available. */
  readonly available: readonly string[];

  /** @param options The missing name, the available ones, and what to do (optional). */
  constructor(options: { toolName: string; available: readonly string[]; hint?: string }) {
    const names = options.available.map((name) => `"${name}"`).join(', ');
    super(
      `There is no tool named "${options.toolName}" here. ` +
        (names === '' ? 'No tools are available.' : `Use one of the available tools: ${names}.`) +
        (options.hint === undefined ? '' : ` ${options.hint}`),
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.available = options.available;
  }

  /**
   * Whether `error` is a {@link ToolNotFoundError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolNotFoundError {
    return hasErrorMarker(error, MARKER);
  }
}
