import type { ToolMessage } from '../../core/message.js';
import type { ToolApprovalDecision } from '../../core/tool.js';
import type { RecordedRecursionDecision } from '../../advisor-api/recursion-decisions.js';
import { RunJournalError } from '../../errors/run-journal-error.js';
import type { ModelRoundRecord, RunRecord, RunStartedRecord } from '../run-record.js';

/** A retry (its attempt and feedback), as a Map key. @internal */
export const retryKey = (attempt: number, feedback: string): string =>
  `${attempt}\u0000${feedback}`;

/** A recursive advisor's attempt, as a Map key. @internal */
export const decisionKey = (advisor: string, attempt: number): string =>
  `${advisor}\u0000${attempt}`;

/** One tool call of one model round, as a Map key. */
const callKey = (round: number, toolCallId: string): string => `${round}\u0000${toolCallId}`;

/**
 * A run's records as a resume reads them: the model rounds in order, and per tool call
 * (keyed by the model round that made it and its id) its outcome, whether it started, and
 * the decision taken on it. Built once per subscription; what this subscription records
 * live is never looked up again, so it is not added.
 * @internal
 */
export class RecordedRun {
  /** The `run-started` record. */
  readonly started: RunStartedRecord;
  /** The `model-round` records, in order. */
  readonly rounds: ModelRoundRecord[] = [];
  /** The `validation-retry` records, by attempt and feedback (a count per pair). */
  readonly retries = new Map<string, number>();
  /** The `recursion-decision` records, by advisor and attempt (`decisionKey`). */
  readonly recursionDecisions = new Map<string, RecordedRecursionDecision>();
  /** Whether a `run-ended` record says the run completed. */
  readonly completed: boolean;
  /** The `delivered` count of the last record: what the caller had surely seen. */
  readonly delivered: number;
  private readonly outcomes = new Map<string, ToolMessage>();
  /** By call: the index of its last `tool-call-started` record. */
  private readonly starts = new Map<string, number>();
  /** By call: its last decision and that record's index. */
  private readonly decisions = new Map<string, { decision: ToolApprovalDecision; at: number }>();

  /**
   * @param runId The run, for errors.
   * @param records The run's records, `run-started` first.
   */
  constructor(runId: string, records: readonly RunRecord[]) {
    const first = records[0];
    if (first?.type !== 'run-started') {
      throw new RunJournalError({
        runId,
        reason: 'corrupt-record',
        index: 0,
        message:
          "Record 0 of the run's journal is not a run-started record; the run cannot be resumed from it.",
      });
    }
    this.started = first;
    let completed = false;
    records.forEach((record, index) => {
      switch (record.type) {
        case 'model-round':
          this.rounds.push(record);
          break;
        case 'tool-outcome':
          this.outcomes.set(callKey(record.round, record.message.toolCallId), record.message);
          break;
        case 'tool-call-started':
          this.starts.set(callKey(record.round, record.toolCallId), index);
          break;
        case 'approval':
          this.decisions.set(callKey(record.round, record.toolCallId), {
            decision: record.decision,
            at: index,
          });
          break;
        case 'validation-retry': {
          const key = retryKey(record.attempt, record.feedback);
          this.retries.set(key, (this.retries.get(key) ?? 0) + 1);
          break;
        }
        case 'recursion-decision':
          this.recursionDecisions.set(decisionKey(record.advisor, record.attempt), record.decision);
          break;
        case 'run-ended':
          completed = record.outcome === 'completed';
          break;
        default:
          break;
      }
    });
    this.completed = completed;
    this.delivered = records[records.length - 1].delivered;
  }

  /** Whether any call may need a decision on resume (one recorded, or one uncertain). */
  get hasDecisionsOrUncertainCalls(): boolean {
    if (this.decisions.size > 0) return true;
    for (const key of this.starts.keys()) if (!this.outcomes.has(key)) return true;
    return false;
  }

  /** The recorded outcome of a call. */
  outcome(round: number, toolCallId: string): ToolMessage | undefined {
    return this.outcomes.get(callKey(round, toolCallId));
  }

  /**
   * The decision recorded for a call, unless the call started after it: a decision taken
   * before a call that may have run is no decision on running it again.
   */
  decision(round: number, toolCallId: string): ToolApprovalDecision | undefined {
    const key = callKey(round, toolCallId);
    const found = this.decisions.get(key);
    if (found === undefined) return undefined;
    const startedAt = this.starts.get(key);
    return startedAt !== undefined && startedAt > found.at ? undefined : found.decision;
  }

  /** Whether a call started, has no outcome and no decision taken since: it may have run. */
  isUncertain(round: number, toolCallId: string): boolean {
    const key = callKey(round, toolCallId);
    if (!this.starts.has(key) || this.outcomes.has(key)) return false;
    return this.decision(round, toolCallId) === undefined;
  }
}
