import type { Observable } from 'rxjs';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolResultContent } from './tool-result-content.js';
import type { Usage } from './usage.js';

/**
 * What a running tool receives besides its arguments.
 *
 * @example
 * ```ts
 * import { tool } from 'rx-advisors';
 * const whoAmI = tool({
 *   name: 'whoAmI',
 *   description: 'The current user id',
 *   parameters: { type: 'object', properties: {} },
 *   execute: (_args, { values }) => String(values['userId']),
 * });
 * ```
 */
export interface ToolContext {
  /** The call's `toolContext()` values. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Fires when the call is unsubscribed or the tool times out. */
  readonly signal: AbortSignal;
  /** The id of the tool call being answered. */
  readonly toolCallId: string;
  /** The loop round (model call) that asked for this tool, counting from 1. */
  readonly round: number;
  /**
   * The calling request's shared context (`request.context`), read-only: what a tool that
   * starts a call of its own (a `ChatClient` run as a tool) links that call to, as its
   * `ContextKeys.PARENT_CALL`. Absent where no call runs the tool (`executeToolCalls`).
   */
  readonly callContext?: ReadonlyMap<string, unknown>;
  /**
   * Adds model usage the tool spent (a nested agent, a model it asked) to the run's usage:
   * the tool loop's final `usage` chunk includes it. Absent outside the tool loop.
   */
  readonly reportUsage?: (usage: Usage) => void;
}

/**
 * A tool's `needsApproval` function: whether this call (its validated arguments) must be
 * approved by a human before it runs. A method type, so a `Tool<{ id: number }>` is still
 * a `Tool` (like `execute`).
 * @example
 * ```ts
 * import type { ToolApprovalPredicate } from 'rx-advisors';
 * const bigPayments: ToolApprovalPredicate<{ amount: number }> = ({ amount }) => amount > 100;
 * ```
 */
export type ToolApprovalPredicate<TArgs> = {
  check(args: TArgs, context: ToolContext): boolean | PromiseLike<boolean>;
}['check'];

/**
 * A human decision on one tool call: approve it, or deny it with a reason the model sees
 * ("denied by the user: <reason>").
 * @example
 * ```ts
 * import type { ToolApprovalDecision } from 'rx-advisors';
 * const no: ToolApprovalDecision = { approved: false, reason: 'not this user' };
 * ```
 */
export interface ToolApprovalDecision {
  approved: boolean;
  reason?: string;
}

/**
 * What `execute` may return: a value, a Promise or an Observable. An Observable's last
 * value is the result the model sees; with the loop's `emitToolEvents`, every value also
 * goes to the client as it comes, as a preliminary `tool-result` (progress).
 * @example
 * ```ts
 * import { interval, map, take } from 'rxjs';
 * import type { ToolOutput } from 'rx-advisors';
 * const progress: ToolOutput<string> = interval(100).pipe(take(3), map((n) => `step ${n + 1} of 3`));
 * ```
 */
export type ToolOutput<TResult> = TResult | Promise<TResult> | Observable<TResult>;

/**
 * A tool the model can call: its definition plus how to run it. Create one with `tool()`.
 *
 * @example
 * ```ts
 * import { tool } from 'rx-advisors';
 * const getTime = tool({
 *   name: 'getTime',
 *   description: 'The current time in a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
 *   execute: ({ city }) => `12:00 in ${city}`,
 * });
 * ```
 */
export interface Tool<TArgs = unknown, TResult = unknown> extends ToolDefinition {
  /** When every tool of a round is return-direct, the loop ends with their results as the answer. */
  readonly returnDirect: boolean;
  /**
   * Parses and validates the raw JSON arguments text; throws a `ToolArgumentsError`
   * when they are malformed or violate the schema.
   */
  parseArguments(text: string): TArgs;
  /** Runs the tool on validated arguments. */
  execute(args: TArgs, context: ToolContext): ToolOutput<TResult>;
  /**
   * Turns the tool's result into what the model sees: text, or text with images and files
   * ({@link ToolResultContent}).
   */
  convertResult(result: TResult): string | ToolResultContent;
  /**
   * Milliseconds (RxJS time) the tool may run before it is cancelled with a
   * `ToolTimeoutError`; `undefined` falls back to the loop's `toolTimeout`.
   */
  readonly timeout?: number | undefined;
  /**
   * Whether a call must be approved by a human before it runs: `true`, or a function of
   * the validated arguments and the context (sync or async); see `docs/tool-calling.md`.
   */
  readonly needsApproval?: boolean | ToolApprovalPredicate<TArgs> | undefined;
  /**
   * Whether running it again with the same arguments is safe (no side effect repeated):
   * a durable run re-runs an idempotent call whose outcome was not recorded, and never a
   * call of any other tool without asking. `undefined` means `false`.
   */
  readonly idempotent?: boolean | undefined;
}
