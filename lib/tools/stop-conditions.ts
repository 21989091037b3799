import type { ChatResponse } from '../core/chat-response.js';
import type { StopConditionReason } from '../core/loop-stop-reason.js';
import type { ToolMessage } from '../core/message.js';
import type { Usage } from '../core/usage.js';
import { Rules, validateOptions } from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { LoopHookError } from '../errors/loop-hook-error.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * The run so far, as a `stopWhen` condition sees it after a round whose tools ran.
 * @example
 * ```ts
 * import type { LoopProgress } from 'rx-advisors';
 * const saidDone = (progress: LoopProgress): boolean => progress.response.text.includes('DONE');
 * ```
 */
export interface LoopProgress {
  /** The round that just ended, counting from 1. */
  readonly round: number;
  /** That round's response (its text, tool calls, usage, finish reason). */
  readonly response: ChatResponse;
  /** That round's tool results, in call order. */
  readonly results: readonly ToolMessage[];
  /** Usage of every round so far (nested calls' reported usage included). */
  readonly usage: Usage;
  /** The loop state: all messages the loop added, calls per tool name, the call's context. */
  readonly state: ToolLoopState;
}

/**
 * A predicate over the run so far: `true` stops the loop after the round's tools ran, with
 * no further model call. The final `metadata` chunk then carries
 * `stopReason: { type: 'stop-condition', condition: label, round }`; `label` (else the
 * function's name, else `'custom'`) names it there.
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type StopCondition } from 'rx-advisors';
 * const tooManySearches: StopCondition = ({ state }) => (state.toolCallCounts.get('search') ?? 0) > 5;
 * const loop = new ToolCallingAdvisor({ stopWhen: tooManySearches });
 * ```
 */
export type StopCondition = ((progress: LoopProgress) => boolean) & { readonly label?: string };

/**
 * A stop condition with a label, for the stop reason.
 * @example
 * ```ts
 * import { stopCondition } from 'rx-advisors';
 * const done = stopCondition('said DONE', ({ response }) => response.text.includes('DONE'));
 * ```
 * @param label How the stop reason names it.
 * @param predicate The condition.
 * @returns The labelled condition.
 */
export function stopCondition(
  label: string,
  predicate: (progress: LoopProgress) => boolean,
): StopCondition {
  validateOptions({ label, predicate }, { label: Rules.nonEmptyString, predicate: Rules.func });
  return Object.assign((progress: LoopProgress) => predicate(progress), { label });
}

/**
 * Stops once `count` rounds (model calls of the loop) have run.
 * @example
 * ```ts
 * import { stepCountIs, ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ stopWhen: stepCountIs(3) });
 * ```
 * @param count Rounds, at least 1.
 * @returns The condition, labelled `stepCountIs(count)`.
 */
export function stepCountIs(count: number): StopCondition {
  validateOptions({ count }, { count: Rules.integer(1) });
  return stopCondition(`stepCountIs(${count})`, ({ round }) => round >= count);
}

/**
 * The same as {@link stepCountIs}: rounds are this library's steps.
 * @example
 * ```ts
 * import { roundCountIs, ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ stopWhen: roundCountIs(2) });
 * ```
 * @param count Rounds, at least 1.
 * @returns The condition, labelled `roundCountIs(count)`.
 */
export function roundCountIs(count: number): StopCondition {
  validateOptions({ count }, { count: Rules.integer(1) });
  return stopCondition(`roundCountIs(${count})`, ({ round }) => round >= count);
}

/**
 * Stops after a round that called one of the named tools (a "final answer" tool).
 * @example
 * ```ts
 * import { hasToolCall, ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ stopWhen: hasToolCall('submitAnswer') });
 * ```
 * @param names Tool names, at least one.
 * @returns The condition, labelled `hasToolCall("a", "b")`.
 */
export function hasToolCall(...names: string[]): StopCondition {
  if (names.length === 0 || names.some((name) => typeof name !== 'string' || name === '')) {
    throw new InvalidOptionsError({
      option: 'hasToolCall(names)',
      value: names,
      expected: 'one or more non-empty tool names',
    });
  }
  const wanted = new Set(names);
  const label = `hasToolCall(${names.map((name) => JSON.stringify(name)).join(', ')})`;
  return stopCondition(
    label,
    ({ response }) => response.message.toolCalls?.some((call) => wanted.has(call.name)) === true,
  );
}

/** Token limits of {@link usageAbove}: any one crossed stops the loop. */
export interface UsageAboveOptions {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/**
 * Stops once the run's usage is above one of the given token counts (checked between
 * rounds; a budget that cuts a round off mid-stream is `BudgetAdvisor`).
 * @example
 * ```ts
 * import { usageAbove, ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ stopWhen: usageAbove({ totalTokens: 10_000 }) });
 * ```
 * @param limits At least one of `inputTokens`, `outputTokens`, `totalTokens`.
 * @returns The condition, labelled `usageAbove({...})`.
 */
export function usageAbove(limits: UsageAboveOptions): StopCondition {
  const count = Rules.integer(0);
  validateOptions(limits, { inputTokens: count, outputTokens: count, totalTokens: count });
  const entries = Object.entries(limits).filter(
    (entry): entry is [keyof UsageAboveOptions, number] => entry[1] !== undefined,
  );
  if (entries.length === 0) {
    throw new InvalidOptionsError({
      option: 'usageAbove(limits)',
      value: limits,
      expected: 'at least one of inputTokens, outputTokens, totalTokens',
    });
  }
  return stopCondition(`usageAbove(${JSON.stringify(limits)})`, ({ usage }) =>
    entries.some(([field, limit]) => (usage[field] ?? 0) > limit),
  );
}

/**
 * The `stopWhen` option as a list (`undefined` when none), each a function.
 * @internal
 */
export function toStopConditions(
  option: StopCondition | readonly StopCondition[] | undefined,
): readonly StopCondition[] | undefined {
  if (option === undefined) return undefined;
  const list = typeof option === 'function' ? [option] : option;
  return list.length === 0 ? undefined : list;
}

/**
 * The first condition that holds, as a stop reason; a condition that throws or returns a
 * non-boolean fails the loop with a `LoopHookError` naming `stopWhen`.
 * @internal
 */
export function firstStop(
  conditions: readonly StopCondition[] | undefined,
  response: ChatResponse,
  results: readonly ToolMessage[],
  state: ToolLoopState,
): StopConditionReason | undefined {
  if (conditions === undefined) return undefined;
  const progress: LoopProgress = {
    round: state.round,
    response,
    results,
    usage: state.usage.total,
    state,
  };
  const { round } = progress;
  for (const condition of conditions) {
    let holds: unknown;
    try {
      holds = condition(progress);
    } catch (cause) {
      throw new LoopHookError({ hook: 'stopWhen', round, cause });
    }
    if (typeof holds !== 'boolean') {
      throw new LoopHookError({ hook: 'stopWhen', round, returned: holds, expected: 'a boolean' });
    }
    if (holds) return { type: 'stop-condition', condition: labelOf(condition), round };
  }
  return undefined;
}

function labelOf(condition: StopCondition): string {
  if (typeof condition.label === 'string') return condition.label;
  return condition.name === '' ? 'custom' : condition.name;
}
