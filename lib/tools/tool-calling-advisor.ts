import {
  concat,
  defer,
  EMPTY,
  filter,
  from,
  ignoreElements,
  isObservable,
  map,
  of,
  type Observable,
} from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor/advisor.js';
import { ContextKeys } from '../advisor/context-keys.js';
import { expandSteps } from '../core/expand-steps.js';
import { filterThen } from '../core/filter-then.js';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { Message, ToolCall, ToolMessage } from '../core/message.js';
import { ToolCallLimitError } from '../errors/tool-call-limit-error.js';
import { ToolLoopLimitError } from '../errors/tool-loop-limit-error.js';
import { describeToolError } from './execute-tool-calls.js';
import { finalChunks, toToolResultChunk } from './loop-chunks.js';
import { RoundAssembly } from './round-assembly.js';
import type { RunToolCallOptions } from './run-tool-call.js';
import { startToolCalls } from './start-tool-calls.js';
import type { Tool } from './tool.js';
import {
  resolveToolCallingAdvisorOptions,
  type ResolvedToolCallingAdvisorOptions,
  type ToolCallingAdvisorOptions,
} from './tool-calling-advisor-options.js';
import {
  MutableToolLoopState,
  type ToolLoopState,
  type ToolLoopSummary,
} from './tool-loop-state.js';

const MARKER = Symbol.for('rx-advisors.advisor.ToolCallingAdvisor');

/** Starts the next step of the loop; travels through `expand` next to the chunks. */
class LoopStep {
  constructor(readonly next$: Observable<LoopItem>) {}
}

type LoopItem = ChatChunk | LoopStep;

/** A round whose model call asked for tools, on its way to the next round. */
interface ToolRound {
  readonly request: ChatRequest;
  readonly chain: AdvisorChain;
  readonly state: MutableToolLoopState;
  readonly response: ChatResponse;
  readonly calls: readonly ToolCall[];
  readonly offered: ReadonlyMap<string, Tool>;
  readonly returnDirect: boolean;
}

