// Records of one run with every record type, for the RunJournal contract suite.
import type { RunRecord } from '../../../lib/run/index';

/** One record of each type, in the order a run with a tool round writes them. */
export const everyType = (): RunRecord[] => [
  {
    type: 'run-started',
    delivered: 0,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Pay the invoice. ünïcödé ✓ "quotes" \\ back' },
    ],
  },
  {
    type: 'model-round',
    delivered: 3,
    round: 1,
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'pay', arguments: '{"amount":12}' }],
    },
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    finishReason: 'tool-calls',
  },
  { type: 'approval', delivered: 3, round: 1, toolCallId: 'call_1', decision: { approved: true } },
  { type: 'tool-call-started', delivered: 3, round: 1, toolCallId: 'call_1', toolName: 'pay' },
  {
    type: 'tool-outcome',
    delivered: 4,
    round: 1,
    message: { role: 'tool', toolCallId: 'call_1', name: 'pay', content: '{"ok":true}' },
  },
  {
    type: 'recursion-decision',
    delivered: 6,
    advisor: 'evaluation',
    attempt: 1,
    decision: {
      retry: true,
      reason: 'rejected (score 3): Say more.',
      messages: [{ role: 'user', content: 'Pay the invoice.' }],
      usage: { inputTokens: 7, outputTokens: 2 },
    },
  },
  { type: 'validation-retry', delivered: 6, attempt: 2, feedback: '/price must be a number' },
  {
    type: 'model-round',
    delivered: 9,
    round: 2,
    message: { role: 'assistant', content: 'Paid.' },
    finishReason: 'stop',
  },
  { type: 'run-ended', delivered: 10, outcome: 'completed' },
];

/** A small record, numbered so a test can tell which write it came from. */
export const numbered = (writer: string, index: number): RunRecord => ({
  type: 'validation-retry',
  delivered: index,
  attempt: index + 2,
  feedback: `${writer}-${index}`,
});

/** A run-started record whose text is about `bytes` long. */
export const sized = (bytes: number): RunRecord => ({
  type: 'run-started',
  delivered: 0,
  messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, bytes - 80)) }],
});

/** The stored text of a record as the codec writes it, with `fields` put over it. */
export const storedText = (fields: Record<string, unknown>, record: RunRecord): string =>
  JSON.stringify({ v: 1, ...record, ...fields });

/** What a rejected promise rejected with (fails the test when it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value: unknown) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
