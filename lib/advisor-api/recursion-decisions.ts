import { defer, of, tap, type Observable } from 'rxjs';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import { UsageAccumulator } from '../core/usage-accumulator.js';
import type { Usage } from '../core/usage.js';
import { ContextKeys } from './context-keys.js';

/**
 * One decision of a recursive advisor after an attempt, as a journal keeps it: stop, or run
 * again with these messages for this reason; and the usage the decision spent (a judge).
 *
 * @example
 * ```ts
 * import type { RecordedRecursionDecision } from 'rx-advisors/advisor-api';
 * const rejected: RecordedRecursionDecision = {
 *   retry: true,
 *   reason: 'rejected by the judge (score 3)',
 *   messages: [{ role: 'user', content: 'Answer again.' }],
 * };
 * ```
 */
export interface RecordedRecursionDecision {
  /** Whether the advisor ran the chain again. */
  readonly retry: boolean;
  /** The retry's reason (its `retry` chunk's). */
  readonly reason?: string;
  /** The messages of the next attempt's request. */
  readonly messages?: readonly Message[];
  /** What deciding cost outside the chain (a judge model's usage). */
  readonly usage?: Partial<Usage>;
}

/**
 * Where a recursive advisor that records its decisions (`recordDecisions: true`, as
 * `EvaluationAdvisor` does) reads the ones a journal holds and hands the new ones: a
 * durable run ordered outside it registers one in `request.context` under
 * `ContextKeys.RECURSION_DECISIONS`. A decision the log holds is taken as it is (the judge
 * is not asked again on a replay); one it does not hold is made, then given to `record`.
 * Decisions come in the order the advisors make them, within one call.
 *
 * @example
 * ```ts partial
 * import { ContextKeys, type RecursionDecisionLog } from 'rx-advisors/advisor-api';
 * const log: RecursionDecisionLog = {
 *   recorded: (advisor, attempt) => kept.get(`${advisor}/${attempt}`),
 *   record: (advisor, attempt, decision) => void kept.set(`${advisor}/${attempt}`, decision),
 * };
 * request.context.set(ContextKeys.RECURSION_DECISIONS, log);
 * ```
 */
export interface RecursionDecisionLog {
  /**
   * The decision recorded after this attempt of this advisor, or `undefined` (decide now).
   * @param advisor The recursive advisor's name.
   * @param attempt The attempt that just ended, from 1.
   */
  recorded(advisor: string, attempt: number): RecordedRecursionDecision | undefined;
  /**
   * Keeps a decision just made.
   * @param advisor The recursive advisor's name.
   * @param attempt The attempt it was made after.
   * @param decision The decision.
   */
  record(advisor: string, attempt: number, decision: RecordedRecursionDecision): void;
}

/** The log registered in a call's context, if any. @internal */
export function recursionDecisionLog(
  context: ReadonlyMap<string, unknown>,
): RecursionDecisionLog | undefined {
  const log = context.get(ContextKeys.RECURSION_DECISIONS) as Partial<RecursionDecisionLog> | null;
  return typeof log?.recorded === 'function' && typeof log.record === 'function'
    ? (log as RecursionDecisionLog)
    : undefined;
}

/** A step to run again, as `recursiveAdvisor` takes it. @internal */
export interface LoggedStep {
  request: ChatRequest;
  reason?: string;
  delay?: number;
}

/**
 * The decision after `attempt`: the recorded one when `log` holds it (no `decide`, its usage
 * added again, no delay: it was waited), else `decide`'s, recorded.
 * @internal
 */
export function loggedDecision(
  log: RecursionDecisionLog,
  advisor: string,
  attempt: number,
  originalRequest: ChatRequest,
  addUsage: (usage: Partial<Usage>) => void,
  decide: (addUsage: (usage: Partial<Usage>) => void) => Observable<LoggedStep | undefined>,
): Observable<LoggedStep | undefined> {
  return defer(() => {
    const recorded = log.recorded(advisor, attempt);
    if (recorded !== undefined) {
      if (recorded.usage !== undefined) addUsage(recorded.usage);
      if (!recorded.retry) return of(undefined);
      const request = originalRequest.withMessages(recorded.messages ?? originalRequest.messages);
      return of(recorded.reason === undefined ? { request } : { request, reason: recorded.reason });
    }
    let spent: UsageAccumulator | undefined;
    const adding = (usage: Partial<Usage>): void => {
      (spent ??= new UsageAccumulator()).add(usage);
      addUsage(usage);
    };
    return decide(adding).pipe(
      tap((step) => {
        const decision: { -readonly [K in keyof RecordedRecursionDecision]?: unknown } = {
          retry: step !== undefined,
        };
        if (step?.reason !== undefined) decision.reason = step.reason;
        if (step !== undefined) decision.messages = step.request.messages;
        if (spent !== undefined) decision.usage = spent.total;
        log.record(advisor, attempt, decision as RecordedRecursionDecision);
      }),
    );
  });
}
