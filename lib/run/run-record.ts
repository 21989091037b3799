import type { FinishReason } from '../core/chat-chunk.js';
import type { AssistantMessage, Message, ToolMessage } from '../core/message.js';
import type { ToolApprovalDecision } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
import type { RecordedRecursionDecision } from '../advisor-api/recursion-decisions.js';

/**
 * What every record carries: how many chunks the caller had received when it was written,
 * so a resumed run emits to a new subscriber only what the old one had not seen.
 *
 * @example
 * ```ts
 * import type { RunRecordBase } from 'rx-advisors/run';
 * const base: RunRecordBase = { delivered: 12 };
 * ```
 */
export interface RunRecordBase {
  /** Chunks emitted to the caller before this record was written. */
  readonly delivered: number;
}

/**
 * The run began: the messages it was asked with (so another instance can resume it).
 *
 * @example
 * ```ts
 * import type { RunStartedRecord } from 'rx-advisors/run';
 * const started: RunStartedRecord = {
 *   type: 'run-started',
 *   delivered: 0,
 *   messages: [{ role: 'user', content: 'Book a table for two.' }],
 * };
 * ```
 */
export interface RunStartedRecord extends RunRecordBase {
  readonly type: 'run-started';
  /** The request's messages as the run received them. */
  readonly messages: readonly Message[];
}

/**
 * A model call finished: the assembled assistant message (its tool calls included), the
 * usage it reported and its finish reason. Replaying it needs no model call.
 *
 * @example
 * ```ts
 * import type { ModelRoundRecord } from 'rx-advisors/run';
 * const round: ModelRoundRecord = {
 *   type: 'model-round',
 *   delivered: 3,
 *   round: 1,
 *   message: { role: 'assistant', content: 'Done.' },
 *   finishReason: 'stop',
 * };
 * ```
 */
export interface ModelRoundRecord extends RunRecordBase {
  readonly type: 'model-round';
  /** The model call's number in the run, from 1 (validation retries and tool rounds count). */
  readonly round: number;
  /** The assistant message the round assembled. */
  readonly message: AssistantMessage;
  /** What the provider reported, when it did. */
  readonly usage?: Usage;
  /** Why the model stopped. */
  readonly finishReason?: FinishReason;
  /** The round's reasoning text (its `reasoning-delta`s), when there was any. */
  readonly reasoning?: string;
  /** The provider's response id and model, when it sent them. */
  readonly responseId?: string;
  readonly model?: string;
}

/**
 * A tool call is about to run (written before a tool that is not idempotent starts, so a
 * resume knows it may have run).
 *
 * @example
 * ```ts
 * import type { ToolCallStartedRecord } from 'rx-advisors/run';
 * const started: ToolCallStartedRecord = {
 *   type: 'tool-call-started',
 *   delivered: 5,
 *   round: 1,
 *   toolCallId: 'call_1',
 *   toolName: 'pay',
 * };
 * ```
 */
export interface ToolCallStartedRecord extends RunRecordBase {
  readonly type: 'tool-call-started';
  /** The round whose assistant message made the call. */
  readonly round: number;
  /** The call's id. */
  readonly toolCallId: string;
  /** The tool's name. */
  readonly toolName: string;
}

/**
 * A tool call's outcome: the tool message the model saw (an error result included).
 *
 * @example
 * ```ts
 * import type { ToolOutcomeRecord } from 'rx-advisors/run';
 * const outcome: ToolOutcomeRecord = {
 *   type: 'tool-outcome',
 *   delivered: 5,
 *   round: 1,
 *   message: { role: 'tool', toolCallId: 'call_1', name: 'pay', content: '{"ok":true}' },
 * };
 * ```
 */
export interface ToolOutcomeRecord extends RunRecordBase {
  readonly type: 'tool-outcome';
  /** The round whose assistant message made the call. */
  readonly round: number;
  /** The tool message. */
  readonly message: ToolMessage;
}

