import { from, isObservable, mergeMap, tap, type Observable } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import { TooManyToolCallsError } from '../errors/too-many-tool-calls-error.js';
import { runToolCall, startToolCall } from './run-tool-call.js';
import { isToolMessage, type ToolCallEvent } from './tool-call-results.js';
import type { ToolExecution } from './tool-execution.js';

/** The tool calls of one round, started. @internal */
export interface StartedToolCalls {
  /** The results in call order, filled in as the calls finish. */
  readonly results: ToolMessage[];
  /** How many calls, from the first, finished while they were started. */
  readonly finished: number;
  /**
   * The rest: the first call that did not finish at once, then the calls after it, run
   * with the concurrency limit; emits every result as it arrives (and, with
   * `emitProgress`, the preliminary results of Observable tools). `undefined` when every
   * call finished at once (synchronous tools, refused calls).
   */
  readonly rest$: Observable<ToolCallEvent> | undefined;
  /**
   * When the rest is one call (the last of its round): its events as they come, its
   * result not stored (`rest$` is the same, the result stored at `results[finished]`). A
   * subscriber that stores the result itself spares every value a hop (each chunk of a
   * nested agent: docs/agents.md, "Cost per nested chunk"). `undefined` otherwise.
   */
  readonly lone: Observable<ToolCallEvent> | undefined;
}

/**
 * The tool-execution core: starts a round's tool calls in order, for the tool loop and
 * for `executeToolCalls` alike. A round with more calls than `maxToolCallsPerRound` throws
 * a `TooManyToolCallsError` before any tool runs. Calls answered on the spot (see
 * `startToolCall`) cost no subscription; from the first one that is not, the calls run as
 * `mergeMap(…, concurrency)` would run them, so the limit and the order calls start in are
 * those of running every call through `mergeMap` (a lone pending call, the last of its
 * round, is subscribed to directly: the same, without the `mergeMap`).
 * @internal
 * @example
 * ```ts
 * const { results, rest$ } = startToolCalls(calls, execution);
 * if (rest$ === undefined) nextRound(results);
 * ```
 * @param calls The round's tool calls.
 * @param execution How the calls run.
 * @returns The results so far and the calls still to finish.
 */
export function startToolCalls(
  calls: readonly ToolCall[],
  execution: ToolExecution,
): StartedToolCalls {
  const { maxToolCallsPerRound: limit } = execution;
  if (calls.length > limit) {
    throw new TooManyToolCallsError({ calls: calls.length, limit, round: execution.round });
  }
  const results = new Array<ToolMessage>(calls.length);
  for (let index = 0; index < calls.length; index++) {
    const started = startToolCall(calls[index], execution);
    if (!isObservable(started)) {
      results[index] = started;
      continue;
    }
    const first = index;
    const store =
      (offset: number) =>
      (event: ToolCallEvent): void => {
        if (isToolMessage(event)) results[first + offset] = event;
      };
    if (index === calls.length - 1) {
      return { results, finished: first, rest$: started.pipe(tap(store(0))), lone: started };
    }
    const pending: Observable<ToolCallEvent>[] = [started];
    for (let later = index + 1; later < calls.length; later++) {
      pending.push(runToolCall(calls[later], execution));
    }
    const rest$ = from(pending).pipe(
      mergeMap((event$, offset) => event$.pipe(tap(store(offset))), execution.concurrency),
    );
    return { results, finished: first, rest$, lone: undefined };
  }
  return { results, finished: calls.length, rest$: undefined, lone: undefined };
}
