import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.AgentDepthError');

/**
 * An agent (a `ChatClient` run as a tool by `agentTool`) would run nested deeper than its
 * `maxDepth` allows. Like any failure to start the agent, the parent model sees it as an
 * error tool result (or the parent fails, with the agent's `onError: 'throw'`).
 *
 * @example
 * ```ts partial
 * import { AgentDepthError } from 'rx-advisors';
 *
 * stream$.subscribe({
 *   error: (error) => {
 *     if (AgentDepthError.isInstance(error)) console.log(error.path, error.maxDepth);
 *   },
 * });
 * ```
 */
export class AgentDepthError extends RxAdvisorsError {
  /** The agent that was not started. */
  readonly agentName: string;
  /** The agents it would have run under, outermost first, itself last. */
  readonly path: readonly string[];
  /** The depth it would have run at (1: called by a top-level call). */
  readonly depth: number;
  /** The configured limit. */
  readonly maxDepth: number;

  /** @param options The agent, its path, the depth it would run at and the limit. */
  constructor(options: {
    agentName: string;
    path: readonly string[];
    depth: number;
    maxDepth: number;
  }) {
    super(
      `The agent "${options.agentName}" was not started: it would run at depth ${options.depth} ` +
        `(${options.path.join(' → ')}), and its maxDepth is ${options.maxDepth}. ` +
        `Raise maxDepth in agentTool(), or answer without delegating further.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.agentName = options.agentName;
    this.path = options.path;
    this.depth = options.depth;
    this.maxDepth = options.maxDepth;
  }

  /**
   * Whether `error` is an {@link AgentDepthError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is AgentDepthError {
    return hasErrorMarker(error, MARKER);
  }
}