/**
 * An approval decision the loop took or received for a tool call.
 *
 * @example
 * ```ts
 * import type { ApprovalDecisionRecord } from 'rx-advisors/run';
 * const decision: ApprovalDecisionRecord = {
 *   type: 'approval',
 *   delivered: 4,
 *   round: 1,
 *   toolCallId: 'call_1',
 *   decision: { approved: true },
 * };
 * ```
 */
export interface ApprovalDecisionRecord extends RunRecordBase {
  readonly type: 'approval';
  /** The round whose assistant message made the call. */
  readonly round: number;
  /** The call's id. */
  readonly toolCallId: string;
  /** The decision. */
  readonly decision: ToolApprovalDecision;
}

/**
 * A validation retry: a structured-output (or evaluation) advisor asked again, with the
 * feedback the model was given.
 *
 * @example
 * ```ts
 * import type { ValidationRetryRecord } from 'rx-advisors/run';
 * const retry: ValidationRetryRecord = {
 *   type: 'validation-retry',
 *   delivered: 9,
 *   attempt: 2,
 *   feedback: '/price must be a number',
 * };
 * ```
 */
export interface ValidationRetryRecord extends RunRecordBase {
  readonly type: 'validation-retry';
  /** The attempt that starts, from 2. */
  readonly attempt: number;
  /** What the model was told was wrong. */
  readonly feedback: string;
}

/**
 * A recursive advisor's decision after an attempt (an `EvaluationAdvisor`'s judge verdict):
 * a resume takes it instead of asking the judge again.
 *
 * @example
 * ```ts
 * import type { RecursionDecisionRecord } from 'rx-advisors/run';
 * const verdict: RecursionDecisionRecord = {
 *   type: 'recursion-decision',
 *   delivered: 9,
 *   advisor: 'evaluation',
 *   attempt: 1,
 *   decision: { retry: true, reason: 'rejected (score 3): Say more.' },
 * };
 * ```
 */
export interface RecursionDecisionRecord extends RunRecordBase {
  readonly type: 'recursion-decision';
  /** The recursive advisor's name. */
  readonly advisor: string;
  /** The attempt the decision was made after, from 1. */
  readonly attempt: number;
  /** The decision, with the next attempt's messages and what deciding cost. */
  readonly decision: RecordedRecursionDecision;
}

/**
 * The run ended: completed, failed or cancelled, with the usage of the whole run.
 *
 * @example
 * ```ts
 * import type { RunEndedRecord } from 'rx-advisors/run';
 * const ended: RunEndedRecord = { type: 'run-ended', delivered: 20, outcome: 'completed' };
 * ```
 */
export interface RunEndedRecord extends RunRecordBase {
  readonly type: 'run-ended';
  /** How it ended. */
  readonly outcome: 'completed' | 'failed' | 'cancelled';
  /** The run's total usage, when known. */
  readonly usage?: Usage;
}

/**
 * One step of a run, as a journal keeps it. Records are appended in the order the steps
 * finished and never changed.
 *
 * @example
 * ```ts
 * import type { RunRecord } from 'rx-advisors/run';
 * const describe = (record: RunRecord): string =>
 *   record.type === 'model-round' ? `round ${record.round}` : record.type;
 * ```
 */
export type RunRecord =
  | RunStartedRecord
  | ModelRoundRecord
  | ToolCallStartedRecord
  | ToolOutcomeRecord
  | ApprovalDecisionRecord
  | ValidationRetryRecord
  | RecursionDecisionRecord
  | RunEndedRecord;

/**
 * The record types, for checks and exhaustive switches.
 *
 * @example
 * ```ts
 * import { RUN_RECORD_TYPES } from 'rx-advisors/run';
 * const known = (type: string): boolean => (RUN_RECORD_TYPES as readonly string[]).includes(type);
 * ```
 */
export const RUN_RECORD_TYPES = [
  'run-started',
  'model-round',
  'tool-call-started',
  'tool-outcome',
  'approval',
  'validation-retry',
  'recursion-decision',
  'run-ended',
] as const satisfies readonly RunRecord['type'][];
