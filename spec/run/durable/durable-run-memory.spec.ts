// Issue 26: chat memory inside a durable run writes a resumed turn once. A run resumed after
// it completed only replays (memory writes nothing again); a run unsubscribed mid-answer
// (memory kept the user's message) continues without storing or sending that message twice.
import { lastValueFrom, take, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import type { Message } from '../../../lib/core/message';
import { MessageChatMemoryAdvisor } from '../../../lib/memory/message-chat-memory-advisor';
import { MessageWindowChatMemory } from '../../../lib/memory/message-window-chat-memory';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import { MockChatModel } from '../../../lib/testing/mock-chat-model';

const ANSWER = ['Paris ', 'is ', 'the ', 'capital.'];
const params = { runId: 'run-1', runOwner: 'user-1', conversationId: 'c1' };

function setUp() {
  const journal = new InMemoryRunJournal();
  const chatMemory = new MessageWindowChatMemory();
  const model = MockChatModel.respond(() => ({ text: ANSWER }));
  const client = ChatClient.builder(model)
    .defaultAdvisors(
      new DurableRunAdvisor({ journal }),
      new MessageChatMemoryAdvisor({ chatMemory }),
    )
    .build();
  const ask = (extra: Record<string, unknown> = {}) =>
    client
      .prompt('Capital of France?')
      .advisorParams({ ...params, ...extra })
      .stream()
      .chunks();
  return { chatMemory, model, ask };
}

const textOf = (chunks: readonly ChatChunk[]): string =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
const turn = (messages: readonly Message[]) => messages.map((m) => [m.role, m.content]);
const flush = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('DurableRunAdvisor with chat memory', () => {
  it('a completed run resumed replays the answer and memory holds the turn once', async () => {
    const { chatMemory, model, ask } = setUp();
    expect(textOf(await lastValueFrom(ask().pipe(toArray())))).toBe(ANSWER.join(''));
    const replayed = await lastValueFrom(ask({ runReplay: 'all' }).pipe(toArray()));
    expect(model.calls).toBe(1); // the resume replays: no model call
    expect(textOf(replayed)).toBe(ANSWER.join(''));
    expect(turn(await chatMemory.get('c1'))).toEqual([
      ['user', 'Capital of France?'],
      ['assistant', 'Paris is the capital.'],
    ]);
  });

  it('a run unsubscribed mid-answer continues with the user message stored and sent once', async () => {
    const { chatMemory, model, ask } = setUp();
    // Two text deltas reach the caller, then it goes away: memory keeps the user's message.
    const partial = await lastValueFrom(
      ask().pipe(
        take(ANSWER.length), // run data chunk, metadata, then two deltas (the round not ended)
        toArray(),
      ),
    );
    expect(textOf(partial)).not.toBe(ANSWER.join(''));
    await flush();
    expect(turn(await chatMemory.get('c1'))).toEqual([['user', 'Capital of France?']]);

    const rest = await lastValueFrom(ask().pipe(toArray()));
    expect(textOf(rest)).toBe(ANSWER.join(''));
    expect(model.calls).toBe(2); // the round was in flight: asked again
    expect(turn(model.requests[1].messages)).toEqual([['user', 'Capital of France?']]);
    expect(turn(await chatMemory.get('c1'))).toEqual([
      ['user', 'Capital of France?'],
      ['assistant', 'Paris is the capital.'],
    ]);
  });
});
