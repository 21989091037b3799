/**
 * The advisor params of a durable run (`advisorParams({ runId, runOwner })`): they land in
 * the call's `request.context`, as `conversationId` does for memory.
 * - `runId`: the run to start or resume; absent, the library makes one (announced in the
 *   first chunk, `{ type: 'data', name: 'run', data: { runId, resumed, from } }`, and put in
 *   the context under this key).
 * - `runOwner`: who owns it (a user or session id); another owner's run id is not found.
 * - `runReplay`: `'undelivered'` (default) or `'all'`: what a resumed run sends.
 * - `runDelivered`: the units of the run's stream the client saw (the `from` of its last
 *   `run` data chunk plus what it received since), when it knows better than the journal.
 *
 * @example
 * ```ts partial
 * import { DurableRunParams } from 'rx-advisors/run';
 *
 * client
 *   .prompt()
 *   .advisorParams({ [DurableRunParams.RUN_ID]: runId, [DurableRunParams.RUN_OWNER]: 'user-1' })
 *   .stream()
 *   .content();
 * ```
 */
export const DurableRunParams = {
  RUN_ID: 'runId',
  RUN_OWNER: 'runOwner',
  REPLAY: 'runReplay',
  DELIVERED: 'runDelivered',
} as const;

/**
 * What a resumed run sends to its new subscriber: `'undelivered'` what the earlier ones had
 * not received, `'all'` everything from the start.
 *
 * @example
 * ```ts
 * import type { RunReplay } from 'rx-advisors/run';
 * const replay: RunReplay = 'all';
 * ```
 */
export type RunReplay = 'undelivered' | 'all';