const roundEnd = (round: number, finishReason: FinishReason): ChatChunk => ({
  type: 'round-end',
  round,
  finishReason,
});
const isChunk = (item: LoopItem): item is ChatChunk => !(item instanceof LoopStep);
const project = (item: LoopItem): Observable<LoopItem> =>
  item instanceof LoopStep ? item.next$ : EMPTY;

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
  readonly name: string = 'ToolCallingAdvisor';
  readonly order: number;
  /** The options in effect, defaults applied. */
  protected readonly options: ResolvedToolCallingAdvisorOptions;

  /** @param options Limits, concurrency, eligibility, history, events and error policy. */
  constructor(options: ToolCallingAdvisorOptions = {}) {
    this.options = resolveToolCallingAdvisorOptions(options);
    this.order = this.options.order;
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
      const state = new MutableToolLoopState(request.context);
      const first = this.initializeLoop(request, state);
      return this.round$(first, chain, state).pipe(expandSteps(project), filter(isChunk));
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

  private round$(
    base: ChatRequest,
    chain: AdvisorChain,
    state: MutableToolLoopState,
  ): Observable<LoopItem> {
    return defer(() => {
      const round = ++state.round;
      const request = this.beforeRound(base, state);
      const assembly = new RoundAssembly(this.options.emitToolEvents, this.options.preamble);
      const body$ = filterThen<ChatChunk, LoopItem>(chain.next(request), assembly.forward, () =>
        this.endRound(request, chain, state, assembly),
      );
      return this.options.emitToolEvents
        ? concat(of<ChatChunk>({ type: 'round-start', round }), body$)
        : body$;
    });
  }

  private endRound(
    request: ChatRequest,
    chain: AdvisorChain,
    state: MutableToolLoopState,
    assembly: RoundAssembly,
  ): LoopItem[] | Observable<LoopItem> {
    const response = this.afterRound(assembly.assembler.build(), state);
    state.usage.add(response.usage);
    if (response.metadata.id !== undefined) state.id = response.metadata.id;
    if (response.metadata.model !== undefined) state.model = response.metadata.model;
    const { emitToolEvents } = this.options;
    if (!this.isEligible(response, state)) {
      const out: ChatChunk[] = assembly.held ?? [];
      if (emitToolEvents) out.push(roundEnd(state.round, response.finishReason));
      for (const chunk of this.loopEnd(state, response.finishReason)) out.push(chunk);
      return out;
    }
    const calls = response.message.toolCalls ?? [];
    const offered = state.offeredTools(request.tools);
    const returnDirect =
      calls.length > 0 && calls.every((call) => offered.get(call.name)?.returnDirect === true);
    if (!returnDirect && state.round >= this.options.maxRounds) {
      throw new ToolLoopLimitError({ rounds: state.round, maxRounds: this.options.maxRounds });
    }
    const round: ToolRound = { request, chain, state, response, calls, offered, returnDirect };
    if (!emitToolEvents) return this.tools$(round);
    // Calls the model sent only as deltas are announced once complete.
    const announced: ChatChunk[] = assembly.sawToolCall
      ? []
      : calls.map((call): ChatChunk => ({ type: 'tool-call', ...call }));
    announced.push(roundEnd(state.round, response.finishReason));
    // The events go out before any tool starts.
    return concat(
      from(announced),
      defer(() => {
        const next = this.tools$(round);
        return isObservable(next) ? next : from(next);
      }),
    );
  }

  /** Runs the round's tools; what follows is the next round, or the end of the loop. */
  private tools$(round: ToolRound): LoopItem[] | Observable<LoopItem> {
    const { request, state, calls, offered } = round;
    const run: RunToolCallOptions = {
      tools: offered,
      values: request.toolContext,
      round: state.round,
      timeout: this.options.toolTimeout,
      onToolError: this.options.onToolError,
      errorContent: (error, call) => this.toolErrorContent(error, call, state),
      guard: (call) => this.countCall(call, state),
    };
    const { results, finished, rest$ } = startToolCalls(calls, run, this.options.concurrency);
    const { emitToolEvents } = this.options;
    const out: LoopItem[] = [];
    if (emitToolEvents) for (let i = 0; i < finished; i++) out.push(toToolResultChunk(results[i]));
    if (rest$ === undefined) {
      // Every tool answered at once: the round emits `out` as it is, with no subscription.
      for (const item of this.afterTools(round, results)) out.push(item);
      return out;
    }
    const events$: Observable<LoopItem> = emitToolEvents
      ? rest$.pipe(map(toToolResultChunk))
      : rest$.pipe(ignoreElements());
    return concat(
      from(out),
      events$,
      defer(() => from(this.afterTools(round, results))),
    );
  }

  /** Records the round and returns the next step, or the return-direct answer and the end. */
  private afterTools(round: ToolRound, results: readonly ToolMessage[]): LoopItem[] {
    const { request, chain, state, response, returnDirect } = round;
    // One array per loop run, published once and grown every round: readers that need a
    // snapshot slice it (memory does, when the stream completes).
    if (state.messages.length === 0)
      request.context.set(ContextKeys.TOOL_LOOP_MESSAGES, state.messages);
    state.messages.push(response.message, ...results);
    if (returnDirect && results.every((result) => result.isError !== true)) {
      const text: ChatChunk = {
        type: 'text-delta',
        text: results.map((result) => result.content).join('\n'),
      };
      return [text, ...this.loopEnd(state, 'return-direct')];
    }
    const messages = this.nextRoundMessages(request, response, results, state);
    return [new LoopStep(this.round$(request.withMessages(messages), chain, state))];
  }

  private countCall(call: ToolCall, state: MutableToolLoopState): void {
    const count = (state.toolCallCounts.get(call.name) ?? 0) + 1;
    state.toolCallCounts.set(call.name, count);
    const limits = this.options.toolCallLimits;
    const limit = Object.hasOwn(limits, call.name) ? limits[call.name] : undefined;
    if (limit !== undefined && count > limit) {
      throw new ToolCallLimitError({ toolName: call.name, limit });
    }
  }

  private loopEnd(state: MutableToolLoopState, finishReason: FinishReason): ChatChunk[] {
    const initial: ToolLoopSummary = {
      finishReason,
      usage: state.usage.total,
      rounds: state.round,
    };
    if (state.id !== undefined) initial.id = state.id;
    if (state.model !== undefined) initial.model = state.model;
    return finalChunks(this.finalizeLoop(initial, state));
  }
}
