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
 * Runs one tool call to one `ToolMessage`: looks the tool up among those offered, parses
 * and validates the arguments, runs `execute` with an AbortSignal that fires on
 * unsubscribe or timeout, and converts the result. Failures become an `isError` message
 * (policy `report`) or the Observable's error (policy `throw`).
 * @internal
 */
export function runToolCall(call: ToolCall, options: RunToolCallOptions): Observable<ToolMessage> {
  return defer(() => {
    const tool = options.tools.get(call.name);
    if (tool === undefined) {
      throw new ToolNotFoundError({ toolName: call.name, available: [...options.tools.keys()] });
    }
    options.guard?.(call, tool);
    const args = tool.parseArguments(call.arguments);
    return execute(tool, args, call, options).pipe(
      map((result): ToolMessage => ({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: tool.convertResult(result),
      })),
    );
  }).pipe(
    catchError((error: unknown) => {
      if (options.onToolError === 'throw') return throwError(() => error);
      const message: ToolMessage = {
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: options.errorContent(error, call),
        isError: true,
      };
      return of(message);
    }),
  );
}

function execute(
  tool: Tool,
  args: unknown,
  call: ToolCall,
  options: RunToolCallOptions,
): Observable<unknown> {
  return defer(() => {
    const controller = new AbortController();
    let settled = false;
    const context: ToolContext = {
      values: options.values,
      signal: controller.signal,
      toolCallId: call.id,
      round: options.round,
    };
    const output$ = defer(() => toObservable(tool.execute(args, context))).pipe(
      takeLast(1),
      defaultIfEmpty(undefined),
      tap({ complete: () => (settled = true), error: () => (settled = true) }),
      // Unsubscribed (by the caller or by the timeout below) before the tool settled.
      finalize(() => {
        if (!settled) controller.abort();
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

function toObservable(output: ToolOutput<unknown>): Observable<unknown> {
  if (isObservable(output)) return output;
  if (isPromiseLike(output)) return from(output);
  return of(output);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
