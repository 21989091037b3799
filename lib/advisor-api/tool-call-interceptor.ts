import type { Observable } from 'rxjs';
import type { ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool, ToolApprovalDecision, ToolContext, ToolOutput } from '../core/tool.js';

/**
 * What a running tool call emits: preliminary `tool-result` chunks (the values of an
 * Observable tool, when the loop sends tool events), then always the one `ToolMessage`
 * the model sees.
 * @example
 * ```ts
 * import type { ToolCallEvent } from 'rx-advisors/advisor-api';
 * const done: ToolCallEvent = { role: 'tool', toolCallId: 'c1', name: 'search', content: '5 hits' };
 * ```
 */
export type ToolCallEvent = ToolMessage | ToolResultChunk;

/**
 * What running one tool call gives: its message at once (a synchronous tool, a refused
 * call, a replayed result), or a cold Observable of its events ending with the message.
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { ToolCallOutcome } from 'rx-advisors/advisor-api';
 * const now: ToolCallOutcome = { role: 'tool', toolCallId: 'c1', name: 'getTime', content: '12:00' };
 * const later: ToolCallOutcome = of(now);
 * ```
 */
export type ToolCallOutcome = ToolMessage | Observable<ToolCallEvent>;

/**
 * One tool call as the interceptors see it, before anything of it runs.
 * @example
 * ```ts
 * import type { ToolCallInvocation } from 'rx-advisors/advisor-api';
 * const isPayment = ({ call, tool }: ToolCallInvocation): boolean =>
 *   call.name === 'pay' && tool?.idempotent !== true;
 * ```
 */
export interface ToolCallInvocation {
  /** The call as the model made it (ids made unique by the loop). */
  readonly call: ToolCall;
  /** The offered tool of that name; `undefined` when none is (running it answers with a `ToolNotFoundError`). */
  readonly tool: Tool | undefined;
  /** The loop round (model call) that asked for it, counting from 1. */
  readonly round: number;
  /** The call's `toolContext()` values. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The calling request's shared context (`request.context`). */
  readonly context: Map<string, unknown>;
}

/**
 * One tool's `execute` about to run, as `ToolCallInterceptor.execute` sees it: after the
 * lookup and argument validation, before the result conversion and the error policy.
 * @example
 * ```ts
 * import type { ToolExecuteInvocation } from 'rx-advisors/advisor-api';
 * const describe = ({ tool, args }: ToolExecuteInvocation): string =>
 *   `${tool.name}(${JSON.stringify(args)})`;
 * ```
 */
export interface ToolExecuteInvocation {
  readonly call: ToolCall;
  readonly tool: Tool;
  /** The validated arguments. */
  readonly args: unknown;
  /** What `execute` receives. */
  readonly context: ToolContext;
  /**
   * Tells `listener` (once) if the core gives up on this execution before it settled: the
   * call was unsubscribed or ran past its time limit, when the tool's `AbortSignal` would
   * fire. Cheaper than reading `context.signal` (which makes an `AbortController`), so an
   * interceptor can keep a Promise a Promise (the core's fast path for asynchronous
   * tools) and still learn of a cancel. Set by the tool-execution core; optional for an
   * invocation made elsewhere.
   */
  readonly onAbort?: ((listener: () => void) => void) | undefined;
}

/**
 * The tool-execution core's seam, per tool call: what durable runs (a recorded result
 * instead of running a tool again; a write-ahead record before a side effect), guardrails
 * (check a call's input before it runs and its result before the model sees it), budgets
 * (count tool calls) and telemetry (a span around the call) plug into. Every member is
 * optional; interceptors are composed in registration order (the first registered is the
 * outermost), see `CallInterceptors`.
 *
 * - `intercept(invocation, proceed)` wraps one call. `proceed(call)` runs it (through the
 *   interceptors registered after this one): lookup, argument validation, `execute`,
 *   result conversion, timeout and the loop's error policy (`report` makes a tool's
 *   failure an error result). An interceptor may pass another call (a rewrite), answer
 *   without calling `proceed` (a denial, a recorded result: an `isError` message is what
 *   the model sees), or map the outcome. What it throws, or what the Observable it returns
 *   errors with, is NOT turned into an error result: it fails the loop (a budget, a
 *   journal that cannot write), and teardown cancels the round's other running tools.
 * - `execute(invocation, proceed)` wraps the tool's own `execute` (validated arguments,
 *   the `ToolContext`), before its value is converted: a span around the user's function
 *   (telemetry), a different value. `proceed()` calls `execute`; what this throws is the
 *   tool's failure (an error result under the policy `report`).
 * - `requiresApproval(invocation)`: `true` sends the call through the loop's approval
 *   flow (as a tool's `needsApproval` does).
 * - `knownDecision(invocation)`: a decision already taken for this call (a replayed run):
 *   the loop uses it and asks nobody.
 * - `decided(invocation, decision)`: told of every decision the loop takes or receives.
 *
 * @example
 * ```ts
 * import { isObservable, map } from 'rxjs';
 * import type { ToolMessage } from 'rx-advisors';
 * import type { ToolCallInterceptor } from 'rx-advisors/advisor-api';
 *
 * const redactEmails = (message: ToolMessage): ToolMessage => ({
 *   ...message,
 *   content: message.content.replace(/\S+@\S+/g, '[email]'),
 * });
 * const noEmails: ToolCallInterceptor = {
 *   intercept: (invocation, proceed) => {
 *     const outcome = proceed(invocation.call);
 *     if (!isObservable(outcome)) return redactEmails(outcome);
 *     return outcome.pipe(map((event) => ('role' in event ? redactEmails(event) : event)));
 *   },
 * };
 * ```
 */
export interface ToolCallInterceptor {
  intercept?(
    invocation: ToolCallInvocation,
    proceed: (call: ToolCall) => ToolCallOutcome,
  ): ToolCallOutcome;
  execute?(
    invocation: ToolExecuteInvocation,
    proceed: () => ToolOutput<unknown>,
  ): ToolOutput<unknown>;
  requiresApproval?(invocation: ToolCallInvocation): boolean;
  knownDecision?(invocation: ToolCallInvocation): ToolApprovalDecision | undefined;
  decided?(invocation: ToolCallInvocation, decision: ToolApprovalDecision): void;
}
