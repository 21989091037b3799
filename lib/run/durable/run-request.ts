import type { Message } from '../../core/message.js';
import type { ToolApprovalDecision } from '../../core/tool.js';
import { DurableRunError } from '../../errors/durable-run-error.js';
import { RunJournalError } from '../../errors/run-journal-error.js';
import type { RecordedRun } from './recorded-run.js';

/**
 * What a call asks of an existing run: to resume it. A resume brings no messages but
 * system ones (a `ChatClient`'s default system text), or the run's first messages again
 * (a retried request), or approval decisions (for calls the run paused at, or that may
 * have run): anything else is a new turn, refused with `DurableRunError` `'run-exists'`.
 * @internal
 * @returns The decisions brought, by call id.
 */
export function resumeDecisions(
  runId: string,
  messages: readonly Message[],
  recorded: RecordedRun,
): Map<string, ToolApprovalDecision> {
  const decisions = new Map<string, ToolApprovalDecision>();
  const brought = messages.filter((message) => message.role !== 'system');
  if (brought.length === 0) return decisions;
  if (JSON.stringify(messages) === JSON.stringify(recorded.started.messages)) return decisions;
  for (const message of brought) {
    if (message.role !== 'tool' || message.approval === undefined) {
      throw new DurableRunError({
        runId,
        reason: 'run-exists',
        message:
          `This owner has a run ${JSON.stringify(runId)} already, and the call brings new ` +
          'messages: a resume brings none (or approval decisions). Start a new turn under a new run id.',
      });
    }
    const { approved, reason } = message.approval;
    decisions.set(message.toolCallId, reason === undefined ? { approved } : { approved, reason });
  }
  return decisions;
}

/**
 * Refuses to start a run from nothing under a given id: a call with a run id and no
 * message to start from resumes, and this owner has no such run.
 * @internal
 */
export function checkStartable(runId: string, given: boolean, messages: readonly Message[]): void {
  if (!given || messages.some((message) => message.role !== 'system')) return;
  throw new RunJournalError({
    runId,
    reason: 'not-found',
    message:
      `No run ${JSON.stringify(runId)} of this owner to resume (unknown, expired, deleted, ` +
      "or another owner's); to start a run, send a message.",
  });
}
