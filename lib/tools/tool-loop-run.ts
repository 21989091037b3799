import { concat, concatMap, defer, from, Observable, of } from 'rxjs';
import type { AdvisorChain } from '../advisor-api/advisor.js';
import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import { noteModelCalls, takeModelCalls } from '../advisor-api/model-calls-of-error.js';
import { expandRounds } from '../core/expand-rounds.js';
import { filterThen } from '../core/filter-then.js';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { LoopStopReason } from '../core/loop-stop-reason.js';
import type { ToolMessage } from '../core/message.js';
import { ToolLoopTranscript } from '../core/tool-loop-transcript.js';
import { ToolLoopLimitError } from '../errors/tool-loop-limit-error.js';
import { TooManyToolCallsError } from '../errors/too-many-tool-calls-error.js';
import { finalChunks, returnDirectText, toToolResultChunk } from './loop-chunks.js';
import { RoundAssembly } from './round-assembly.js';
import {
  asObservable,
  isLoopStep,
  LoopStep,
  roundEndChunk,
  type LoopItem,
  type RoundEnd,
} from './round-end.js';
import { startToolCalls } from './start-tool-calls.js';
import { toolEventsThen } from './tool-events-then.js';
import { firstStop } from './stop-conditions.js';
import { prepareRequest } from './prepare-round.js';
import { roundInterceptors } from './repair-tool-call.js';
import type { Tool } from '../core/tool.js';
import { resumeApprovals, resumedRound } from './approval-resume.js';
import {
  ApprovalOutcome,
  approveToolCalls,
  mayNeedApproval,
  mergeResults,
} from './tool-approval.js';
import type { ResolvedToolCallingAdvisorOptions } from './tool-calling-advisor-options.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import type { ToolRound } from './tool-round.js';
import type { MutableToolLoopState, ToolLoopSummary } from './tool-loop-state.js';
import { renameRepeatedIds } from './unique-tool-call-ids.js';

const keepNone = (): boolean => false;
const keepAll = (): boolean => true;

/**
 * One run of the tool loop (one subscription of `ToolCallingAdvisor.advise`): a round is
 * `filterThen(chain.next(request), forward, endRound)`, that is
 * `concat(chain.next(request).pipe(filter(forward)), defer(endRound))` in one
 * subscription, and rounds follow each other through `expandRounds`. A round that fails
 * (the model, an inner advisor, the round's assembly) fails the stream before its end
 * runs, so its tools never run.
 * @internal
 * @example
 * ```ts
 * new ToolLoopRun(chain, options, hooks, state).run(request).subscribe(console.log);
 * ```
 */
export class ToolLoopRun {
  private transcript: ToolLoopTranscript | undefined;

  constructor(
    private readonly chain: AdvisorChain,
    private readonly options: ResolvedToolCallingAdvisorOptions,
    private readonly hooks: ToolLoopHooks,
    private readonly state: MutableToolLoopState,
  ) {}

  /**
   * The loop's outbound chunks, from the first round on.
   * @param first The first round's request.
   * @returns Every round's outbound chunks, then the final metadata, usage and finish.
   */
  run(first: ChatRequest): Observable<ChatChunk> {
    return this.start$(first).pipe(expandRounds(isLoopStep, (step) => this.round$(step.request)));
  }

  /** The first round, or the round paused in an earlier request, resumed with its decisions. */
  private start$(first: ChatRequest): Observable<LoopItem> {
    const { state } = this;
    const resume = resumeApprovals(first.messages, (name) =>
      state.offeredTools(first.tools).has(name),
    );
    if (resume === undefined) return this.round$(first);
    const request = first.withMessages(resume.messages);
    if (resume.paused === undefined) return this.round$(request);
    const round = resumedRound(request, resume.paused, state.offeredTools(request.tools));
    return defer(() => asObservable(this.tools$(round)));
  }

  private round$(base: ChatRequest): Observable<LoopItem> {
    // `defer`, and `concat(of(roundStart), body$)` in one: no `concat` hop per chunk.
    return new Observable<LoopItem>((subscriber) => {
      const { state } = this;
      const round = ++state.round;
      const request = this.hooks.beforeRound(base, state);
      const { prepareRound } = this.options;
      // Prepared for this round only: the next round is built from `request`.
      const sent =
        prepareRound === undefined ? request : prepareRequest(request, prepareRound, state);
      const assembly = new RoundAssembly(this.options.emitToolEvents, this.options.preamble);
      const body$ = filterThen<ChatChunk, LoopItem>(
        this.chain.next(sent),
        assembly.forward,
        () => this.endRound(request, assembly, sent.tools),
        this.roundFailed,
      );
      if (this.options.emitToolEvents) subscriber.next({ type: 'round-start', round });
      // The subscriber itself, as `defer` passes it: no wrapper per chunk.
      if (!subscriber.closed) body$.subscribe(subscriber);
    });
  }

