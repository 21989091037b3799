import { EMPTY, lastValueFrom, throwError, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain';
import { Order } from '../../lib/advisor-api/order';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatRequest } from '../../lib/core/chat-request';
import type { Message } from '../../lib/core/message';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ContextEditingAdvisor } from '../../lib/memory/context-editing-advisor';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';

/** The documented estimate: 4 characters a token. */
const estimate = (messages: readonly Message[]): number => {
  let characters = 0;
  for (const m of messages) {
    characters += m.content.length;
    if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) characters += c.name.length + c.arguments.length;
  }
  return Math.ceil(characters / 4);
};

const RESULT = 'r'.repeat(2000);
const fetchPage = tool({
  name: 'fetchPage',
  description: 'Fetches a page.',
  parameters: { type: 'object', properties: { page: { type: 'number' } } },
  execute: () => RESULT,
});

/** A 20-round loop (19 tool rounds, then the answer) whose model reports the estimate of what it was sent. */
async function replay(advisors: ContextEditingAdvisor[]) {
  const model = MockChatModel.respond((request, call) => ({
    ...(call <= 19
      ? { toolCalls: [{ name: 'fetchPage', arguments: { page: call } }] }
      : { text: 'Done.' }),
    usage: { inputTokens: estimate(request.messages), outputTokens: 10 },
  }));
  const client = ChatClient.builder(model)
    .defaultAdvisors(...advisors)
    .build();
  const response = await lastValueFrom(
    client.prompt('Read all 20 pages.').tools(fetchPage).call().chatResponse(),
  );
  return { model, response };
}

const call = (id: string): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name: 'get', arguments: '{}' }],
});
const result = (id: string, content = RESULT): Message => ({
  role: 'tool',
  toolCallId: id,
  name: 'get',
  content,
});

describe('ContextEditingAdvisor', () => {
  it('saves most input tokens on a replayed 20-round loop, and the loop still ends with the answer', async () => {
    const plain = await replay([]);
    const edited = await replay([new ContextEditingAdvisor({ keepRounds: 3 })]);
    expect(edited.response.text).toBe('Done.');
    expect(edited.model.requests).toHaveLength(20);
    const before = plain.response.usage.inputTokens!;
    const after = edited.response.usage.inputTokens!;
    // The numbers in docs/memory.md.
    expect({ before, after, saved: Math.round((1 - after / before) * 100) }).toEqual({
      before: 96_018,
      after: 31_447,
      saved: 67,
    });
  });

  it('keeps the last keepRounds rounds whole and replaces older results by a placeholder', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const chain = createAdvisorChain({
      advisors: [new ContextEditingAdvisor({ keepRounds: 2 })],
      model,
    });
    const messages = [
      { role: 'user', content: 'go' },
      call('1'),
      result('1'),
      call('2'),
      result('2', 'short'),
      call('3'),
      result('3'),
      call('4'),
      result('4'),
    ] as Message[];
    await lastValueFrom(chain.next(ChatRequest.create({ messages })));
    expect(model.requests[0].messages).toEqual([
      messages[0],
      call('1'),
      result(
        '1',
        '[Result of get left out to save context (2000 characters). Call the tool again if you need it.]',
      ),
      call('2'),
      result('2', 'short'), // the placeholder would be longer
      call('3'),
      result('3'),
      call('4'),
      result('4'),
    ]);
  });

  it('passes a request with no older rounds on unchanged (the same request)', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const chain = createAdvisorChain({ advisors: [new ContextEditingAdvisor()], model });
    const request = ChatRequest.create({
      messages: [{ role: 'user', content: 'go' }, call('1'), result('1')],
    });
    await lastValueFrom(chain.next(request));
    expect(model.requests[0]).toBe(request);
  });

  it('a throwing placeholder fails the stream; a failing or empty source passes through', async () => {
    const messages = [call('1'), result('1'), call('2'), result('2')];
    const throwing = new ContextEditingAdvisor({
      keepRounds: 1,
      placeholder: () => {
        throw new Error('bad placeholder');
      },
    });
    const ok = MockChatModel.script([{ text: 'ok' }]);
    await expect(
      lastValueFrom(
        createAdvisorChain({ advisors: [throwing], model: ok }).next(
          ChatRequest.create({ messages }),
        ),
      ),
    ).rejects.toThrow('bad placeholder');
    expect(ok.requests).toHaveLength(0);

    const failing = MockChatModel.fromStreams([throwError(() => new Error('model down'))]);
    await expect(
      lastValueFrom(
        createAdvisorChain({ advisors: [new ContextEditingAdvisor()], model: failing }).next(
          ChatRequest.create({ messages }),
        ),
      ),
    ).rejects.toThrow('model down');

    const empty = MockChatModel.fromStreams([EMPTY]);
    await expect(
      lastValueFrom(
        createAdvisorChain({ advisors: [new ContextEditingAdvisor()], model: empty })
          .next(ChatRequest.create({ messages }))
          .pipe(toArray()),
      ),
    ).resolves.toEqual([]);
  });

  it('unsubscribes from the model when unsubscribed, and each subscription edits anew', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const text: ChatChunk = { type: 'text-delta', text: 'x' };
      const source = cold<ChatChunk>('a-a-a|', { a: text });
      let edits = 0;
      const advisor = new ContextEditingAdvisor({
        keepRounds: 1,
        placeholder: () => {
          edits++;
          return '-';
        },
      });
      const model = { provider: 'marble', stream: () => source };
      const chunks$ = createAdvisorChain({ advisors: [advisor], model }).next(
        ChatRequest.create({ messages: [call('1'), result('1'), call('2'), result('2')] }),
      );
      expectObservable(chunks$, '---!').toBe('a-a-', { a: text });
      expectObservable(chunks$).toBe('a-a-a|', { a: text });
      expectSubscriptions(source.subscriptions).toBe(['^--!', '^----!']);
      testScheduler.flush();
      expect(edits).toBe(2);
    });
  });

  it('rejects options that cannot work', () => {
    expect(() => new ContextEditingAdvisor({ keepRounds: -1 })).toThrow(InvalidOptionsError);
    expect(() => new ContextEditingAdvisor({ order: Order.CHAT_MEMORY })).toThrow(
      InvalidOptionsError,
    );
  });
});
