import { asyncScheduler, Observable, type Subscription } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import { DirectSubscriber } from '../core/direct-subscriber.js';
import { NestedChunk, nestedResult } from './nested-chunk.js';
import {
  failure,
  preliminaryResult,
  timeLimitOf,
  toolMessage,
  toResult,
  type ToolCallEvent,
} from './tool-call-results.js';
import type { ToolExecution } from './tool-execution.js';

/**
 * The result of a tool whose `execute` returned an Observable: its last value (`undefined`
 * when it completes empty) as the one `ToolMessage`. With `execution.emitProgress`, every
 * value also goes out, as it comes, as a preliminary `tool-result` chunk (converted like
 * the result): the client sees the tool's progress, the model only the last value. A
 * nested agent's chunk (`NestedChunk`, what `agentTool` emits) goes out as it is, as the
 * preliminary's `agentChunk`, and is never the result.
 *
 * ```
 * output$:  --a--b--c|
 * result:   --a--b--c(m|)     a, b, c: preliminary chunks (emitProgress only); m: the message of c
 * ```
 *
 * The time limit (RxJS time) covers the whole run, progress or not; on it, or on
 * unsubscription before the tool completes, the tool's AbortSignal fires and its
 * subscription ends (on the limit, before the error follows). A failure (the tool's error,
 * a value the converter rejects, the time limit) is the error result, or the error under
 * policy `throw`; preliminaries sent before it stay sent.
 *
 * One subscriber does it all (the fused form of `tap`, `finalize`, `catchError`, `map`,
 * `takeLast` and a time limit): a value of a long-running tool, such as each chunk of a
 * nested agent, costs one call and one chunk, not an operator chain (docs/agents.md, "Cost
 * per nested chunk").
 * @internal
 * @example
 * ```ts
 * observableToolResult(output$, tool, call, execution, () => controller?.abort());
 * ```
 * @param output$ What `execute` returned.
 * @param tool The tool.
 * @param call The call it answers.
 * @param execution How the round's calls run.
 * @param abort Fires the tool's AbortSignal.
 * @returns The preliminaries (if asked for), then the message.
 */
export function observableToolResult(
  output$: Observable<unknown>,
  tool: Tool,
  call: ToolCall,
  execution: ToolExecution,
  abort: () => void,
): Observable<ToolCallEvent> {
  const progress = execution.emitProgress === true;
  return new Observable<ToolCallEvent>((subscriber) => {
    // The tool completed or failed by itself (no abort then).
    let settled = false;
    // This subscriber listens to the tool no more.
    let over = false;
    // Read by `stop`, which a synchronous tool reaches before `subscribe` returns.
    let source: Subscription | undefined = undefined;
    let limit: Subscription | undefined;
    // The last value: as it came (no progress: converted only at the end), or converted.
    let last: unknown;
    let converted: ToolResultContent | undefined;

    const stop = (): void => {
      if (over) return;
      over = true;
      limit?.unsubscribe();
      source?.unsubscribe();
      if (!settled) abort();
    };
    const end = (message: ToolMessage): void => {
      stop();
      subscriber.next(message);
      subscriber.complete();
    };
    const fail = (error: unknown): void => {
      stop();
      let message: ToolMessage;
      try {
        message = failure(error, call, execution);
      } catch (thrown) {
        subscriber.error(thrown);
        return;
      }
      end(message);
    };

    const ms = timeLimitOf(tool, execution);
    if (ms !== undefined) {
      limit = asyncScheduler.schedule(() => {
        fail(new ToolTimeoutError({ toolName: tool.name, toolCallId: call.id, timeout: ms }));
      }, ms);
    }
    source = output$.subscribe(
      new DirectSubscriber<unknown>({
        next: (value) => {
          if (over) return;
          if (value instanceof NestedChunk) {
            if (progress) subscriber.next(nestedResult(call, value));
            return;
          }
          if (!progress) {
            last = value;
            return;
          }
          let chunk: ToolCallEvent;
          try {
            converted = toResult(tool, call, value);
            chunk = preliminaryResult(call, converted);
          } catch (error) {
            fail(error);
            return;
          }
          subscriber.next(chunk);
        },
        error: (cause: unknown) => {
          if (over) return;
          settled = true;
          fail(new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause }));
        },
        complete: () => {
          if (over) return;
          settled = true;
          let message: ToolMessage;
          try {
            message = toolMessage(call, converted ?? toResult(tool, call, last));
          } catch (error) {
            fail(error);
            return;
          }
          end(message);
        },
      }),
    );
    // It ended while it was subscribing (a synchronous tool, or a failure at once).
    if (over) source.unsubscribe();
    return stop;
  });
}
