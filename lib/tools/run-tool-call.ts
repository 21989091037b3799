import { defer, isObservable, of, type Observable } from 'rxjs';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import { SignalContext } from '../core/signal-context.js';
import type { ToolContext, ToolOutput } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import { observableToolResult } from './observable-tool-result.js';
import { promiseToolResult } from './promise-tool-result.js';
import { failure, toolMessage, toResult, type ToolCallEvent } from './tool-call-results.js';
import type { ToolExecution } from './tool-execution.js';

/**
 * Starts one tool call: looks the tool up among those offered, runs the guard, parses and
 * validates the arguments, calls `execute` (through the interceptor, if any) and converts
 * the result to text. A tool that returns a plain value (or fails) before `execute`
 * returns is answered on the spot, with no Observable, timer or AbortController; a Promise
 * or an Observable becomes an Observable of the one `ToolMessage` (after the preliminary
 * results of an Observable tool, with `execution.emitProgress`), with an AbortSignal
 * that fires on unsubscribe or timeout. Failures become an `isError` message (policy
 * `report`) or are thrown (policy `throw`: synchronously, or as the Observable's error).
 * @internal
 * @example
 * ```ts
 * const started = startToolCall(call, execution);
 * const message$ = isObservable(started) ? started : of(started);
 * ```
 * @param call The call the model sent.
 * @param execution How the round's calls run.
 * @returns The result now, or an Observable of it.
 */
export function startToolCall(
  call: ToolCall,
  execution: ToolExecution,
): ToolMessage | Observable<ToolCallEvent> {
  const { aroundCall } = execution;
  // What a call-level interceptor throws is not the tool's failure: it fails the loop.
  if (aroundCall !== undefined) return aroundCall(call, (next) => runCall(next, execution));
  return runCall(call, execution);
}

/** {@link startToolCall} without the call-level interceptors. */
function runCall(
  call: ToolCall,
  execution: ToolExecution,
): ToolMessage | Observable<ToolCallEvent> {
  try {
    const tool = execution.tools.get(call.name);
    if (tool === undefined) {
      throw new ToolNotFoundError({ toolName: call.name, available: [...execution.tools.keys()] });
    }
    execution.guard?.(call, tool);
    const args = tool.parseArguments(call.arguments);
    // The execute-level interceptors' `onAbort` listeners: told after the signal fires.
    let listeners: (() => void)[] | undefined;
    const context = new ToolCallContext(call, execution);
    let output: ToolOutput<unknown>;
    try {
      const { aroundExecute } = execution;
      output =
        aroundExecute === undefined
          ? tool.execute(args, context)
          : aroundExecute(
              {
                call,
                tool,
                args,
                context,
                onAbort: (listener) => (listeners ??= []).push(listener),
              },
              () => tool.execute(args, context),
            );
    } catch (error) {
      throw new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause: error });
    }
    if (!isObservable(output) && !isPromiseLike(output)) {
      return toolMessage(call, toResult(tool, call, output));
    }
    const abort = (): void => {
      // The AbortController is made only if the tool read `signal`.
      SignalContext.abort(context);
      if (listeners !== undefined) for (const listener of listeners.splice(0)) listener();
    };
    return isObservable(output)
      ? observableToolResult(output, tool, call, execution, abort)
      : promiseToolResult(output, tool, call, execution, abort);
  } catch (error) {
    return failure(error, call, execution);
  }
}

/**
 * What `execute` receives: the call's values, id and round, the loop's call context and
 * usage report (the tool loop gives both; `executeToolCalls` neither), and a signal made on
 * first read (`SignalContext`: no accessor of its own per call).
 */
class ToolCallContext extends SignalContext implements ToolContext {
  declare readonly values: Readonly<Record<string, unknown>>;
  declare readonly toolCallId: string;
  declare readonly round: number;
  declare readonly callContext?: ReadonlyMap<string, unknown>;
  declare readonly reportUsage?: (usage: Usage) => void;

  constructor(call: ToolCall, execution: ToolExecution) {
    super();
    const { callContext, reportUsage } = execution;
    this.values = execution.values;
    this.toolCallId = call.id;
    this.round = execution.round;
    if (callContext !== undefined && reportUsage !== undefined) {
      this.callContext = callContext;
      this.reportUsage = reportUsage;
    }
  }
}

/**
 * {@link startToolCall} as a cold Observable.
 * @internal
 * @example
 * ```ts
 * runToolCall(call, execution).subscribe((event) => console.log(event));
 * ```
 * @param call The call the model sent.
 * @param execution How the round's calls run.
 * @returns A cold Observable of the preliminaries (if any) and the result.
 */
export function runToolCall(call: ToolCall, execution: ToolExecution): Observable<ToolCallEvent> {
  return defer(() => {
    const started = startToolCall(call, execution);
    return isObservable(started) ? started : of(started);
  });
}