  private endRound(
    request: ChatRequest,
    assembly: RoundAssembly,
    tools: readonly Tool[],
  ): RoundEnd {
    const { state, hooks, options } = this;
    const built = assembly.assembler.build();
    state.answer?.addRound(built.text, assembly.cleared);
    const renamed = renameRepeatedIds(built);
    // A round is one model call, or more when a recursive advisor inside retried it.
    state.modelCalls += built.metadata.rounds;
    const response = hooks.afterRound(built, state);
    state.usage.add(response.usage);
    if (response.metadata.id !== undefined) state.id = response.metadata.id;
    if (response.metadata.model !== undefined) state.model = response.metadata.model;
    const { emitToolEvents } = options;
    if (!hooks.isEligible(response, state)) {
      const out: ChatChunk[] = assembly.held ?? [];
      if (emitToolEvents) out.push(roundEndChunk(state.round, response.finishReason));
      for (const chunk of this.loopEnd(response.finishReason)) out.push(chunk);
      return out;
    }
    const toolCalls = response.message.toolCalls ?? [];
    const offered = state.offeredTools(tools);
    const returnDirect =
      toolCalls.length > 0 &&
      toolCalls.every((call) => offered.get(call.name)?.returnDirect === true);
    if (!returnDirect && state.round >= options.maxRounds) {
      throw new ToolLoopLimitError({ rounds: state.round, maxRounds: options.maxRounds });
    }
    const { held } = assembly;
    const round: ToolRound = { request, response, calls: toolCalls, offered, returnDirect, held };
    if (!emitToolEvents) return this.tools$(round);
    // Calls the model sent only as deltas, or under a repeated id, are announced now.
    const unannounced = assembly.sawToolCall ? renamed : toolCalls;
    const announced = unannounced.map((call): ChatChunk => ({ type: 'tool-call', ...call }));
    announced.push(roundEndChunk(state.round, response.finishReason));
    // The events go out before any tool starts. filterThen, not `concat`: one subscriber
    // hop fewer on every value of a long-running tool (a nested agent's chunks).
    return filterThen<ChatChunk, LoopItem>(from(announced), keepAll, () => this.tools$(round));
  }

  /** Asks for the approvals the round needs (if any), then runs its tools. */
  private tools$(round: ToolRound): RoundEnd {
    const { calls, offered, request } = round;
    const { state, options } = this;
    const { resumed } = round;
    const interceptors = CallInterceptors.toolCallInterceptors(state.context);
    if (
      resumed === undefined &&
      !mayNeedApproval(calls, offered, options.requireApproval, interceptors)
    ) {
      return this.runTools(round);
    }
    const limit = options.maxToolCallsPerRound;
    if (calls.length > limit) {
      throw new TooManyToolCallsError({ calls: calls.length, limit, round: state.round });
    }
    const gate = {
      tools: offered,
      values: request.toolContext,
      round: state.round,
      requirement: options.requireApproval,
      approve: options.approve,
      state,
      decided: resumed?.decisions,
      answered: resumed?.answered,
      interceptors,
      context: state.context,
    };
    return approveToolCalls(calls, gate).pipe(
      concatMap((item): Observable<LoopItem> => {
        if (!(item instanceof ApprovalOutcome)) return of(item);
        if (item.pending.length > 0) return from(this.pause(round));
        return asObservable(this.runTools(round, item.denials));
      }),
    );
  }

  /** Ends the loop at a round whose calls wait for decisions: no tool of it runs. */
  private pause(round: ToolRound): ChatChunk[] {
    const { state } = this;
    // A resumed round still waiting: its message is in the conversation already.
    if (round.resumed === undefined) {
      state.messages.push(round.response.message);
      this.transcriptOf().append(state, [round.response.message]);
    }
    return this.loopEnd('awaiting-approval');
  }

