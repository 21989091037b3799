import { defer, from, map, mergeMap, reduce, type Observable } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { runToolCall, type ToolErrorPolicy } from './run-tool-call.js';
import type { Tool } from './tool.js';
import { toolsByName } from './unique-tools.js';

/**
 * Options of {@link executeToolCalls}.
 * @example
 * ```ts
 * import { executeToolCalls } from 'rx-advisors';
 * executeToolCalls({ toolCalls, tools: [getTime], toolContext: { userId: 7 }, timeout: 5_000 });
 * ```
 */
export interface ExecuteToolCallsOptions {
  /** The calls to run (`response.message.toolCalls`). */
  toolCalls: readonly ToolCall[];
  /** The tools that were offered; a call to any other name is an error result. */
  tools: readonly Tool[];
  /** Values every tool receives as `ToolContext.values`. */
  toolContext?: Readonly<Record<string, unknown>>;
  /** How many tools run at once; default 8. Results keep the call order anyway. */
  concurrency?: number;
  /** Milliseconds before a tool without its own `timeout` is cancelled; default none. */
  timeout?: number;
  /** `report` (default): failures become `isError` results; `throw`: the Observable errors. */
  onToolError?: ToolErrorPolicy;
  /** The round number tools see in `ToolContext.round`; default 1. */
  round?: number;
}

/**
 * Runs the tool calls of one model response and emits their results, in call order, as
 * one array of tool messages: the building block for driving the tool loop by hand (with
 * `toolCallingAdvisorAutoRegister: false`). Unsubscribing aborts every running tool.
 *
 * @example
 * ```ts
 * import { executeToolCalls } from 'rx-advisors';
 *
 * executeToolCalls({ toolCalls: response.message.toolCalls ?? [], tools: [getTime] }).subscribe(
 *   (results) => console.log(results), // [{ role: 'tool', toolCallId, name: 'getTime', content: '12:00' }]
 * );
 * ```
 * @param options The calls, the offered tools, and how to run them.
 * @returns A cold Observable of one array of `ToolMessage`s.
 */
export function executeToolCalls(options: ExecuteToolCallsOptions): Observable<ToolMessage[]> {
  const { toolCalls, tools, toolContext = {}, concurrency = 8, onToolError = 'report' } = options;
  if (!(concurrency >= 1)) {
    throw new InvalidOptionsError({
      option: 'concurrency',
      value: concurrency,
      expected: 'a number of at least 1',
    });
  }
  const byName = toolsByName(tools);
  return defer(() =>
    from(toolCalls).pipe(
      mergeMap(
        (call, index) =>
          runToolCall(call, {
            tools: byName,
            values: toolContext,
            round: options.round ?? 1,
            timeout: options.timeout,
            onToolError,
            errorContent: describeToolError,
          }).pipe(map((message) => ({ index, message }))),
        concurrency,
      ),
      reduce((results: ToolMessage[], { index, message }) => {
        results[index] = message;
        return results;
      }, new Array<ToolMessage>(toolCalls.length)),
    ),
  );
}

/**
 * The default text a model sees for a failed tool call.
 * @internal
 */
export function describeToolError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return `The tool failed: ${String(error)}`;
}
