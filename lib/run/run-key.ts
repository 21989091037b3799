/**
 * The identity of a run in a journal: its owner (a user or session id: who may resume it)
 * and its id. Runs are kept per owner, as resumable streams are: an owner reading another
 * owner's run id finds nothing (the journal reads `[]`, as for an unknown run), so a leaked
 * run id is no way into someone else's run.
 *
 * @example
 * ```ts
 * import type { RunKey } from 'rx-advisors/run';
 * const key: RunKey = { owner: 'user-1', runId: 'run-7f3a' };
 * ```
 */
export interface RunKey {
  /** Who may read and resume the run. */
  readonly owner: string;
  /** The run's id: given by the caller or made by the library. */
  readonly runId: string;
}
