import {
  catchError,
  concat,
  defaultIfEmpty,
  defer,
  EMPTY,
  filter,
  from,
  ignoreElements,
  isObservable,
  map,
  mergeMap,
  of,
  take,
  throwError,
  timer,
  type Observable,
} from 'rxjs';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import { expandRounds } from '../core/expand-rounds.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import { ResponseAssembler } from '../core/response-assembler.js';
import { UsageAccumulator } from '../core/usage-accumulator.js';
import type { Usage } from '../core/usage.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { noteModelCalls, takeModelCalls } from './model-calls-of-error.js';
import { loggedDecision, recursionDecisionLog } from './recursion-decisions.js';
import { validateRecursiveAdvisorOptions } from './validate-recursive-advisor-options.js';

/**
 * What {@link RecursiveAdvisorOptions.next} is told about the attempt that just ended.
 *
 * @example
 * ```ts
 * import { recursiveAdvisor, type RecursionState } from 'rx-advisors/advisor-api';
 * const next = ({ attempt, response, request }: RecursionState) => (response?.text === '' && attempt < 2 ? request : undefined);
 * recursiveAdvisor({ name: 'non-empty', order: 0, next });
 * ```
 */
export interface RecursionState {
  /** The request this attempt sent down the chain. */
  readonly request: ChatRequest;
  /** The first attempt's request (after `before`); retries usually derive from it. */
  readonly originalRequest: ChatRequest;
  /** The attempt that just ended, counting from 1. */
  readonly attempt: number;
  /** The attempt's aggregated response (its own usage only); `undefined` when it failed. */
  readonly response: ChatResponse | undefined;
  /** The error the attempt failed with; `undefined` when it completed. */
  readonly error: unknown;
  /** Adds usage spent outside the chain (a judge model) to the call's total. */
  readonly addUsage: (usage: Partial<Usage>) => void;
}

/**
 * Run the chain again: with this request, after `delay` ms (RxJS time), for this `reason`.
 *
 * @example
 * ```ts
 * import type { RecursionStep } from 'rx-advisors/advisor-api';
 * const step = (request: RecursionStep['request']): RecursionStep => ({ request, reason: 'empty answer', delay: 250 });
 * ```
 */
export interface RecursionStep {
  request: ChatRequest;
  /** Why the previous attempt was rejected; sent in the `retry` chunk. */
  reason?: string;
  /** Milliseconds to wait before the next attempt, on the RxJS scheduler (virtual in tests). */
  delay?: number;
}

/**
 * What `next` decides: a request (or step) to run again, or `undefined`/`null` to stop.
 * Stopping after a completed attempt ends the stream with that answer; stopping after a
 * failed attempt re-throws its error. Throwing (or erroring) fails the stream.
 *
 * @example
 * ```ts
 * import type { RecursionDecision, RecursionState } from 'rx-advisors/advisor-api';
 * const next = ({ attempt, request }: RecursionState): RecursionDecision => (attempt < 3 ? request : undefined);
 * ```
 */
export type RecursionDecision = ChatRequest | RecursionStep | undefined | null;

/**
 * Options of {@link recursiveAdvisor}.
 *
 * @example
 * ```ts
 * import { Order, recursiveAdvisor, type RecursiveAdvisorOptions } from 'rx-advisors/advisor-api';
 * const options: RecursiveAdvisorOptions = { name: 'once-more', order: Order.HIGHEST_PRECEDENCE + 100, next: () => undefined };
 * recursiveAdvisor(options);
 * ```
 */
export interface RecursiveAdvisorOptions<TRun = undefined> {
  /** A unique, readable name; also the `advisor` field of `retry` chunks. */
  name: string;
  /** Position in the chain (see `Order`). */
  order: number;
  /** Maps the request once, before the first attempt. */
  before?: (request: ChatRequest) => ChatRequest;
  /**
   * Creates the state of one run (one subscription), handed to every `next` of that run:
   * what the advisor collects over attempts, a transcript mark. Called with the first
   * attempt's request, inside the run's `defer`, so a re-subscription starts clean.
   */
  start?: (originalRequest: ChatRequest) => TRun;
  /**
   * Decides after every attempt: run again or stop. May answer now, with a Promise or with
   * an Observable (its first value counts; empty means stop).
   */
  next: (
    state: RecursionState,
    run: TRun,
  ) => RecursionDecision | PromiseLike<RecursionDecision> | Observable<RecursionDecision>;
  /**
   * Whether decisions after completed attempts go through the call's `RecursionDecisionLog`
   * (set by a journal): a recorded one is taken without `next` (a judge). Default `false`.
   */
  recordDecisions?: boolean;
}

class AttemptEnd {
  constructor(
    readonly step: RecursionStep | undefined,
    readonly attempt: number,
  ) {}
}

