import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatResponse } from '../core/chat-response.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRule,
  type OptionRules,
} from '../core/validate-options.js';
import {
  TOOL_EXECUTION_DEFAULTS,
  TOOL_EXECUTION_RULES,
  type ToolErrorPolicy,
} from './tool-execution.js';
import type { ToolApprovalRequirement, ToolApprover } from './tool-approval.js';
import type { ToolLoopState } from './tool-loop-state.js';
import { toStopConditions, type StopCondition } from './stop-conditions.js';
import type { PrepareRound } from './prepare-round.js';
import type { ToolCallRepair } from './repair-tool-call.js';

/**
 * What happens to text a model streams in a round that ends with tool calls (a preamble
 * such as "Let me look that up."): `stream` sends it on as it arrives (the default);
 * `drop` holds each round's text until the round ends and sends only the final round's,
 * which delays the answer text to the end of its round.
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ preamble: 'drop' });
 * ```
 */
export type PreamblePolicy = 'stream' | 'drop';

/**
 * Decides whether a round's response leads to running its tools and another round.
 * @example
 * ```ts
 * import type { ToolEligibility } from 'rx-advisors';
 * const onlyWhenAsked: ToolEligibility = (response) => response.finishReason === 'tool-calls';
 * ```
 */
export type ToolEligibility = (response: ChatResponse, state: ToolLoopState) => boolean;

/**
 * Options of `ToolCallingAdvisor`; every one has a default.
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({
 *   maxRounds: 5,
 *   concurrency: 4,
 *   toolCallLimits: { search: 3 },
 *   toolTimeout: 10_000,
 *   maxToolCallsPerRound: 32,
 *   emitToolEvents: true,
 * });
 * ```
 */
export interface ToolCallingAdvisorOptions {
  /** Position in the chain; default `Order.TOOL_CALLING` (`HIGHEST_PRECEDENCE + 300`). */
  order?: number;
  /** Default `'ToolCallingAdvisor'`. */
  name?: string;
  /** Model calls allowed per request; default 20. Past it: `ToolLoopLimitError`. */
  maxRounds?: number;
  /** Calls allowed per tool name and request, e.g. `{ search: 3 }`; default unlimited. */
  toolCallLimits?: Readonly<Record<string, number>>;
  /** How many tools of one round run at once; default 8. Results keep the call order. */
  concurrency?: number;
  /** Whether a round's tools run; default: the response has tool calls. */
  eligibility?: ToolEligibility;
  /** Send every earlier round to the model (default `true`); `false`: system + tool results only. */
  conversationHistory?: boolean;
  /**
   * Also emit, for UIs: `round-start`/`round-end`, the `tool-call-delta` chunks as the
   * model types the arguments, `tool-call`, each value of an Observable tool as a
   * preliminary `tool-result` (`preliminary: true`), and `tool-result`; default `false`.
   */
  emitToolEvents?: boolean;
  /** `report` (default): a failed tool becomes an `isError` result; `throw`: the stream fails. */
  onToolError?: ToolErrorPolicy;
  /**
   * Milliseconds (RxJS time) a tool without its own `timeout` may run before it is
   * cancelled with a `ToolTimeoutError`; default 300,000 (5 minutes); `Infinity`: no limit.
   */
  toolTimeout?: number;
  /** Tool calls one round may ask for; default 128. More: `TooManyToolCallsError`, no tool runs. */
  maxToolCallsPerRound?: number;
  /** Text streamed before a tool call in an intermediate round; default `stream`. */
  preamble?: PreamblePolicy;
  /**
   * Asks a human about each call that needs approval (in one stream); without it, a round
   * with such calls ends the stream with `tool-approval-request` chunks and the finish
   * reason `awaiting-approval`. See `docs/tool-calling.md`, "Approval".
   */
  approve?: ToolApprover;
  /** Tools that need approval besides those declaring `needsApproval`: names or a predicate. */
  requireApproval?: ToolApprovalRequirement;
  /**
   * Stops the loop after a round whose tools ran when one of these holds (any of an
   * array): `stepCountIs(n)`, `hasToolCall(name)`, `usageAbove({...})` or your own
   * predicate. The final `metadata` chunk names it in `stopReason`. Default: none.
   */
  stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * Changes one round's request before it is sent: another model, a subset of the tools,
   * a tool choice, options or trimmed messages, for that round only. Default: none.
   */
  prepareRound?: PrepareRound;
  /**
   * Repairs a call that names an unknown tool or fails argument validation (or declines);
   * its usage counts through `reportUsage`. Default: none (the model sees the error).
   */
  repairToolCall?: ToolCallRepair;
  /** Repairs tried per tool call; default 1. */
  maxRepairAttempts?: number;
}

