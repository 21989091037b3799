import { concat, defer, ignoreElements, of, type Observable } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import { Rules, validateOptions, withDefaults } from '../core/validate-options.js';
import { startToolCalls } from './start-tool-calls.js';
import {
  describeToolError,
  TOOL_EXECUTION_DEFAULTS,
  TOOL_EXECUTION_RULES,
  type ToolErrorPolicy,
} from './tool-execution.js';
import { toolsByName } from './unique-tools.js';

/**
 * Options of {@link executeToolCalls}.
 * @example
 * ```ts partial
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
  /**
   * Milliseconds (RxJS time) a tool without its own `timeout` may run before it is
   * cancelled with a `ToolTimeoutError`; default 300,000 (5 minutes); `Infinity`: no limit.
   */
  timeout?: number;
  /** `report` (default): failures become `isError` results; `throw`: the Observable errors. */
  onToolError?: ToolErrorPolicy;
  /** The round number tools see in `ToolContext.round`; default 1. */
  round?: number;
  /** At most this many calls; more fail with `TooManyToolCallsError`, no tool run. Default 128. */
  maxToolCallsPerRound?: number;
}

const DEFAULTS = { ...TOOL_EXECUTION_DEFAULTS, toolContext: {}, round: 1 } as const;

/**
 * Runs the tool calls of one model response and emits their results, in call order, as
 * one array of tool messages: the building block for driving the tool loop by hand (with
 * `toolCallingAdvisorAutoRegister: false`). It runs on the same tool-execution core as
 * `ToolCallingAdvisor` (lookup, argument validation, timeout, abort, concurrency, error
 * policy). Unsubscribing aborts every running tool. Results keep the calls' ids as given.
 *
 * @example
 * ```ts partial
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
  const resolved = withDefaults(
    DEFAULTS,
    validateOptions(options, { ...TOOL_EXECUTION_RULES, round: Rules.integer(1) }, '', {
      known: ['toolCalls', 'tools', 'toolContext'],
    }),
  );
  const tools = toolsByName(resolved.tools);
  return defer(() => {
    const { results, rest$ } = startToolCalls(resolved.toolCalls, {
      tools,
      values: resolved.toolContext,
      round: resolved.round,
      timeout: resolved.timeout,
      concurrency: resolved.concurrency,
      maxToolCallsPerRound: resolved.maxToolCallsPerRound,
      onToolError: resolved.onToolError,
      errorContent: describeToolError,
    });
    if (rest$ === undefined) return of(results);
    return concat(
      rest$.pipe(ignoreElements()),
      defer(() => of(results)),
    );
  });
}
