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
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import type { Tool, ToolContext, ToolOutput } from './tool.js';

/**
 * What a tool failure becomes: an error result the model sees, or the stream's error.
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ToolErrorPolicy } from 'rx-advisors';
 * const policy: ToolErrorPolicy = 'throw';
 * const loop = new ToolCallingAdvisor({ onToolError: policy });
 * ```
 */
export type ToolErrorPolicy = 'report' | 'throw';

/** How one tool call is run. @internal */
export interface RunToolCallOptions {
  /** The tools offered in this call, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The call's `toolContext()` values. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The round that asked for the call. */
  readonly round: number;
  /** Fallback timeout for tools without their own. */
  readonly timeout: number | undefined;
  readonly onToolError: ToolErrorPolicy;
  /** The text the model sees for a reported error. */
  readonly errorContent: (error: unknown, call: ToolCall) => string;
  /** Runs before the arguments are parsed; throws to refuse the call (limits). */
  readonly guard?: ((call: ToolCall, tool: Tool) => void) | undefined;
}

/**
 * Starts one tool call: looks the tool up among those offered, parses and validates the
 * arguments and calls `execute`. A tool that returns a plain value (or fails) before
 * `execute` returns is answered on the spot, with no Observable, timer or AbortController;
 * a Promise or an Observable becomes an Observable of the one `ToolMessage`, with an
 * AbortSignal that fires on unsubscribe or timeout. Failures become an `isError` message
 * (policy `report`) or are thrown (policy `throw`: synchronously, or as the Observable's
 * error).
 * @internal
 */
export function startToolCall(
  call: ToolCall,
  options: RunToolCallOptions,
): ToolMessage | Observable<ToolMessage> {
  try {
    const tool = options.tools.get(call.name);
    if (tool === undefined) {
      throw new ToolNotFoundError({ toolName: call.name, available: [...options.tools.keys()] });
    }
    options.guard?.(call, tool);
    const args = tool.parseArguments(call.arguments);
    // The AbortController is made only if the tool reads `signal`.
    let controller: AbortController | undefined;
    const context: ToolContext = {
      values: options.values,
      get signal() {
        return (controller ??= new AbortController()).signal;
      },
      toolCallId: call.id,
      round: options.round,
    };
    let output: ToolOutput<unknown>;
    try {
      output = tool.execute(args, context);
    } catch (error) {
      throw new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause: error });
    }
    if (!isObservable(output) && !isPromiseLike(output)) {
      return toolMessage(call, tool.convertResult(output));
    }
    return settle(output, tool, call, options, () => controller?.abort()).pipe(
      map((result) => toolMessage(call, tool.convertResult(result))),
      catchError((error: unknown) => of(failure(error, call, options))),
    );
  } catch (error) {
    return failure(error, call, options);
  }
}

/**
 * {@link startToolCall} as a cold Observable of the one `ToolMessage`.
 * @internal
 */
export function runToolCall(call: ToolCall, options: RunToolCallOptions): Observable<ToolMessage> {
  return defer(() => {
    const started = startToolCall(call, options);
    return isObservable(started) ? started : of(started);
  });
}

/** The error result the model sees, or the error itself under policy `throw`. */
function failure(error: unknown, call: ToolCall, options: RunToolCallOptions): ToolMessage {
  if (options.onToolError === 'throw') throw error;
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: options.errorContent(error, call),
    isError: true,
  };
}

function toolMessage(call: ToolCall, content: string): ToolMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

/** The last value of an asynchronous tool output, aborted when left before it settles. */
function settle(
  output: PromiseLike<unknown> | Observable<unknown>,
  tool: Tool,
  call: ToolCall,
  options: RunToolCallOptions,
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
    const limit = tool.timeout ?? options.timeout;
    if (limit === undefined) return output$;
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
