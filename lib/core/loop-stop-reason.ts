/**
 * Why a tool loop stopped before the model finished on its own: a `stopWhen` condition
 * held after a round, or a budget was crossed (with the budget's `onExceeded: 'finish'`).
 * Carried by the loop's final `metadata` chunk and by `ChatResponse.metadata.stopReason`;
 * absent when the model simply answered without asking for tools.
 *
 * @example
 * ```ts
 * import type { LoopStopReason } from 'rx-advisors';
 *
 * const describe = (reason: LoopStopReason): string => {
 *   switch (reason.type) {
 *     case 'stop-condition':
 *       return `stopped by ${reason.condition} after round ${reason.round}`;
 *     case 'budget-exceeded':
 *       return `budget ${reason.limit} crossed: ${reason.spent} > ${reason.max}`;
 *   }
 * };
 * ```
 */
export type LoopStopReason = StopConditionReason | BudgetExceededReason;

/**
 * A `stopWhen` condition held after a round (its tools ran; no further model call).
 * @example
 * ```ts
 * import type { StopConditionReason } from 'rx-advisors';
 * const reason: StopConditionReason = { type: 'stop-condition', condition: 'stepCountIs(3)', round: 3 };
 * ```
 */
export interface StopConditionReason {
  type: 'stop-condition';
  /** The label of the condition that held (`stepCountIs(3)`, `hasToolCall("answer")`, a function's name). */
  condition: string;
  /** The round after which it held, counting from 1. */
  round: number;
}

/**
 * A budget limit was crossed and the run was ended gracefully (no error).
 * @example
 * ```ts
 * import type { BudgetExceededReason } from 'rx-advisors';
 * const reason: BudgetExceededReason = { type: 'budget-exceeded', limit: 'outputTokens', spent: 120, max: 100 };
 * ```
 */
export interface BudgetExceededReason {
  type: 'budget-exceeded';
  /** The limit crossed: `inputTokens`, `outputTokens`, `totalTokens`, `cost`, `wallTime` or `toolCalls`. */
  limit: string;
  /** What was spent of it (tokens, cost units, milliseconds, calls) when the run was cut off. */
  spent: number;
  /** The limit's value. */
  max: number;
}
