// Issue 26 point 1: a durable run records its validation retries, between the model rounds
// they separate, once; a replay passes the recorded ones again without recording them twice.
import { lastValueFrom, toArray } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { ChatClient } from '../../../lib/client/chat-client';
import { StructuredOutputValidationAdvisor } from '../../../lib/output/structured-output-validation-advisor';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import { MockChatModel } from '../../../lib/testing/mock-chat-model';

const owner = 'user-1';
const PRICE = {
  type: 'object',
  properties: { price: { type: 'number' } },
  required: ['price'],
} as const;

function client(journal: InMemoryRunJournal) {
  // The first answer is not valid; the second one is.
  const model = MockChatModel.respond((request) =>
    request.messages.filter((m) => m.role === 'assistant').length === 0
      ? { text: '{"price":"cheap"}' }
      : { text: '{"price":12}' },
  );
  const chat = ChatClient.builder(model)
    .defaultAdvisors(
      new DurableRunAdvisor({ journal }),
      new StructuredOutputValidationAdvisor({ outputSchema: PRICE }),
    )
    .build();
  return { chat, model };
}

const run = (chat: ChatClient, params: Record<string, unknown>, question?: string) =>
  lastValueFrom(
    (question === undefined ? chat.prompt() : chat.prompt(question))
      .advisorParams(params)
      .stream()
      .chunks()
      .pipe(toArray()),
  );
const text = (chunks: readonly ChatChunk[]) =>
  chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');

describe('DurableRunAdvisor and validation retries', () => {
  it('records a validation retry between the two model rounds, with its feedback', async () => {
    const journal = new InMemoryRunJournal();
    const { chat } = client(journal);
    const chunks = await run(chat, { runId: 'r1', runOwner: owner }, 'Price?');
    expect(chunks.filter((c) => c.type === 'retry')).toHaveLength(1);
    const records = await journal.read({ owner, runId: 'r1' });
    expect(records.map((r) => r.type)).toEqual([
      'run-started',
      'model-round',
      'validation-retry',
      'model-round',
      'run-ended',
    ]);
    const retry = records[2];
    const sent = chunks.find((c) => c.type === 'retry');
    expect(retry).toMatchObject({
      type: 'validation-retry',
      attempt: 2,
      feedback: sent?.type === 'retry' ? sent.reason : 'none',
    });
    expect(retry.type === 'validation-retry' && retry.feedback).toMatch(/price/);
  });

  it('replays the retry without recording it again, nor asking the model', async () => {
    const journal = new InMemoryRunJournal();
    const first = await run(client(journal).chat, { runId: 'r1', runOwner: owner }, 'Price?');
    const before = await journal.read({ owner, runId: 'r1' });
    const { chat, model } = client(journal);
    const again = await run(chat, { runId: 'r1', runOwner: owner, runReplay: 'all' });
    expect(model.calls).toBe(0);
    expect(text(again)).toBe(text(first));
    expect(again.filter((c) => c.type === 'retry')).toHaveLength(1);
    expect(await journal.read({ owner, runId: 'r1' })).toEqual(before);
  });

  it('records the retry of a run resumed after its first round', async () => {
    const journal = new InMemoryRunJournal();
    // A run that stopped after its first round was recorded (the process died).
    await run(client(journal).chat, { runId: 'r1', runOwner: owner }, 'Price?');
    const all = await journal.read({ owner, runId: 'r1' });
    const cut = new InMemoryRunJournal();
    await cut.append({ owner, runId: 'r1' }, all.slice(0, 2), 0);
    const { chat, model } = client(cut);
    await run(chat, { runId: 'r1', runOwner: owner });
    expect(model.calls).toBe(1);
    const records = await cut.read({ owner, runId: 'r1' });
    expect(records.map((r) => r.type)).toEqual(all.map((r) => r.type));
  });
});