/**
 * The building block of advisors that re-run the rest of the chain (validation retries,
 * provider retries, evaluation loops): `defer` + `expand`, one attempt per `chain.next`.
 *
 * Outbound: each attempt's chunks stream through as they come, except `usage`,
 * `metadata` and `finish`; before each further attempt a `retry` chunk
 * `{ type: 'retry', attempt, reason, advisor, delay? }` tells clients to drop what they showed;
 * the stream ends with one `metadata` (`rounds`: model calls over all attempts, the
 * failed ones included), one `usage` (the total) and one `finish` (the last attempt's
 * reason). When it gives up on a failed attempt, the error it re-throws carries its model
 * calls to a recursive advisor further out. State is per subscription.
 *
 * ```
 * attempt 1:  -a-f|                 a: text-delta, f: finish
 * attempt 2:        -b-f|
 * result:     -a---r--b--(muf|)     r: retry, m: metadata { rounds: 2 }, u: usage, f: finish
 * ```
 *
 * @example
 * ```ts
 * import { Order, recursiveAdvisor } from 'rx-advisors/advisor-api';
 *
 * const nonEmpty = recursiveAdvisor({
 *   name: 'non-empty',
 *   order: Order.HIGHEST_PRECEDENCE + 100,
 *   next: ({ response, request, attempt }) =>
 *     response !== undefined && response.text === '' && attempt < 3
 *       ? { request, reason: 'empty answer' }
 *       : undefined,
 * });
 * ```
 * @param options Name, order, `before`, `start` and `next`.
 * @returns An advisor.
 */
export function recursiveAdvisor<TRun = undefined>(
  options: RecursiveAdvisorOptions<TRun>,
): Advisor {
  const { name, order, before, start, next, recordDecisions = false } = options;
  validateRecursiveAdvisorOptions({ name, order, start, next });
  return {
    name,
    order,
    advise: (request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> =>
      defer(() => {
        const originalRequest = before === undefined ? request : before(request);
        const run = start === undefined ? (undefined as TRun) : start(originalRequest);
        const log = recordDecisions ? recursionDecisionLog(request.context) : undefined;
        const usage = new UsageAccumulator();
        const addUsage = (extra: Partial<Usage>): void => void usage.add(extra);
        let rounds = 0;
        let id: string | undefined;
        let model: string | undefined;
        let finishReason: FinishReason = 'other';

        const runAttempt = (attemptRequest: ChatRequest, attempt: number) =>
          defer(() => {
            const assembler = new ResponseAssembler();
            let attemptRounds: number | undefined;
            let failed = false;
            let failure: unknown;
            // Usage, metadata and finish stay inside: the advisor reports totals at the end.
            const passOutward = (chunk: ChatChunk): boolean => {
              assembler.add(chunk);
              switch (chunk.type) {
                case 'usage':
                  usage.add(chunk.usage);
                  return false;
                case 'metadata':
                  if (chunk.id !== undefined) id = chunk.id;
                  if (chunk.model !== undefined) model = chunk.model;
                  if (chunk.rounds !== undefined) attemptRounds = chunk.rounds;
                  return false;
                case 'finish':
                  return false;
                default:
                  return true;
              }
            };
            const chunks$ = chain.next(attemptRequest).pipe(
              filter(passOutward),
              // Caught per attempt, never on the long-lived outer stream: `next` decides.
              catchError((error: unknown) => {
                failed = true;
                failure = error;
                return EMPTY;
              }),
            );
            const end$ = defer(() => {
              // A failed attempt sent no metadata: an advisor inside may have noted its count.
              rounds += failed ? takeModelCalls(failure) : (attemptRounds ?? 1);
              const response = failed ? undefined : assembler.build();
              if (response !== undefined) finishReason = response.finishReason;
              const decide = (adding: RecursionState['addUsage']) => {
                const state: RecursionState = {
                  request: attemptRequest,
                  originalRequest,
                  attempt,
                  response,
                  error: failure,
                  addUsage: adding,
                };
                return toObservable(next(state, run)).pipe(take(1), defaultIfEmpty(undefined));
              };
              const decision$ =
                log === undefined || failed
                  ? decide(addUsage)
                  : loggedDecision(log, name, attempt, originalRequest, addUsage, decide);
              return decision$.pipe(
                mergeMap((step) => {
                  if (step === undefined && failed) {
                    noteModelCalls(failure, rounds);
                    return throwError(() => failure);
                  }
                  return of(new AttemptEnd(step, attempt));
                }),
              );
            });
            return concat(chunks$, end$);
          });

        const attempts$: Observable<ChatChunk> = runAttempt(originalRequest, 1).pipe(
          expandRounds(isAttemptEnd, (end) => {
            if (end.step === undefined) return EMPTY;
            const { step, attempt } = end;
            const retry: ChatChunk = {
              type: 'retry',
              attempt: attempt + 1,
              reason: step.reason ?? 'retry',
              advisor: name,
            };
            if (step.delay) retry.delay = step.delay;
            const wait$ = step.delay ? timer(step.delay).pipe(ignoreElements()) : EMPTY;
            return concat(of(retry), wait$, runAttempt(step.request, attempt + 1));
          }),
        );
        return concat(
          attempts$,
          defer(() => {
            const metadata: ChatChunk = { type: 'metadata', rounds };
            if (id !== undefined) metadata.id = id;
            if (model !== undefined) metadata.model = model;
            return of<ChatChunk[]>(
              metadata,
              { type: 'usage', usage: usage.total },
              { type: 'finish', reason: finishReason },
            );
          }),
        );
      }),
  };
}

const isAttemptEnd = (value: ChatChunk | AttemptEnd): value is AttemptEnd =>
  value instanceof AttemptEnd;

function toObservable(
  decision: RecursionDecision | PromiseLike<RecursionDecision> | Observable<RecursionDecision>,
): Observable<RecursionStep | undefined> {
  if (isObservable(decision)) return decision.pipe(map(toStep));
  if (isPromiseLike<RecursionDecision>(decision)) return from(decision).pipe(map(toStep));
  return of(toStep(decision));
}

function toStep(decision: RecursionDecision): RecursionStep | undefined {
  if (decision === undefined || decision === null) return undefined;
  if (decision instanceof ChatRequest) return { request: decision };
  return decision;
}
