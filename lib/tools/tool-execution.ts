import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import { ContextKeys } from '../advisor-api/context-keys.js';
import type {
  ToolCallInterceptor,
  ToolCallInvocation,
  ToolCallOutcome,
  ToolExecuteInvocation,
} from '../advisor-api/tool-call-interceptor.js';
import type { ToolCall } from '../core/message.js';
import type { Tool, ToolOutput } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
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
  /** The call-level interceptors, composed (see `composeToolCallInterceptors`). */
  readonly aroundCall?: AroundCall | undefined;
  /** The `execute`-level interceptors, composed. */
  readonly aroundExecute?: AroundExecute | undefined;
  /** The calling request's context, for `ToolContext.callContext`. */
  readonly callContext?: ReadonlyMap<string, unknown> | undefined;
  /** For `ToolContext.reportUsage`. */
  readonly reportUsage?: ((usage: Usage) => void) | undefined;
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

/** One call through the call-level interceptors. @internal */
export type AroundCall = (
  call: ToolCall,
  proceed: (call: ToolCall) => ToolCallOutcome,
) => ToolCallOutcome;

/** One `execute` through the `execute`-level interceptors. @internal */
export type AroundExecute = (
  invocation: ToolExecuteInvocation,
  proceed: () => ToolOutput<unknown>,
) => ToolOutput<unknown>;

/** The composed interceptors of one round. @internal */
export interface RoundInterceptors {
  readonly aroundCall: AroundCall | undefined;
  readonly aroundExecute: AroundExecute | undefined;
}

const NO_INTERCEPTORS: RoundInterceptors = Object.freeze({
  aroundCall: undefined,
  aroundExecute: undefined,
});

/**
 * The interceptors of one round (`CallInterceptors.toolCallInterceptors`, then the
 * deprecated `ContextKeys.TOOL_CALL_INTERCEPTOR` function as the innermost `execute`
 * wrapper), composed: the first is the outermost (the `execute` level once per list of
 * interceptors the registry hands out, the call level once per round). A rewrite (`proceed`
 * with another call) is looked up again among the offered tools.
 * @internal
 * @example
 * ```ts
 * const { aroundCall } = composeToolCallInterceptors(request.context, offered, round, values);
 * ```
 */
export function composeToolCallInterceptors(
  context: Map<string, unknown>,
  tools: ReadonlyMap<string, Tool>,
  round: number,
  values: Readonly<Record<string, unknown>>,
): RoundInterceptors {
  const interceptors = CallInterceptors.toolCallInterceptors(context);
  const legacy = context.get(ContextKeys.TOOL_CALL_INTERCEPTOR);
  if (interceptors.length === 0 && typeof legacy !== 'function') return NO_INTERCEPTORS;
  const calls = interceptors.filter((interceptor) => interceptor.intercept !== undefined);
  // The `execute` composition depends on the interceptors only: one per list the registry
  // hands out (the same list until it changes), not one per round.
  const aroundExecute =
    typeof legacy === 'function'
      ? composeExecutes(interceptors, legacy as AroundExecute)
      : composedExecutes.has(interceptors)
        ? (composedExecutes.get(interceptors) ?? undefined)
        : remember(interceptors, composeExecutes(interceptors, undefined));
  if (calls.length === 0) return { aroundCall: undefined, aroundExecute };
  const invocation = (call: ToolCall): ToolCallInvocation => ({
    call,
    tool: tools.get(call.name),
    round,
    values,
    context,
  });
  const callStep = (
    index: number,
    call: ToolCall,
    proceed: (c: ToolCall) => ToolCallOutcome,
  ): ToolCallOutcome =>
    index === calls.length
      ? proceed(call)
      : calls[index].intercept!(invocation(call), (next) => callStep(index + 1, next, proceed));
  return { aroundCall: (call, proceed) => callStep(0, call, proceed), aroundExecute };
}

/** The composed `execute` wrappers of a list of interceptors (`null`: none), by list. */
const composedExecutes = new WeakMap<readonly ToolCallInterceptor[], AroundExecute | null>();

function remember(
  interceptors: readonly ToolCallInterceptor[],
  composed: AroundExecute | undefined,
): AroundExecute | undefined {
  composedExecutes.set(interceptors, composed ?? null);
  return composed;
}

/** The `execute` wrappers of `interceptors` (then `legacy`, innermost) as one; `undefined` for none. */
function composeExecutes(
  interceptors: readonly ToolCallInterceptor[],
  legacy: AroundExecute | undefined,
): AroundExecute | undefined {
  const executes: AroundExecute[] = [];
  for (const interceptor of interceptors) {
    if (interceptor.execute !== undefined) executes.push(interceptor.execute.bind(interceptor));
  }
  if (legacy !== undefined) executes.push(legacy);
  if (executes.length === 0) return undefined;
  const executeStep = (
    index: number,
    target: ToolExecuteInvocation,
    proceed: () => ToolOutput<unknown>,
  ): ToolOutput<unknown> =>
    index === executes.length
      ? proceed()
      : executes[index](target, () => executeStep(index + 1, target, proceed));
  return (target, proceed) => executeStep(0, target, proceed);
}
