import { config, lastValueFrom, NEVER, throwError } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { Message } from '../../lib/core/message';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { Order } from '../../lib/advisor-api/order';
import { InMemoryChatMemoryRepository } from '../../lib/memory/in-memory-chat-memory-repository';
import { MessageWindowChatMemory } from '../../lib/memory/message-window-chat-memory';
import { TokenWindowChatMemory } from '../../lib/memory/token-window-chat-memory';
import {
  SummarizingChatMemoryAdvisor,
  type Summarizer,
  type SummaryRequest,
} from '../../lib/memory/summarizing-chat-memory-advisor';
import { MockChatModel } from '../../lib/testing';

const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
const summary = (text: string): Message => ({
  role: 'system',
  content: `<conversation-summary>\nSummary of the earlier part of this conversation:\n${text}\n</conversation-summary>`,
});

/** A client whose model answers `a<n>` to the n-th call, with a 5-message window. */
function setup(summarizer: Summarizer) {
  const model = MockChatModel.respond((_request, call) => ({ text: `a${call}` }));
  const repository = new InMemoryChatMemoryRepository();
  const chatMemory = new MessageWindowChatMemory({ maxMessages: 5, repository });
  const memoryAdvisor = new SummarizingChatMemoryAdvisor({ chatMemory, summarizer });
  const client = ChatClient.builder(model)
    .defaultSystem('Be brief.')
    .defaultAdvisors(memoryAdvisor)
    .build();
  const ask = (text: string) =>
    lastValueFrom(client.prompt(text).advisorParams({ conversationId: 'c1' }).call().content());
  return { model, repository, chatMemory, memoryAdvisor, ask };
}

