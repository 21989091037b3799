import {
  catchError,
  concat,
  concatMap,
  EMPTY,
  finalize,
  defer,
  from,
  ignoreElements,
  of,
  throwError,
  type Observable,
} from 'rxjs';
import type { Advisor, AdvisorChain } from '../../advisor-api/advisor.js';
import { CallInterceptors } from '../../advisor-api/call-interceptors.js';
import { ContextKeys } from '../../advisor-api/context-keys.js';
import type { RecursionDecisionLog } from '../../advisor-api/recursion-decisions.js';
import { Order } from '../../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../../advisor-api/validate-advisor-identity.js';
import type { ChatChunk, FinishReason, RetryChunk } from '../../core/chat-chunk.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { ToolApprovalDecision } from '../../core/tool.js';
import { UsageAccumulator } from '../../core/usage-accumulator.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { DurableRunError } from '../../errors/durable-run-error.js';
import { isRunJournal, type RunJournal } from '../run-journal.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import { Delivery } from './delivery.js';
import { DurableRunParams, type RunReplay } from './durable-run-params.js';
import { DurableRunState, type UncertainToolCallPolicy } from './durable-run-state.js';
import { modelRoundInterceptor } from './model-round-interceptor.js';
import { outbound } from './outbound.js';
import { decisionKey, RecordedRun, retryKey } from './recorded-run.js';
import { checkStartable, resumeDecisions } from './run-request.js';
import { RunWriter } from './run-writer.js';
import { detachedCopy } from '../run-record-codec.js';
import { readNowOf } from '../sync-append.js';
import { toolCallRecorder } from './tool-call-recorder.js';

/**
 * Options of {@link DurableRunAdvisor}.
 *
 * @example
 * ```ts
 * import { InMemoryRunJournal, type DurableRunAdvisorOptions } from 'rx-advisors/run';
 * const options: DurableRunAdvisorOptions = {
 *   journal: new InMemoryRunJournal(),
 *   uncertainToolCalls: 'fail',
 * };
 * ```
 */
export interface DurableRunAdvisorOptions {
  /** Where the runs are recorded: `SqliteRunJournal`, `RedisRunJournal`, `PostgresRunJournal`. */
  journal: RunJournal;
  /** The owner of calls without a `runOwner` param (a single-user app); default none: the param is required. */
  owner?: string;
  /** What a resumed run sends its new subscriber; default `'undelivered'`. A call's `runReplay` param wins. */
  replay?: RunReplay;
  /** A call of a tool that is not idempotent that may have run, on resume; default `'approve'`. */
  uncertainToolCalls?: UncertainToolCallPolicy;
  /** Makes the id of a run started without a `runId` param; default `crypto.randomUUID()`. */
  newRunId?: () => string;
  /** Default `Order.HIGHEST_PRECEDENCE`: outermost, so it sees what the caller receives. */
  order?: number;
  /** Default `'durable-run'`. */
  name?: string;
}

const DEFAULTS = {
  replay: 'undelivered',
  uncertainToolCalls: 'approve',
  newRunId: (): string => globalThis.crypto.randomUUID(),
  order: Order.HIGHEST_PRECEDENCE,
  name: 'durable-run',
} as const;

const RULES: OptionRules<DurableRunAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  journal: Rules.required(Rules.custom('a RunJournal (append, read, delete)', isRunJournal)),
  owner: Rules.nonEmptyString,
  replay: Rules.oneOf('undelivered', 'all'),
  uncertainToolCalls: Rules.oneOf('approve', 'fail'),
  newRunId: Rules.func,
};

/**
 * Makes every call it advises a durable run: each finished model round, tool outcome and
 * approval decision is appended to a {@link RunJournal}, and a call with the same `runId`
 * (from this process or any other that shares the journal) resumes the run: recorded
 * rounds are replayed without calling the model, recorded tool outcomes without running
 * the tools, the new subscriber gets only what it had not received (or everything, with
 * `runReplay: 'all'`), and the run goes on live from its first unrecorded step. A call of
 * a tool that is not idempotent that may have run is never run again silently (see
 * `uncertainToolCalls`). Add it outermost; see docs/durable-runs.md.
 *
 * ```
 * first call:  --a--b--X              (the process dies after round 1 was recorded)
 * resume:      (run)--c--d--f|        recorded round 1 replayed, unseen part sent, round 2 live
 * ```
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { DurableRunAdvisor } from 'rx-advisors/run';
 * import { SqliteRunJournal } from 'rx-advisors/run/sqlite';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new DurableRunAdvisor({ journal: new SqliteRunJournal({ path: 'runs.db' }) }))
 *   .defaultTools(searchFlights, bookFlight)
 *   .build();
 * // Start (any process):
 * client.prompt('Book the cheapest flight to Oslo').advisorParams({ runId, runOwner: userId }).stream().content();
 * // Resume after a crash (any process): same run id, no new message.
 * client.prompt().advisorParams({ runId, runOwner: userId }).stream().content();
 * ```
 */
