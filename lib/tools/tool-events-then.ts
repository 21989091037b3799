import { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ToolMessage } from '../core/message.js';
import { DirectSubscriber } from '../core/direct-subscriber.js';
import { toToolResultChunk } from './loop-chunks.js';
import { isToolMessage, type ToolCallEvent } from './tool-call-results.js';

/**
 * The events of a round's running tool calls as outbound chunks (a result as its
 * `tool-result` chunk, a preliminary as it is), then, once they complete, the values
 * `then()` returns: `filterThen(events$.pipe(map(asChunk)), keepAll, then)` in one
 * subscriber, the path every value of a long-running tool takes (each chunk of a nested
 * agent: docs/agents.md, "Cost per nested chunk"). An error of `events$` or of `then` is
 * the stream's error; unsubscribing unsubscribes `events$`. With `store`, each result
 * message is given to it before it goes out (the round's result store in the same
 * subscriber: `startToolCalls`'s `lone`).
 *
 * ```
 * events$: --p--q--m|        p, q: preliminaries; m: a result message
 * then():           (xy|)
 * result:  --p--q--M(xy|)    M: m as its tool-result chunk
 * ```
 *
 * @internal
 * @example
 * ```ts
 * toolEventsThen(rest$, () => this.afterTools(round, results));
 * ```
 * @param events$ The round's tool events.
 * @param then What follows them (the next round's step, or the loop's end).
 * @param store Called with each result message, before its chunk goes out.
 * @returns A cold Observable.
 */
export function toolEventsThen<R>(
  events$: Observable<ToolCallEvent>,
  then: () => readonly R[],
  store?: (message: ToolMessage) => void,
): Observable<ChatChunk | R> {
  return new Observable<ChatChunk | R>((subscriber) =>
    events$.subscribe(
      new DirectSubscriber({
        next: (event) => {
          // A preliminary goes out as it is.
          if (!isToolMessage(event)) {
            subscriber.next(event);
            return;
          }
          store?.(event);
          subscriber.next(toToolResultChunk(event));
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          let rest: readonly R[];
          try {
            rest = then();
          } catch (err) {
            subscriber.error(err);
            return;
          }
          for (const value of rest) {
            if (subscriber.closed) return;
            subscriber.next(value);
          }
          subscriber.complete();
        },
      }),
    ),
  );
}
