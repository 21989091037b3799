import { from, isObservable, mergeMap, tap, type Observable } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import { runToolCall, startToolCall, type RunToolCallOptions } from './run-tool-call.js';

/** The tool calls of one round, started. @internal */
export interface StartedToolCalls {
  /** The results in call order, filled in as the calls finish. */
  readonly results: ToolMessage[];
  /** How many calls, from the first, finished while they were started. */
  readonly finished: number;
  /**
   * The rest: the first call that did not finish at once, then the calls after it, run
   * with the concurrency limit; emits every result as it arrives. `undefined` when every
   * call finished at once (synchronous tools, refused calls).
   */
  readonly rest$: Observable<ToolMessage> | undefined;
}

/**
 * Starts a round's tool calls in order. Calls answered on the spot (see `startToolCall`)
 * cost no subscription; from the first one that is not, the calls run as
 * `mergeMap(…, concurrency)` would run them, so the limit and the order calls start in
 * are those of running every call through `mergeMap`.
 * @internal
 * @example
 * ```ts
 * const { results, rest$ } = startToolCalls(calls, run, 8);
 * if (rest$ === undefined) nextRound(results);
 * ```
 * @param calls The round's tool calls.
 * @param options How each call runs.
 * @param concurrency How many calls may run at once.
 * @returns The results so far and the calls still to finish.
 */
export function startToolCalls(
  calls: readonly ToolCall[],
  options: RunToolCallOptions,
  concurrency: number,
): StartedToolCalls {
  const results = new Array<ToolMessage>(calls.length);
  for (let index = 0; index < calls.length; index++) {
    const started = startToolCall(calls[index], options);
    if (!isObservable(started)) {
      results[index] = started;
      continue;
    }
    const first = index;
    const pending: Observable<ToolMessage>[] = [started];
    for (let later = index + 1; later < calls.length; later++) {
      pending.push(runToolCall(calls[later], options));
    }
    const rest$ = from(pending).pipe(
      mergeMap(
        (message$, offset) => message$.pipe(tap((message) => (results[first + offset] = message))),
        concurrency,
      ),
    );
    return { results, finished: first, rest$ };
  }
  return { results, finished: calls.length, rest$: undefined };
}
