import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.AgentRunError');

/**
 * A nested agent's run failed (its model, a tool under policy `throw`, its own nested
 * agent); the original error is the `cause`. By default the parent model sees the message
 * as an error tool result; with the agent's `onError: 'throw'` the parent's stream fails
 * with this error.
 *
 * @example
 * ```ts partial
 * import { AgentRunError } from 'rx-advisors';
 *
 * stream$.subscribe({
 *   error: (error) => {
 *     if (AgentRunError.isInstance(error)) console.log(error.path.join(' → '), error.cause);
 *   },
 * });
 * ```
 */
export class AgentRunError extends RxAdvisorsError {
  /** The agent whose run failed. */
  readonly agentName: string;
  /** The agents running, outermost first, the failed one last. */
  readonly path: readonly string[];

  /** @param options The agent, its path and what its run failed with. */
  constructor(options: { agentName: string; path: readonly string[]; cause: unknown }) {
    super(
      `The agent "${options.agentName}" (${options.path.join(' → ')}) failed: ` +
        `${options.cause instanceof Error ? options.cause.message : String(options.cause)}`,
      { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.agentName = options.agentName;
    this.path = options.path;
  }

  /**
   * Whether `error` is an {@link AgentRunError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is AgentRunError {
    return hasErrorMarker(error, MARKER);
  }
}
