import { Observable, Subscriber } from 'rxjs';
import type { ChatChunk, ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolMessage } from '../core/message.js';
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
    events$.subscribe(new ToolEventsSubscriber(subscriber, then, store)),
  );
}

/**
 * `toolEventsThen`'s subscriber: the per-event work in its own `next` (a `Subscriber`
 * subclass RxJS subscribes with as it is, as `DirectSubscriber`, without an observer object
 * between: one call per event). `next` never throws.
 */
class ToolEventsSubscriber<R> extends Subscriber<ToolCallEvent> {
  constructor(
    /** Where every event goes; a preliminary as it is (see {@link preliminaryTarget}). */
    readonly out: Subscriber<ChatChunk | R>,
    private readonly then: () => readonly R[],
    private readonly store: ((message: ToolMessage) => void) | undefined,
  ) {
    super();
  }

  override next(event: ToolCallEvent): void {
    if (this.isStopped) return;
    // A preliminary goes out as it is.
    if (!isToolMessage(event)) {
      this.out.next(event);
      return;
    }
    this.store?.(event);
    this.out.next(toToolResultChunk(event));
  }

  protected override _error(err: unknown): void {
    this.out.error(err);
    this.unsubscribe();
  }

  protected override _complete(): void {
    const { out } = this;
    let rest: readonly R[];
    try {
      rest = this.then();
    } catch (err) {
      out.error(err);
      this.unsubscribe();
      return;
    }
    for (const value of rest) {
      if (out.closed) break;
      out.next(value);
    }
    if (!out.closed) out.complete();
    this.unsubscribe();
  }
}

/**
 * Where a tool's preliminary results can go: past `subscriber` when it is
 * `toolEventsThen`'s own (which sends a preliminary on as it is, and stops only after the
 * tool's events end or are unsubscribed), straight to the round's subscriber: a hop fewer
 * for each chunk of a nested agent. Any other subscriber (an interceptor's operator
 * between) is returned as it is.
 * @internal
 * @example
 * ```ts
 * const preliminaries = preliminaryTarget(subscriber);
 * preliminaries.next(preliminaryResult(call, content));
 * ```
 * @param subscriber The subscriber of a tool call's events.
 * @returns The subscriber a preliminary result is given to.
 */
export function preliminaryTarget(
  subscriber: Subscriber<ToolCallEvent>,
): Subscriber<ToolResultChunk> {
  return isToolEventsSubscriber(subscriber) ? subscriber.out : subscriber;
}

function isToolEventsSubscriber(
  subscriber: Subscriber<ToolCallEvent>,
): subscriber is ToolEventsSubscriber<unknown> {
  return subscriber instanceof ToolEventsSubscriber;
}