/** The options with defaults applied (what subclasses see as `this.options`). */
export interface ResolvedToolCallingAdvisorOptions {
  readonly order: number;
  readonly name: string;
  readonly maxRounds: number;
  readonly toolCallLimits: Readonly<Record<string, number>>;
  readonly concurrency: number;
  readonly eligibility: ToolEligibility | undefined;
  readonly conversationHistory: boolean;
  readonly emitToolEvents: boolean;
  readonly onToolError: ToolErrorPolicy;
  readonly toolTimeout: number;
  readonly maxToolCallsPerRound: number;
  readonly preamble: PreamblePolicy;
  readonly approve: ToolApprover | undefined;
  readonly requireApproval: ToolApprovalRequirement | undefined;
  /** The `stopWhen` conditions as a list; `undefined` when none. */
  readonly stopWhen: readonly StopCondition[] | undefined;
  readonly prepareRound: PrepareRound | undefined;
  readonly repairToolCall: ToolCallRepair | undefined;
  readonly maxRepairAttempts: number;
}

/**
 * The defaults of `ToolCallingAdvisor`'s options.
 * @internal
 */
export const TOOL_CALLING_ADVISOR_DEFAULTS: ResolvedToolCallingAdvisorOptions = Object.freeze({
  order: Order.TOOL_CALLING,
  name: 'ToolCallingAdvisor',
  maxRounds: 20,
  toolCallLimits: {},
  concurrency: TOOL_EXECUTION_DEFAULTS.concurrency,
  eligibility: undefined,
  conversationHistory: true,
  emitToolEvents: false,
  onToolError: TOOL_EXECUTION_DEFAULTS.onToolError,
  toolTimeout: TOOL_EXECUTION_DEFAULTS.timeout,
  maxToolCallsPerRound: TOOL_EXECUTION_DEFAULTS.maxToolCallsPerRound,
  preamble: 'stream',
  approve: undefined,
  requireApproval: undefined,
  stopWhen: undefined,
  prepareRound: undefined,
  repairToolCall: undefined,
  maxRepairAttempts: 1,
});

const RULES: OptionRules<ToolCallingAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  maxRounds: Rules.integer(1),
  toolCallLimits: Rules.custom(
    'an object of limits per tool name',
    (value) => typeof value === 'object' && value !== null,
  ),
  concurrency: TOOL_EXECUTION_RULES.concurrency,
  eligibility: Rules.custom(
    'a function (response, state) => boolean',
    (value) => typeof value === 'function',
  ),
  conversationHistory: Rules.boolean,
  emitToolEvents: Rules.boolean,
  onToolError: TOOL_EXECUTION_RULES.onToolError,
  toolTimeout: TOOL_EXECUTION_RULES.timeout,
  maxToolCallsPerRound: TOOL_EXECUTION_RULES.maxToolCallsPerRound,
  preamble: Rules.oneOf('stream', 'drop'),
  approve: Rules.custom(
    'a function (request, state) => decision | Promise | Observable',
    (value) => typeof value === 'function',
  ),
  requireApproval: Rules.custom(
    'an array of tool names or a function (call, tool) => boolean',
    (value) =>
      typeof value === 'function' ||
      (Array.isArray(value) && value.every((name) => typeof name === 'string')),
  ),
  stopWhen: Rules.custom(
    'a stop condition (progress) => boolean, or an array of them (stepCountIs, hasToolCall, usageAbove, ...)',
    (value) =>
      typeof value === 'function' ||
      (Array.isArray(value) && value.every((condition) => typeof condition === 'function')),
  ),
  prepareRound: Rules.custom(
    'a function ({ round, request, state }) => RoundPreparation | undefined',
    (value) => typeof value === 'function',
  ),
  repairToolCall: Rules.custom(
    'a function ({ call, error, tool, tools, ... }) => repaired call | undefined (or a Promise/Observable of it)',
    (value) => typeof value === 'function',
  ),
  maxRepairAttempts: Rules.integer(1, 10),
};

/**
 * Applies defaults and rejects bad values with an `InvalidOptionsError`.
 * @internal
 */
export function resolveToolCallingAdvisorOptions(
  options: ToolCallingAdvisorOptions,
  unknownKeys: 'refuse' | 'typos' = 'refuse',
): ResolvedToolCallingAdvisorOptions {
  const resolved = withDefaults(
    TOOL_CALLING_ADVISOR_DEFAULTS,
    validateOptions(options, RULES, '', { unknownKeys }),
  );
  const limits = resolved.toolCallLimits;
  const limitRules: Record<string, OptionRule> = {};
  for (const name of Object.keys(limits)) limitRules[name] = Rules.integer(0);
  validateOptions(limits, limitRules, 'toolCallLimits.');
  return { ...resolved, stopWhen: toStopConditions(options.stopWhen) };
}