  /**
   * Runs the round's tools (but the denied ones, answered with their denial); what
   * follows is the next round, or the end of the loop.
   */
  private runTools(round: ToolRound, denials?: ReadonlyMap<string, ToolMessage>): RoundEnd {
    const { state, options } = this;
    const calls =
      denials === undefined || denials.size === 0
        ? round.calls
        : round.calls.filter((call) => !denials.has(call.id));
    const merge = (run: readonly ToolMessage[]): readonly ToolMessage[] =>
      calls === round.calls ? run : mergeResults(round.calls, run, denials);
    const { aroundCall, aroundExecute } = roundInterceptors(round, state, options);
    const { results, finished, rest$, lone } = startToolCalls(calls, {
      tools: round.offered,
      values: round.request.toolContext,
      round: state.round,
      timeout: options.toolTimeout,
      concurrency: options.concurrency,
      maxToolCallsPerRound: options.maxToolCallsPerRound,
      onToolError: options.onToolError,
      errorContent: (error, call) => this.hooks.toolErrorContent(error, call, state),
      guard: state.countCall,
      aroundCall,
      aroundExecute,
      callContext: state.context,
      reportUsage: state.reportUsage,
      emitProgress: options.emitToolEvents,
    });
    const { emitToolEvents } = options;
    const out: LoopItem[] = [];
    if (emitToolEvents && denials !== undefined) {
      for (const denial of denials.values()) out.push(toToolResultChunk(denial));
    }
    if (emitToolEvents) for (let i = 0; i < finished; i++) out.push(toToolResultChunk(results[i]));
    if (rest$ === undefined) {
      // Every tool answered at once: no subscription but the array's.
      for (const item of this.afterTools(round, merge(results))) out.push(item);
      return out;
    }
    const next = (): LoopItem[] => this.afterTools(round, merge(results));
    // Nothing of `rest$` passes `keepNone`: only what `next` returns goes on.
    if (!emitToolEvents) return filterThen(rest$, keepNone, next) as Observable<LoopItem>;
    // A lone pending call's result stored by the same subscriber: a hop fewer per value.
    const store = (message: ToolMessage): void => void (results[finished] = message);
    const events$ = lone ? toolEventsThen(lone, next, store) : toolEventsThen(rest$, next);
    return out.length === 0 ? events$ : concat(from(out), events$);
  }

  /** Records the round and returns the next step, or the return-direct answer and the end. */
  private afterTools(round: ToolRound, results: readonly ToolMessage[]): LoopItem[] {
    const { request, response, returnDirect } = round;
    const { state } = this;
    // One by one: a spread of a huge round into push() would overflow the stack.
    const transcript = this.transcriptOf();
    // A resumed round's message was recorded by the request that paused it.
    if (round.resumed === undefined) {
      state.messages.push(response.message);
      transcript.append(state, [response.message]);
    }
    for (const result of results) state.messages.push(result);
    transcript.append(state, results);
    if (returnDirect && results.every((result) => result.isError !== true)) {
      return [returnDirectText(results, state.answer), ...this.loopEnd('return-direct')];
    }
    const stop = firstStop(this.options.stopWhen, response, results, state);
    // Under preamble 'drop' the round a condition stops at is the last: its text goes out.
    if (stop) return [...(round.held ?? []), ...this.loopEnd(response.finishReason, stop)];
    const messages = this.hooks.nextRoundMessages(request, response, results, state);
    return [new LoopStep(request.withMessages(messages))];
  }

  private transcriptOf(): ToolLoopTranscript {
    return (this.transcript ??= ToolLoopTranscript.of(this.state.context));
  }

  /**
   * A round's model call (or an advisor inside the loop) failed: the error carries the
   * loop's model calls, that round's included, to a recursive advisor outside the loop.
   */
  private readonly roundFailed = (err: unknown): void => {
    noteModelCalls(err, this.state.modelCalls + takeModelCalls(err));
  };

  private loopEnd(finishReason: FinishReason, stopReason?: LoopStopReason): ChatChunk[] {
    const { state } = this;
    const initial: ToolLoopSummary = {
      finishReason,
      usage: state.usage.total,
      rounds: state.modelCalls,
    };
    if (stopReason !== undefined) initial.stopReason = stopReason;
    if (state.id !== undefined) initial.id = state.id;
    if (state.model !== undefined) initial.model = state.model;
    return finalChunks(this.hooks.finalizeLoop(initial, state));
  }
}
