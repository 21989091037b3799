// rx-advisors/run: durable runs. Explicit re-exports, grouped by role.

// The journal contract and its records
export type { RunKey } from './run-key.js';
export type { RunJournal, RunJournalLimits } from './run-journal.js';
export {
  RUN_RECORD_TYPES,
  type ApprovalDecisionRecord,
  type ModelRoundRecord,
  type RunEndedRecord,
  type RunRecord,
  type RunRecordBase,
  type RunStartedRecord,
  type ToolCallStartedRecord,
  type ToolOutcomeRecord,
  type ValidationRetryRecord,
  type RecursionDecisionRecord,
} from './run-record.js';

// Stores
export { InMemoryRunJournal, type InMemoryRunJournalOptions } from './in-memory-run-journal.js';

// Errors
export { RunJournalError, type RunJournalErrorReason } from '../errors/run-journal-error.js';

// The durable run
export { DurableRunAdvisor, type DurableRunAdvisorOptions } from './durable/durable-run-advisor.js';
export { DurableRunParams, type RunReplay } from './durable/durable-run-params.js';
export type { UncertainToolCallPolicy } from './durable/durable-run-state.js';
export {
  durableRunRestorer,
  type DurableRunRestorer,
  type DurableRunRestorerOptions,
  type DurableRunResumeParams,
} from './durable/durable-run-restorer.js';
export { DurableRunError, type DurableRunErrorReason } from '../errors/durable-run-error.js';
