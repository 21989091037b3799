import { ContextKeys } from '../advisor-api/context-keys.js';
import type { ToolCall } from '../core/message.js';
import type { Tool, ToolContext, ToolOutput } from '../core/tool.js';
import { Rules, type OptionRule } from '../core/validate-options.js';

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

/**
 * The defaults of the tool-execution core, shared by `ToolCallingAdvisor` and
 * `executeToolCalls`: how many tools of a round run at once, how long a tool may run
 * (milliseconds, RxJS time: 5 minutes), the error policy, and how many calls one round
 * may ask for.
 * @internal
 */
export const TOOL_EXECUTION_DEFAULTS = {
  concurrency: 8,
  timeout: 300_000,
  onToolError: 'report',
  maxToolCallsPerRound: 128,
} as const satisfies {
  concurrency: number;
  timeout: number;
  onToolError: ToolErrorPolicy;
  maxToolCallsPerRound: number;
};

/**
 * The option rules of the tool-execution core, shared by the options of
 * `ToolCallingAdvisor` and `executeToolCalls`.
 * @internal
 */
export const TOOL_EXECUTION_RULES = {
  concurrency: Rules.number(1),
  timeout: Rules.custom(
    'a positive number of milliseconds (Infinity: no limit)',
    (value) => typeof value === 'number' && value > 0,
  ),
  onToolError: Rules.oneOf('report', 'throw'),
  maxToolCallsPerRound: Rules.integer(1),
} as const satisfies Record<string, OptionRule>;

/**
 * One tool call about to run, as an interceptor sees it: the call, the tool, the
 * validated arguments and the context `execute` receives.
 * @internal
 */
export interface ToolInvocation {
  readonly call: ToolCall;
  readonly tool: Tool;
  readonly args: unknown;
  readonly context: ToolContext;
}

/**
 * The per-call seam of the tool-execution core: wraps `execute` (after the lookup, the
 * guards and argument validation; before the result conversion, the timeout and the
 * error policy). `proceed()` runs the tool; an interceptor may run it later (an approval),
 * around a span (telemetry), or not at all (return another output, or throw). A plain
 * value keeps the synchronous fast path.
 * @internal
 */
export type ToolCallInterceptor = (
  invocation: ToolInvocation,
  proceed: () => ToolOutput<unknown>,
) => ToolOutput<unknown>;

/**
 * How the tool calls of one round run: the one configuration of the tool-execution core
 * (`startToolCalls`, `startToolCall`), built by `ToolCallingAdvisor` once per round and by
 * `executeToolCalls` once per call.
 * @internal
 */
export interface ToolExecution {
  /** The tools offered in this round, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The call's `toolContext()` values. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The round that asked for the calls. */
  readonly round: number;
  /** Milliseconds a tool without its own `timeout` may run; `Infinity`: no limit. */
  readonly timeout: number;
  /** How many calls of the round run at once. */
  readonly concurrency: number;
  /** How many calls the round may ask for; past it, `TooManyToolCallsError`. */
  readonly maxToolCallsPerRound: number;
  readonly onToolError: ToolErrorPolicy;
  /** The text the model sees for a reported error. */
  readonly errorContent: (error: unknown, call: ToolCall) => string;
  /** Runs before the arguments are parsed; throws to refuse the call (limits). */
  readonly guard?: ((call: ToolCall, tool: Tool) => void) | undefined;
  /** Wraps every `execute` (see {@link ToolCallInterceptor}). */
  readonly intercept?: ToolCallInterceptor | undefined;
  /**
   * Whether an Observable tool's values also go out as preliminary `tool-result` chunks
   * (the tool loop with `emitToolEvents`). Default: no.
   */
  readonly emitProgress?: boolean | undefined;
}

/**
 * The default text a model sees for a failed tool call.
 * @internal
 */
export function describeToolError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return `The tool failed: ${String(error)}`;
}

/**
 * The call's tool-call interceptor (`ContextKeys.TOOL_CALL_INTERCEPTOR`), if one is set.
 * @internal
 */
export function interceptorOf(context: Map<string, unknown>): ToolCallInterceptor | undefined {
  const intercept = context.get(ContextKeys.TOOL_CALL_INTERCEPTOR);
  return typeof intercept === 'function' ? (intercept as ToolCallInterceptor) : undefined;
}
