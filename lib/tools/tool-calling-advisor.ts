import { defer, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { claimLoopAnswer } from '../advisor-api/loop-answer.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { Message, ToolCall, ToolMessage } from '../core/message.js';
import {
  resolveToolCallingAdvisorOptions,
  type ResolvedToolCallingAdvisorOptions,
  type ToolCallingAdvisorOptions,
} from './tool-calling-advisor-options.js';
import { describeToolError } from './tool-execution.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import { ToolLoopRun } from './tool-loop-run.js';
import {
  MutableToolLoopState,
  type ToolLoopState,
  type ToolLoopSummary,
} from './tool-loop-state.js';

const MARKER = Symbol.for('rx-advisors.advisor.ToolCallingAdvisor');

/**
 * The tool-calling loop as an advisor. A round is `chain.next(request)`; when the round
 * ends with tool calls the eligibility checker accepts, the tools run and the next round
 * is expanded from the request plus the assistant tool-call message and the tool results.
 * Advisors ordered after it run once per round and see every raw chunk; outbound go the
 * text and reasoning of every round, then one `metadata` (with `rounds`), one `usage`
 * (the total) and one `finish`.
 *
 * ```
 * round 1: --t--c--f|                t: text-delta, c: tool-call, f: finish('tool-calls')
 * tools:            (r|)             r: the tool result, sent in round 2's request
 * round 2:           --a--b--f|      a, b: text-delta
 * result:  --t--------a--b--(muf|)   m: metadata { rounds: 2 }, u: usage (total), f: finish('stop')
 * ```
 *
 * @example
 * ```ts
 * import { ChatClient, ToolCallingAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: 5, emitToolEvents: true }))
 *   .defaultTools(getTime)
 *   .build();
 * client.prompt('What time is it in Paris?').stream().content().subscribe(console.log);
 * ```
 */
export class ToolCallingAdvisor implements Advisor {
  readonly name: string;
  /** The tool loop role (`isToolLoop`): a ChatClient adds no second loop to this call. */
  readonly runsToolLoop = true as const;
  readonly order: number;
  /** The options in effect, defaults applied. */
  protected readonly options: ResolvedToolCallingAdvisorOptions;
  /** The protected hooks below, as the loop calls them (so subclasses' overrides count). */
  private readonly hooks: ToolLoopHooks = {
    beforeRound: (request, state) => this.beforeRound(request, state),
    afterRound: (response, state) => this.afterRound(response, state),
    isEligible: (response, state) => this.isEligible(response, state),
    nextRoundMessages: (request, response, results, state) =>
      this.nextRoundMessages(request, response, results, state),
    toolErrorContent: (error, call, state) => this.toolErrorContent(error, call, state),
    finalizeLoop: (summary, state) => this.finalizeLoop(summary, state),
  };

  /** @param options Limits, concurrency, eligibility, history, events and error policy. */
  constructor(options: ToolCallingAdvisorOptions = {}) {
    // A subclass may take options of its own: only near misses of ours are refused then.
    this.options = resolveToolCallingAdvisorOptions(
      options,
      new.target === ToolCallingAdvisor ? 'refuse' : 'typos',
    );
    this.order = this.options.order;
    this.name = this.options.name;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /**
   * Whether `value` is a `ToolCallingAdvisor` (or a subclass), even from another copy of
   * the package.
   * @param value Any value.
   * @returns `true` for tool calling advisors.
   */
  static isInstance(value: unknown): value is ToolCallingAdvisor {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[MARKER] === true
    );
  }

  /**
   * Runs the loop for one call.
   * @param request The request as the outer advisors left it.
   * @param chain The advisors inside the loop, then the model.
   * @returns The outbound chunks.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const state = new MutableToolLoopState(request.context, this.options.toolCallLimits);
      const first = this.initializeLoop(request, state);
      // A nested agent's answer, kept here when this loop is its call's head and sends
      // every text delta as it comes (the 'drop' preamble holds some back).
      if (this.options.preamble !== 'drop') state.answer = claimLoopAnswer(request, this);
      return new ToolLoopRun(chain, this.options, this.hooks, state).run(first);
    });
  }

  /**
   * Hook: runs once per subscription, before the first round.
   * @param request The incoming request.
   * @param state The new loop's state.
   * @returns The request of the first round.
   */
  protected initializeLoop(request: ChatRequest, _state: ToolLoopState): ChatRequest {
    return request;
  }

  /**
   * Hook: runs before every model call; may change the request, for example offer other
   * tools (progressive disclosure). Messages it adds stay in later rounds, since the next
   * round is built from the request this returns.
   * @param request The round's request.
   * @param state The loop state; `state.round` is the round about to run.
   * @returns The request to send.
   */
  protected beforeRound(request: ChatRequest, _state: ToolLoopState): ChatRequest {
    return request;
  }

  /**
   * Hook: runs after every model call, with the round's assembled response.
   * @param response The round's response (its own usage, tool calls, finish reason).
   * @param state The loop state.
   * @returns The response the loop goes on with.
   */
  protected afterRound(response: ChatResponse, _state: ToolLoopState): ChatResponse {
    return response;
  }

  /**
   * Hook: whether the round's tools run and another round follows. Default: the
   * `eligibility` option, else whether the response has tool calls.
   * @param response The round's response.
   * @param state The loop state.
   * @returns `true` to run the tools.
   */
  protected isEligible(response: ChatResponse, state: ToolLoopState): boolean {
    const { eligibility } = this.options;
    if (eligibility !== undefined) return eligibility(response, state);
    return (response.message.toolCalls?.length ?? 0) > 0;
  }

  /**
   * Hook: the messages of the next round. Default with `conversationHistory`: everything
   * so far plus the assistant tool-call message and the results; without: the system
   * messages and the results.
   * @param request The round's request.
   * @param response The round's response.
   * @param results The tool results, in call order.
   * @param state The loop state.
   * @returns The next round's messages.
   */
  protected nextRoundMessages(
    request: ChatRequest,
    response: ChatResponse,
    results: readonly ToolMessage[],
    _state: ToolLoopState,
  ): readonly Message[] {
    if (this.options.conversationHistory) {
      return [...request.messages, response.message, ...results];
    }
    return [...request.messages.filter((message) => message.role === 'system'), ...results];
  }

  /**
   * Hook: the text the model sees for a failed tool call (policy `report`).
   * @param error What went wrong (`ToolArgumentsError`, `ToolNotFoundError`, ...).
   * @param call The failed call.
   * @param state The loop state.
   * @returns The error tool result's content.
   */
  protected toolErrorContent(error: unknown, _call: ToolCall, _state: ToolLoopState): string {
    return describeToolError(error);
  }

  /**
   * Hook: runs once when the loop ends normally, before the final chunks.
   * @param summary Finish reason, total usage, rounds, last id and model.
   * @param state The loop state.
   * @returns The summary to emit.
   */
  protected finalizeLoop(summary: ToolLoopSummary, _state: ToolLoopState): ToolLoopSummary {
    return summary;
  }
}
