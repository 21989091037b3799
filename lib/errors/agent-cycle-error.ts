import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.AgentCycleError');

/**
 * An agent (a `ChatClient` run as a tool by `agentTool`) was asked to run inside a run of
 * itself (planner → research → planner). The parent model sees it as an error tool result
 * (or the parent fails, with the agent's `onError: 'throw'`).
 *
 * @example
 * ```ts partial
 * import { AgentCycleError } from 'rx-advisors';
 *
 * stream$.subscribe({
 *   error: (error) => {
 *     if (AgentCycleError.isInstance(error)) console.log(error.path.join(' → '));
 *   },
 * });
 * ```
 */
export class AgentCycleError extends RxAdvisorsError {
  /** The agent that was not started. */
  readonly agentName: string;
  /** The agents running, outermost first, then the one refused. */
  readonly path: readonly string[];

  /** @param options The agent and the path that comes back to it. */
  constructor(options: { agentName: string; path: readonly string[] }) {
    super(
      `The agent "${options.agentName}" was not started: it is already running in this tree ` +
        `(${options.path.join(' → ')}). An agent never runs inside itself; give the nested ` +
        `agent a different client, or answer without delegating.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.agentName = options.agentName;
    this.path = options.path;
  }

  /**
   * Whether `error` is an {@link AgentCycleError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is AgentCycleError {
    return hasErrorMarker(error, MARKER);
  }
}
