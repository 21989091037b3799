import { RunJournalError } from '../../../lib/errors/run-journal-error';
import { RecordedRun } from '../../../lib/run/durable/recorded-run';
import type { RunRecord } from '../../../lib/run/run-record';

const started: RunRecord = { type: 'run-started', delivered: 0, messages: [] };
const approved: RunRecord = {
  type: 'approval',
  delivered: 1,
  round: 1,
  toolCallId: 'c1',
  decision: { approved: true },
};
const start: RunRecord = {
  type: 'tool-call-started',
  delivered: 1,
  round: 1,
  toolCallId: 'c1',
  toolName: 'pay',
};

describe('RecordedRun (what a resume reads of the records)', () => {
  it('does not take a decision made before a call started as a decision to run it again', () => {
    const run = new RecordedRun('r1', [started, approved, start]);
    expect(run.decision(1, 'c1')).toBeUndefined();
    expect(run.isUncertain(1, 'c1')).toBe(true);
    expect(run.hasDecisionsOrUncertainCalls).toBe(true);
  });

  it('takes a decision made after the start (on resume) and then the call is no longer uncertain', () => {
    const run = new RecordedRun('r1', [started, start, approved]);
    expect(run.decision(1, 'c1')).toEqual({ approved: true });
    expect(run.isUncertain(1, 'c1')).toBe(false);
  });

  it('keys calls by the model round that made them: the same id in two rounds is two calls', () => {
    const outcome: RunRecord = {
      type: 'tool-outcome',
      delivered: 2,
      round: 1,
      message: { role: 'tool', toolCallId: 'c1', name: 'pay', content: 'paid' },
    };
    const run = new RecordedRun('r1', [started, start, outcome]);
    expect(run.outcome(1, 'c1')?.content).toBe('paid');
    expect(run.outcome(2, 'c1')).toBeUndefined();
    expect(run.isUncertain(1, 'c1')).toBe(false);
    expect(run.hasDecisionsOrUncertainCalls).toBe(false);
    expect(run.delivered).toBe(2);
  });

  it('refuses records that do not start with run-started', () => {
    expect(() => new RecordedRun('r1', [start])).toThrow(RunJournalError);
  });
});
