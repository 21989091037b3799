import type { FinishReason } from '../core/chat-chunk.js';
import type { LoopStopReason } from '../core/loop-stop-reason.js';
import type { LoopAnswer } from '../advisor-api/loop-answer.js';
import type { Message, ToolCall } from '../core/message.js';
import { ToolCallLimitError } from '../errors/tool-call-limit-error.js';
import type { Usage } from '../core/usage.js';
import { UsageAccumulator } from '../core/usage-accumulator.js';
import type { Tool } from '../core/tool.js';
import { toolsByName } from './unique-tools.js';

/**
 * What a `ToolCallingAdvisor` knows about one running loop (one subscription), as its
 * hooks and the eligibility checker see it.
 *
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ChatRequest, type ToolLoopState } from 'rx-advisors';
 *
 * class Logged extends ToolCallingAdvisor {
 *   protected override beforeRound(request: ChatRequest, state: ToolLoopState): ChatRequest {
 *     console.log(`round ${state.round}, ${state.usage.total.totalTokens ?? 0} tokens so far`);
 *     return request;
 *   }
 * }
 * ```
 */
export interface ToolLoopState {
  /** The current tool-loop round, counting from 1; 0 before the first (a retried round is still one round). */
  readonly round: number;
  /** Usage of the rounds finished so far. */
  readonly usage: UsageAccumulator;
  /** The assistant tool-call messages and tool results the loop added, in order. */
  readonly messages: readonly Message[];
  /** How often each tool was called so far. */
  readonly toolCallCounts: ReadonlyMap<string, number>;
  /** The call's shared context (`request.context`). */
  readonly context: Map<string, unknown>;
}

/** The mutable state behind {@link ToolLoopState}, created per subscription. @internal */
export class MutableToolLoopState implements ToolLoopState {
  round = 0;
  /** Model calls of the rounds finished so far: a round's inner retries count too. */
  modelCalls = 0;
  readonly usage = new UsageAccumulator();
  readonly messages: Message[] = [];
  readonly toolCallCounts = new Map<string, number>();
  id: string | undefined;
  model: string | undefined;
  /** A nested agent's answer this loop keeps (`LoopAnswer`), when it claimed the slot. */
  answer: LoopAnswer | undefined;
  private offered: ReadonlyMap<string, Tool> | undefined;
  private offeredFrom: readonly Tool[] | undefined;

  /**
   * @param context The call's shared context.
   * @param toolCallLimits Calls allowed per tool name (the loop's `toolCallLimits`).
   */
  constructor(
    readonly context: Map<string, unknown>,
    private readonly toolCallLimits: Readonly<Record<string, number>> = {},
  ) {}

  /** Counts a call of a tool; past its limit, a `ToolCallLimitError` (the loop's guard). */
  readonly countCall = (call: ToolCall): void => {
    const count = (this.toolCallCounts.get(call.name) ?? 0) + 1;
    this.toolCallCounts.set(call.name, count);
    const limits = this.toolCallLimits;
    const limit = Object.hasOwn(limits, call.name) ? limits[call.name] : undefined;
    if (limit !== undefined && count > limit) {
      throw new ToolCallLimitError({ toolName: call.name, limit });
    }
  };

  /** Usage a tool spent (a nested agent): part of the loop's total. */
  readonly reportUsage = (usage: Usage): void => {
    this.usage.add(usage);
  };

  /**
   * The request's tools by name; rebuilt only when a round offers a different list. Two
   * different tools with one name (an advisor added one) fail the round.
   */
  offeredTools(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
    if (this.offered === undefined || tools !== this.offeredFrom) {
      this.offered = toolsByName(tools);
      this.offeredFrom = tools;
    }
    return this.offered;
  }
}

/**
 * How a tool loop ended, as `finalizeLoop` sees and may change it.
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ToolLoopState, type ToolLoopSummary } from 'rx-advisors';
 *
 * class Audited extends ToolCallingAdvisor {
 *   protected override finalizeLoop(summary: ToolLoopSummary, state: ToolLoopState): ToolLoopSummary {
 *     console.log(`${summary.rounds} model calls, ${state.messages.length} loop messages`);
 *     return summary;
 *   }
 * }
 * ```
 */
export interface ToolLoopSummary {
  finishReason: FinishReason;
  /** Usage of every round. */
  usage: Usage;
  /** Model calls made. */
  rounds: number;
  /** The last round's response id and model. */
  id?: string;
  model?: string;
  /** Why the loop stopped before the model finished on its own (a `stopWhen` condition). */
  stopReason?: LoopStopReason;
}
