// Issue 26: an EvaluationAdvisor inside a durable run. Its verdicts go through the call's
// RecursionDecisionLog (ContextKeys.RECURSION_DECISIONS), which DurableRunAdvisor registers
// and keeps as `recursion-decision` records, so a replay of a recorded run takes the
// recorded verdicts and does not ask the judge model again.
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { EvaluationAdvisor } from '../../lib/advisor/evaluation-advisor';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { DurableRunAdvisor } from '../../lib/run/durable/durable-run-advisor';
import { InMemoryRunJournal } from '../../lib/run/in-memory-run-journal';
import { MockChatModel } from '../../lib/testing/mock-chat-model';

const owner = 'user-1';
const LONG = 'A longer answer, with the detail the reviewer asked for.';
const JUDGE_USAGE = { inputTokens: 7, outputTokens: 2 };

function setUp(journal: InMemoryRunJournal) {
  // The first answer is short; the answer after the reviewer's feedback is not.
  const model = MockChatModel.respond((request) =>
    request.messages.some((m) => m.role === 'assistant')
      ? { text: LONG.split(' ').map((w) => `${w} `), interval: 5 }
      : { text: 'Short.' },
  );
  // The judge model: rejects a short answer once, passes the longer one (slowly).
  const judgeModel = MockChatModel.respond((request) =>
    request.messages.some((m) => typeof m.content === 'string' && m.content.includes('Short.'))
      ? { text: '{"pass":false,"score":3,"feedback":"Say more."}', usage: JUDGE_USAGE }
      : { text: '{"pass":true,"score":9,"feedback":"Good."}', delay: 50, usage: JUDGE_USAGE },
  );
  const chat = ChatClient.builder(model)
    .defaultAdvisors(
      new DurableRunAdvisor({ journal }),
      new EvaluationAdvisor({ judge: ChatClient.create(judgeModel) }),
    )
    .build();
  return { chat, model, judgeModel };
}

const stream = (chat: ChatClient, params: Record<string, unknown>, question?: string) =>
  (question === undefined ? chat.prompt() : chat.prompt(question))
    .advisorParams(params)
    .stream()
    .chunks();
const all = (chunks$: Observable<ChatChunk>) => lastValueFrom(chunks$.pipe(toArray()));
const text = (chunks: readonly ChatChunk[]) =>
  chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');

describe('EvaluationAdvisor in a durable run: the judge is not asked again on replay', () => {
  it('replays a completed run with its retry and no judge call', async () => {
    const journal = new InMemoryRunJournal();
    const { chat, model, judgeModel } = setUp(journal);
    const first = await all(stream(chat, { runId: 'r1', runOwner: owner }, 'Explain.'));
    expect(first.filter((c) => c.type === 'retry')).toHaveLength(1);
    expect(judgeModel.calls).toBe(2);
    const decisions = async (runId: string) =>
      (await journal.read({ owner, runId })).flatMap((r) =>
        r.type === 'recursion-decision' ? [`${r.advisor}/${r.attempt}/${r.decision.retry}`] : [],
      );
    expect(await decisions('r1')).toEqual(['evaluation/1/true', 'evaluation/2/false']);
    const records = (await journal.read({ owner, runId: 'r1' })).length;

    const replay = await all(stream(chat, { runId: 'r1', runOwner: owner, runReplay: 'all' }));
    expect(judgeModel.calls).toBe(2); // not asked again
    expect(model.calls).toBe(2);
    expect(text(replay)).toBe(text(first));
    expect(replay.find((c) => c.type === 'retry')).toEqual(first.find((c) => c.type === 'retry'));
    // The judge's recorded usage still counts in the total.
    const usage = (chunks: ChatChunk[]) => chunks.filter((c) => c.type === 'usage').at(-1);
    expect(usage(replay)).toEqual(usage(first));
    // The replayed retry matched the recorded one: nothing recorded twice.
    expect((await journal.read({ owner, runId: 'r1' })).length).toBe(records);
    expect(await decisions('r1')).toHaveLength(2);
  });

  it('resumes a run cut off while judging the retried answer: only that answer is judged', async () => {
    const journal = new InMemoryRunJournal();
    const { chat, model, judgeModel } = setUp(journal);
    // The subscriber goes away while the judge (50 ms) weighs the retried answer: the answer's
    // round, held to ride with the run's end, is written when the run is unsubscribed.
    await new Promise<void>((resolve) => {
      const subscription = stream(chat, { runId: 'r2', runOwner: owner }, 'Explain.').subscribe();
      const check = setInterval(() => {
        if (judgeModel.calls === 2) {
          clearInterval(check);
          subscription.unsubscribe();
          resolve();
        }
      }, 5);
    });
    const rounds = (await journal.read({ owner, runId: 'r2' })).filter(
      (r) => r.type === 'model-round',
    );
    expect(rounds).toHaveLength(2);
    expect(judgeModel.calls).toBe(2); // the rejection, and the verdict on the retry (cut off)
    const calls = model.calls;

    const resumed = await all(stream(chat, { runId: 'r2', runOwner: owner, runReplay: 'all' }));
    // Attempt 1's rejection is recorded: not asked again. Attempt 2's verdict never came back.
    expect(judgeModel.calls - 2).toBe(1);
    expect(model.calls).toBe(calls); // both rounds replayed
    expect(text(resumed)).toBe(`Short.${LONG} `);
    expect(resumed.filter((c) => c.type === 'retry')).toHaveLength(1);
  });

  it('asks the judge on every call when nothing registers a log (no durable run)', async () => {
    const judge = MockChatModel.respond(() => ({ text: '{"pass":true,"feedback":""}' }));
    const chat = ChatClient.builder(MockChatModel.respond(() => ({ text: 'Hi.' })))
      .defaultAdvisors(new EvaluationAdvisor({ judge: ChatClient.create(judge) }))
      .build();
    await all(chat.prompt('Hello?').stream().chunks());
    await all(chat.prompt('Hello?').stream().chunks());
    expect(judge.calls).toBe(2);
  });
});
