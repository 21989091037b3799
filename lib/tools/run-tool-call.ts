import {
  catchError,
  defaultIfEmpty,
  defer,
  finalize,
  from,
  isObservable,
  map,
  of,
  takeLast,
  tap,
  throwError,
  timeout as timeoutWith,
  type Observable,
} from 'rxjs';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool, ToolContext, ToolOutput } from '../core/tool.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import { ToolResultError } from '../errors/tool-result-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import type { ToolExecution } from './tool-execution.js';

/** The longest delay a timer can wait (2^31 − 1 ms); longer limits count as none. */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * Starts one tool call: looks the tool up among those offered, runs the guard, parses and
 * validates the arguments, calls `execute` (through the interceptor, if any) and converts
 * the result to text. A tool that returns a plain value (or fails) before `execute`
 * returns is answered on the spot, with no Observable, timer or AbortController; a Promise
 * or an Observable becomes an Observable of the one `ToolMessage`, with an AbortSignal
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
): ToolMessage | Observable<ToolMessage> {
  try {
    const tool = execution.tools.get(call.name);
    if (tool === undefined) {
      throw new ToolNotFoundError({ toolName: call.name, available: [...execution.tools.keys()] });
    }
    execution.guard?.(call, tool);
    const args = tool.parseArguments(call.arguments);
    // The AbortController is made only if the tool reads `signal`.
    let controller: AbortController | undefined;
    const context: ToolContext = {
      values: execution.values,
      get signal() {
        return (controller ??= new AbortController()).signal;
      },
      toolCallId: call.id,
      round: execution.round,
    };
    let output: ToolOutput<unknown>;
    try {
      const { intercept } = execution;
      output =
        intercept === undefined
          ? tool.execute(args, context)
          : intercept({ call, tool, args, context }, () => tool.execute(args, context));
    } catch (error) {
      throw new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause: error });
    }
    if (!isObservable(output) && !isPromiseLike(output)) {
      return toolMessage(call, toText(tool, call, output));
    }
    return settle(output, tool, call, execution, () => controller?.abort()).pipe(
      map((result) => toolMessage(call, toText(tool, call, result))),
      catchError((error: unknown) => of(failure(error, call, execution))),
    );
  } catch (error) {
    return failure(error, call, execution);
  }
}

/**
 * {@link startToolCall} as a cold Observable of the one `ToolMessage`.
 * @internal
 * @example
 * ```ts
 * runToolCall(call, execution).subscribe((message) => console.log(message.content));
 * ```
 * @param call The call the model sent.
 * @param execution How the round's calls run.
 * @returns A cold Observable of the result.
 */
export function runToolCall(call: ToolCall, execution: ToolExecution): Observable<ToolMessage> {
  return defer(() => {
    const started = startToolCall(call, execution);
    return isObservable(started) ? started : of(started);
  });
}

/** The error result the model sees, or the error itself under policy `throw`. */
function failure(error: unknown, call: ToolCall, execution: ToolExecution): ToolMessage {
  if (execution.onToolError === 'throw') throw error;
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: execution.errorContent(error, call),
    isError: true,
  };
}

function toolMessage(call: ToolCall, content: string): ToolMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

/** The result as the text the model sees; a converter that gives no string is an error. */
function toText(tool: Tool, call: ToolCall, result: unknown): string {
  let content: unknown;
  try {
    content = tool.convertResult(result);
  } catch (error) {
    throw new ToolResultError({
      toolName: tool.name,
      toolCallId: call.id,
      received: 'an error',
      cause: error,
    });
  }
  if (typeof content === 'string') return content;
  throw new ToolResultError({
    toolName: tool.name,
    toolCallId: call.id,
    received: content === null ? 'null' : typeof content,
  });
}

/** The last value of an asynchronous tool output, aborted when left before it settles. */
function settle(
  output: PromiseLike<unknown> | Observable<unknown>,
  tool: Tool,
  call: ToolCall,
  execution: ToolExecution,
  abort: () => void,
): Observable<unknown> {
  return defer(() => {
    let settled = false;
    const output$ = from(output).pipe(
      takeLast(1),
      defaultIfEmpty(undefined),
      tap({ complete: () => (settled = true), error: () => (settled = true) }),
      // Unsubscribed (by the caller or by the timeout below) before the tool settled.
      finalize(() => {
        if (!settled) abort();
      }),
      catchError((error: unknown) =>
        throwError(
          () => new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause: error }),
        ),
      ),
    );
    const limit = tool.timeout ?? execution.timeout;
    if (!(limit <= MAX_TIMER_DELAY)) return output$;
    return output$.pipe(
      timeoutWith({
        first: limit,
        with: () =>
          throwError(
            () =>
              new ToolTimeoutError({ toolName: tool.name, toolCallId: call.id, timeout: limit }),
          ),
      }),
    );
  });
}