export class DurableRunAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly options: Required<Omit<DurableRunAdvisorOptions, 'owner'>> &
    Pick<DurableRunAdvisorOptions, 'owner'>;

  /** @param options The journal, the default owner, the replay and side-effect policies. */
  constructor(options: DurableRunAdvisorOptions) {
    this.options = withDefaults(DEFAULTS, validateOptions(options, RULES));
    this.name = this.options.name;
    this.order = this.options.order;
  }

  /**
   * Starts or resumes the call's run.
   * @param request The caller's request; its `runId`/`runOwner` params name the run.
   * @param chain The rest of the chain.
   * @returns The run's chunks this subscriber has not seen, after a `run` data chunk.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const { context } = request;
      const owner = stringParam(context, DurableRunParams.RUN_OWNER) ?? this.options.owner;
      const given = stringParam(context, DurableRunParams.RUN_ID);
      const runId = given ?? this.options.newRunId();
      if (owner === undefined) {
        throw new DurableRunError({
          runId,
          reason: 'no-owner',
          message:
            'A durable run needs an owner: pass advisorParams({ runOwner }) (a user or session ' +
            'id), or the DurableRunAdvisor option owner.',
        });
      }
      const key: RunKey = { owner, runId };
      // A store that reads synchronously (in memory) is read on the spot: no Promise hop.
      const readNow = readNowOf(this.options.journal);
      if (readNow !== undefined)
        return this.run$(request, chain, key, readNow(key), given !== undefined);
      return from(this.options.journal.read(key)).pipe(
        concatMap((records) => this.run$(request, chain, key, records, given !== undefined)),
      );
    });
  }

  private run$(
    request: ChatRequest,
    chain: AdvisorChain,
    key: RunKey,
    records: readonly RunRecord[],
    given: boolean,
  ): Observable<ChatChunk> {
    const { context } = request;
    const { runId } = key;
    const recorded = records.length === 0 ? undefined : new RecordedRun(runId, records);
    let messages = request.messages;
    let resumeAt = 0;
    const decisions: ReadonlyMap<string, ToolApprovalDecision> =
      recorded === undefined ? new Map() : resumeDecisions(runId, messages, recorded);
    if (recorded === undefined) {
      checkStartable(runId, given, messages);
    } else {
      messages = recorded.started.messages;
      const replay = context.get(DurableRunParams.REPLAY) ?? this.options.replay;
      const delivered = context.get(DurableRunParams.DELIVERED);
      if (replay !== 'all') {
        resumeAt =
          Number.isInteger(delivered) && (delivered as number) >= 0
            ? (delivered as number)
            : recorded.delivered;
      }
    }
    context.set(DurableRunParams.RUN_ID, runId);
    if (recorded !== undefined) {
      context.set(ContextKeys.RUN_RESUME, recorded.completed ? 'completed' : 'continued');
    }
    const writer = new RunWriter(this.options.journal, key, records.length);
    const delivery = new Delivery(resumeAt);
    const state = new DurableRunState(
      key,
      recorded,
      writer,
      delivery,
      this.options.uncertainToolCalls,
      decisions,
    );
    context.set(ContextKeys.RECURSION_DECISIONS, decisionLog(state, recorded));
    CallInterceptors.of(context)
      .onModelCall(this, modelRoundInterceptor(state))
      .onToolCall(this, toolCallRecorder(state));
    const usage = new UsageAccumulator();
    let finish: FinishReason | undefined;
    const started$ = defer(() =>
      recorded === undefined
        ? // The caller's messages: the record keeps its own (see APPEND_NOW).
          written$(state.write({ type: 'run-started', messages: detachedCopy(messages) }))
        : EMPTY,
    );
    const announce: ChatChunk = {
      type: 'data',
      name: 'run',
      data: { runId, resumed: recorded !== undefined, from: resumeAt },
    };
    const retries = new Map(recorded?.retries);
    const body$ = defer(() => chain.next(request.withMessages(messages))).pipe(
      outbound(delivery, (chunk) => {
        if (chunk.type === 'usage') usage.add(chunk.usage);
        else if (chunk.type === 'finish') finish = chunk.reason;
        else if (chunk.type === 'retry') recordRetry(state, retries, chunk);
      }),
      // Held records are lost only with the process: a failed or unsubscribed run writes them.
      catchError((error: unknown) =>
        concat(
          defer(() => state.flush()).pipe(
            ignoreElements(),
            catchError(() => EMPTY),
          ),
          throwError(() => error),
        ),
      ),
    );
    // A run paused for approvals is not over: a resume with the decisions continues it.
    // The outcomes held for the next append ride with `run-ended`.
    const ended$ = defer(() =>
      recorded?.completed === true || finish === 'awaiting-approval'
        ? EMPTY
        : written$(state.write({ type: 'run-ended', outcome: 'completed', usage: usage.total })),
    );
    // Unsubscribed, the run writes what it held (a completed run held nothing after run-ended).
    return concat(started$, of(announce), body$, ended$).pipe(finalize(() => state.flushQuietly()));
  }
}

/**
 * Records a retry (a validation or evaluation advisor asking again) unless the journal has
 * it: a replay passes the recorded ones again, each is matched once.
 */
function recordRetry(
  state: DurableRunState,
  recorded: Map<string, number>,
  chunk: RetryChunk,
): void {
  const key = retryKey(chunk.attempt, chunk.reason);
  const left = recorded.get(key) ?? 0;
  if (left > 0) recorded.set(key, left - 1);
  else
    state.appendLater({ type: 'validation-retry', attempt: chunk.attempt, feedback: chunk.reason });
}

/**
 * The run's log of recursive advisors' decisions (an evaluation judge's verdicts): a resume
 * takes the recorded ones, so the judge is not asked again; a new one rides with the next
 * append (a crash before it asks the judge again, as a model call in flight is re-issued).
 */
function decisionLog(
  state: DurableRunState,
  recorded: RecordedRun | undefined,
): RecursionDecisionLog {
  return {
    recorded: (advisor, attempt) => recorded?.recursionDecisions.get(decisionKey(advisor, attempt)),
    record: (advisor, attempt, decision) =>
      state.appendLater({
        type: 'recursion-decision',
        advisor,
        attempt,
        decision: detachedCopy(decision),
      }),
  };
}

/** Nothing when a record is written already (a synchronous journal), else its append's end. */
const written$ = (written: Promise<void> | undefined): Observable<never> =>
  written === undefined ? EMPTY : from(written).pipe(ignoreElements());

function stringParam(context: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const value = context.get(key);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
