import { asyncScheduler, Observable, Subscriber, type Subscription } from 'rxjs';
import type { ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
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
import { preliminaryTarget } from './tool-events-then.js';

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
  return new Observable<ToolCallEvent>((subscriber) => {
    const run = new ToolValueSubscriber(subscriber, tool, call, execution, abort);
    const ms = timeLimitOf(tool, execution);
    if (ms !== undefined) {
      run.limit = asyncScheduler.schedule(() => {
        run.fail(new ToolTimeoutError({ toolName: tool.name, toolCallId: call.id, timeout: ms }));
      }, ms);
    }
    run.source = output$.subscribe(run);
    // It ended while it was subscribing (a synchronous tool, or a failure at once).
    if (run.over) run.source.unsubscribe();
    return () => run.stop();
  });
}

/**
 * `observableToolResult`'s subscriber to the tool's values: the per-value work in its own
 * `next` (a `Subscriber` subclass RxJS subscribes with as it is, as `DirectSubscriber`,
 * without an observer object between: one call per value, each chunk of a nested agent),
 * its state in fields. `next` never throws.
 */
class ToolValueSubscriber extends Subscriber<unknown> {
  /** This subscriber listens to the tool no more. */
  over = false;
  /** The tool's subscription; read by `stop`, which a synchronous tool reaches before `subscribe` returns. */
  source: Subscription | undefined = undefined;
  /** The time limit's action. */
  limit: Subscription | undefined = undefined;
  /** The tool completed or failed by itself (no abort then). */
  private settled = false;
  /** The last value: as it came (no progress: converted only at the end), or converted. */
  private last: unknown = undefined;
  private converted: ToolResultContent | undefined = undefined;
  private readonly progress: boolean;
  /** Where preliminary results go (`preliminaryTarget`: past `toolEventsThen` when it is `out`). */
  private readonly preliminaries: Subscriber<ToolResultChunk>;

  constructor(
    private readonly out: Subscriber<ToolCallEvent>,
    private readonly tool: Tool,
    private readonly call: ToolCall,
    private readonly execution: ToolExecution,
    private readonly abort: () => void,
  ) {
    super();
    this.progress = execution.emitProgress === true;
    this.preliminaries = preliminaryTarget(out);
  }

  override next(value: unknown): void {
    if (this.over || this.isStopped) return;
    if (value instanceof NestedChunk) {
      if (this.progress) this.preliminaries.next(nestedResult(this.call, value));
      return;
    }
    if (!this.progress) {
      this.last = value;
      return;
    }
    let chunk: ToolCallEvent;
    try {
      this.converted = toResult(this.tool, this.call, value);
      chunk = preliminaryResult(this.call, this.converted);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.preliminaries.next(chunk);
  }

  protected override _error(cause: unknown): void {
    if (this.over) return;
    this.settled = true;
    const { tool, call } = this;
    this.fail(new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause }));
  }

  protected override _complete(): void {
    if (this.over) return;
    this.settled = true;
    let message: ToolMessage;
    try {
      message = toolMessage(this.call, this.converted ?? toResult(this.tool, this.call, this.last));
    } catch (error) {
      this.fail(error);
      return;
    }
    this.end(message);
  }

  /** Stops listening (the time limit, the tool), and aborts a tool that had not settled. */
  stop(): void {
    if (this.over) return;
    this.over = true;
    this.limit?.unsubscribe();
    this.source?.unsubscribe();
    this.unsubscribe();
    if (!this.settled) this.abort();
  }

  /** The failure as the error result (or the error under policy `throw`). */
  fail(error: unknown): void {
    this.stop();
    let message: ToolMessage;
    try {
      message = failure(error, this.call, this.execution);
    } catch (thrown) {
      this.out.error(thrown);
      return;
    }
    this.end(message);
  }

  private end(message: ToolMessage): void {
    this.stop();
    this.out.next(message);
    this.out.complete();
  }
}
