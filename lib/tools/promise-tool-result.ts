import { asyncScheduler, Observable, type Subscriber } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import { failure, timeLimitOf, toolMessage, toResult } from './tool-call-results.js';
import type { ToolExecution } from './tool-execution.js';

/** How the tool's Promise settled (or that it timed out first). */
type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * The result of a tool whose `execute` returned a Promise, as an Observable of the one
 * `ToolMessage`: what `from(promise)` with `takeLast(1)`, `timeout`, `finalize` (abort)
 * and `catchError` (the error policy) would give, in one subscription and one timer.
 * Hand-written because the composition cost about twice the rest of a tool round
 * (docs/performance.md, W2): this is the path of every asynchronous tool.
 *
 * The Promise's handlers are attached at once, so a rejection is never unhandled, even
 * when the round is torn down before this is subscribed to. The time limit (RxJS time,
 * from subscription) aborts the tool and answers with a `ToolTimeoutError`; unsubscribing
 * before the Promise settles aborts it too. Precondition: subscribed at most once (the
 * tool runs once; `startToolCalls` subscribes once).
 *
 * ```
 * promise:  ----v            (settles with v)
 * result:   ----(m|)         m: the ToolMessage of v
 * ```
 *
 * @internal
 * @example
 * ```ts
 * promiseToolResult(output, tool, call, execution, () => controller?.abort());
 * ```
 * @param promise What `execute` returned.
 * @param tool The tool.
 * @param call The call it answers.
 * @param execution How the round's calls run (time limit, error policy).
 * @param abort Fires the tool's AbortSignal.
 * @returns An Observable of the tool's message.
 */
export function promiseToolResult(
  promise: PromiseLike<unknown>,
  tool: Tool,
  call: ToolCall,
  execution: ToolExecution,
  abort: () => void,
): Observable<ToolMessage> {
  let outcome: Outcome | undefined;
  let waiting: Subscriber<ToolMessage> | undefined;
  const settle = (settled: Outcome): void => {
    if (outcome !== undefined) return;
    outcome = settled;
    const subscriber = waiting;
    waiting = undefined;
    if (subscriber !== undefined) deliver(subscriber, settled);
  };
  const deliver = (subscriber: Subscriber<ToolMessage>, settled: Outcome): void => {
    let message: ToolMessage;
    try {
      message = messageOf(settled, tool, call, execution);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    subscriber.next(message);
    subscriber.complete();
  };
  try {
    promise.then(
      (value) => settle({ ok: true, value }),
      (cause: unknown) =>
        settle({
          ok: false,
          error: new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause }),
        }),
    );
  } catch (cause) {
    // A thenable whose `then` throws.
    settle({
      ok: false,
      error: new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause }),
    });
  }
  return new Observable<ToolMessage>((subscriber) => {
    if (outcome !== undefined) {
      deliver(subscriber, outcome);
      return undefined;
    }
    waiting = subscriber;
    const limit = timeLimitOf(tool, execution);
    const timer =
      limit === undefined
        ? undefined
        : asyncScheduler.schedule(() => {
            // The tool is stopped first, then the model hears why.
            abort();
            settle({
              ok: false,
              error: new ToolTimeoutError({
                toolName: tool.name,
                toolCallId: call.id,
                timeout: limit,
              }),
            });
          }, limit);
    return () => {
      timer?.unsubscribe();
      // Left before the Promise settled: the tool is told to stop.
      if (waiting === subscriber) {
        waiting = undefined;
        abort();
      }
    };
  });
}

/** The message the model sees; throws under policy `throw`. */
function messageOf(
  settled: Outcome,
  tool: Tool,
  call: ToolCall,
  execution: ToolExecution,
): ToolMessage {
  try {
    if (!settled.ok) throw settled.error;
    return toolMessage(call, toResult(tool, call, settled.value));
  } catch (error) {
    return failure(error, call, execution);
  }
}