describe('SummarizingChatMemoryAdvisor', () => {
  afterEach(() => {
    config.onUnhandledError = null;
  });

  it('summarizes the turns the window dropped, after the turn, and sends the summary with the next call', async () => {
    const summaries = MockChatModel.script([{ text: 'S1' }, { text: 'S2' }]);
    const { model, repository, memoryAdvisor, ask } = setup(summaries);

    await ask('u1');
    await ask('u2');
    await memoryAdvisor.whenIdle();
    expect(summaries.requests).toHaveLength(0); // nothing dropped yet

    await ask('u3'); // 6 messages > 5: the window drops u1's turn
    await memoryAdvisor.whenIdle();
    expect(summaries.requests).toHaveLength(1);
    expect(summaries.requests[0].messages[1]).toEqual(u('New messages:\nuser: u1\nassistant: a1'));
    expect(await repository.findByConversationId('c1')).toEqual([
      summary('S1'),
      u('u2'),
      a('a2'),
      u('u3'),
      a('a3'),
    ]);

    await ask('u4');
    expect(model.requests[3].messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      summary('S1'),
      u('u2'),
      a('a2'),
      u('u3'),
      a('a3'),
      u('u4'),
    ]);
    await memoryAdvisor.whenIdle();
    // The running summary: the previous one merged with the newly dropped turn.
    expect(summaries.requests[1].messages[1]).toEqual(
      u('Previous summary:\nS1\n\nNew messages:\nuser: u2\nassistant: a2'),
    );
    expect((await repository.findByConversationId('c1'))[0]).toEqual(summary('S2'));
  });

  it('never holds the answer back: the call completes while the summary is still running', async () => {
    const summarizer = jest.fn(() => NEVER);
    const { memoryAdvisor, ask } = setup(summarizer);
    await ask('u1');
    await ask('u2');
    await expect(ask('u3')).resolves.toBe('a3');
    await new Promise((resolve) => setImmediate(resolve));
    expect(summarizer).toHaveBeenCalledTimes(1);
    // The turn is saved although its summary never finished.
    expect(await memoryAdvisor.chatMemory.get('c1')).toEqual([u('u2'), a('a2'), u('u3'), a('a3')]);
  });

  it('a failed summary leaves the answer alone, is reported, and is retried with the next turn', async () => {
    const reported: unknown[] = [];
    config.onUnhandledError = (error) => reported.push(error);
    let calls = 0;
    const summarizer: Summarizer = (request) => {
      calls++;
      return calls === 1
        ? throwError(() => new Error('summary model down'))
        : Promise.resolve(`S(${request.dropped.length})`);
    };
    const { repository, memoryAdvisor, ask } = setup(summarizer);
    await ask('u1');
    await ask('u2');
    await expect(ask('u3')).resolves.toBe('a3');
    await memoryAdvisor.whenIdle();
    expect(reported).toEqual([new Error('summary model down')]);
    expect((await repository.findByConversationId('c1')).some((m) => m.role === 'system')).toBe(
      false,
    );

    await expect(ask('u4')).resolves.toBe('a4');
    await memoryAdvisor.whenIdle();
    // The retry covers u1's turn (kept from the failure) and u2's (dropped now).
    expect((await repository.findByConversationId('c1'))[0]).toEqual(summary('S(4)'));
  });

  it('takes a function summarizer (a ChatClient call) and gives it the dropped messages and a prompt', async () => {
    const seen: unknown[] = [];
    const summaryModel = MockChatModel.script([{ text: 'S' }]);
    const summaryClient = ChatClient.create(summaryModel);
    const { repository, memoryAdvisor, ask } = setup((request) => {
      seen.push(request);
      return summaryClient
        .prompt()
        .messages(...request.messages)
        .call()
        .content();
    });
    for (const text of ['u1', 'u2', 'u3']) await ask(text);
    await memoryAdvisor.whenIdle();
    expect(summaryModel.requests[0].messages).toHaveLength(2);
    expect((await repository.findByConversationId('c1'))[0]).toEqual(summary('S'));
    expect(seen).toEqual([
      {
        conversationId: 'c1',
        previousSummary: undefined,
        dropped: [u('u1'), a('a1')],
        messages: [
          { role: 'system', content: expect.stringContaining('running summary') as string },
          u('New messages:\nuser: u1\nassistant: a1'),
        ],
      },
    ]);
  });

  it('a throwing summarizer is reported like a failed one', async () => {
    const reported: unknown[] = [];
    config.onUnhandledError = (error) => reported.push(error);
    const { memoryAdvisor, ask } = setup(() => {
      throw new Error('bug');
    });
    for (const text of ['u1', 'u2', 'u3']) await ask(text);
    await memoryAdvisor.whenIdle();
    expect(reported).toEqual([new Error('bug')]);
  });

  it('a failed or unsubscribed call saves its user message, and what that write drops is summarized too', async () => {
    const summarizer = jest.fn((_request: SummaryRequest) => Promise.resolve('S'));
    const model = MockChatModel.respond((_request, call) =>
      call === 3
        ? { error: new Error('model down') }
        : { text: `a${call}`, delay: call === 4 ? 10 : 0 },
    );
    const chatMemory = new MessageWindowChatMemory({ maxMessages: 5 });
    const memoryAdvisor = new SummarizingChatMemoryAdvisor({ chatMemory, summarizer });
    const client = ChatClient.builder(model).defaultAdvisors(memoryAdvisor).build();
    const stream = (text: string) =>
      client.prompt(text).advisorParams({ conversationId: 'c1' }).stream().content();
    await lastValueFrom(stream('u1'));
    await lastValueFrom(stream('u2'));
    await expect(lastValueFrom(stream('u3'))).rejects.toThrow('model down');
    const streaming = stream('u4').subscribe();
    await new Promise((resolve) => setImmediate(resolve)); // history read, the answer on its way
    streaming.unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    await memoryAdvisor.whenIdle();
    // u3 (failed) fits; u4 (unsubscribed) pushes u1's turn out.
    expect(summarizer).toHaveBeenCalledTimes(1);
    expect(summarizer.mock.calls[0]).toEqual([
      expect.objectContaining({ dropped: [u('u1'), a('a1')] }),
    ]);
    expect(await chatMemory.get('c1')).toEqual([summary('S'), u('u2'), a('a2'), u('u3'), u('u4')]);
  });

  it('each subscription of one stream is its own turn (no shared state)', async () => {
    const summaries = MockChatModel.script([{ text: 'S1' }]);
    const { memoryAdvisor, model } = setup(summaries);
    const client = ChatClient.builder(model).defaultAdvisors(memoryAdvisor).build();
    const turn$ = client.prompt('again').advisorParams({ conversationId: 'c2' }).call().content();
    for (let i = 0; i < 3; i++) await lastValueFrom(turn$);
    await memoryAdvisor.whenIdle();
    expect(summaries.requests).toHaveLength(1);
    expect(summaries.requests[0].messages[1]).toEqual(
      u('New messages:\nuser: again\nassistant: a1'),
    );
  });

  it('works with TokenWindowChatMemory: what the token budget drops is summarized and sent', async () => {
    const summaries = MockChatModel.script([{ text: 'Ada likes tea.' }]);
    const model = MockChatModel.respond((_request, call) => ({ text: `a${call}`.padEnd(40, '.') }));
    const chatMemory = new TokenWindowChatMemory({ maxTokens: 30 });
    const memoryAdvisor = new SummarizingChatMemoryAdvisor({ chatMemory, summarizer: summaries });
    const client = ChatClient.builder(model).defaultAdvisors(memoryAdvisor).build();
    const ask = (text: string) =>
      lastValueFrom(
        client
          .prompt(text.padEnd(40, '.'))
          .advisorParams({ conversationId: 'c1' })
          .call()
          .content(),
      );
    await ask('I am Ada, I like tea');
    await ask('u2'); // two turns of 20 tokens do not fit 30: the first goes
    await memoryAdvisor.whenIdle();
    expect(summaries.requests).toHaveLength(1);
    await ask('u3');
    expect(model.requests[2].messages[0]).toEqual(summary('Ada likes tea.'));
  });

  it('rejects a missing summarizer and an order inside the tool loop', () => {
    expect(() => new SummarizingChatMemoryAdvisor({} as never)).toThrow(InvalidOptionsError);
    expect(
      () =>
        new SummarizingChatMemoryAdvisor({
          summarizer: () => Promise.resolve(''),
          order: Order.TOOL_CALLING + 1,
        }),
    ).toThrow(InvalidOptionsError);
  });
});
