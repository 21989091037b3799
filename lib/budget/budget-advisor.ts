import { asyncScheduler, defer, map, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import {
  resolveBudgetOptions,
  type BudgetAdvisorOptions,
  type ResolvedBudgetOptions,
} from './budget-advisor-options.js';
import { BudgetMeter } from './budget-meter.js';
import { budgetModelCall } from './budget-model-call.js';
import { budgetToolCall } from './budget-tool-call.js';

/**
 * A hard budget for a run: input, output and total tokens, cost (from your price table),
 * wall time and tool calls, enforced DURING a round. It plugs into the run's seams
 * (`docs/seams.md`): its model-call interceptor counts every model call as it streams
 * (output estimated from the deltas, corrected by the usage the provider reports) and
 * cuts off the call that crosses a limit at that chunk — unsubscribing aborts the HTTP
 * request; its tool-call interceptor counts tool calls and cancels running tools. Both
 * are inherited, so validation retries, the tool loop's rounds and nested runs (an agent
 * as a tool) count against one budget. One budget per call subscription: a re-subscription
 * starts from zero.
 *
 * ```
 * model call:  --a--b--c--d--f|     c crosses maxOutputTokens
 * run:         --a--b--(c#)         # : BudgetExceededError; the request is aborted at c
 * ```
 *
 * @example
 * ```ts
 * import { BudgetAdvisor, BudgetExceededError, ChatClient } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new BudgetAdvisor({ maxOutputTokens: 2_000, maxToolCalls: 10 }))
 *   .build();
 * client.prompt('Plan my week').stream().content().subscribe({
 *   error: (error) => {
 *     if (BudgetExceededError.isInstance(error)) console.log(error.spent);
 *   },
 * });
 * ```
 */
export class BudgetAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly options: ResolvedBudgetOptions;
  /** The meter of each call (its `request.context`): retries of the chain share it. */
  private readonly meters = new WeakMap<Map<string, unknown>, BudgetMeter>();

  /** @param options The limits (at least one), prices, estimator and what happens past a limit. */
  constructor(options: BudgetAdvisorOptions) {
    this.options = resolveBudgetOptions(options);
    this.name = this.options.name;
    this.order = this.options.order;
  }

  /**
   * Registers the budget's interceptors for this call and passes the request on.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The chunks; under `onExceeded: 'finish'` the final `metadata` carries the stop reason.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const { context } = request;
      let meter = this.meters.get(context);
      if (meter === undefined) {
        meter = new BudgetMeter(this.options, () => asyncScheduler.now());
        this.meters.set(context, meter);
      }
      CallInterceptors.of(context)
        .onModelCall(this, budgetModelCall(meter), { inherit: true })
        .onToolCall(this, budgetToolCall(meter), { inherit: true });
      const chunks$ = chain.next(request);
      if (this.options.onExceeded === 'error') return chunks$;
      const stopped = meter;
      return chunks$.pipe(map((chunk) => withStopReason(chunk, stopped)));
    });
  }
}

/** The run's final `metadata` names the crossed limit (the tool loop's own does not know it). */
function withStopReason(chunk: ChatChunk, meter: BudgetMeter): ChatChunk {
  if (chunk.type !== 'metadata' || meter.exceeded === undefined || chunk.stopReason !== undefined) {
    return chunk;
  }
  const stopReason = meter.stopReason();
  return stopReason === undefined ? chunk : { ...chunk, stopReason };
}
