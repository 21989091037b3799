import { EMPTY, lastValueFrom, of, toArray } from 'rxjs';
import {
  AdvisorParams,
  ChatClient,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  MissingConversationIdError,
  Order,
  ProviderError,
  type ChatMemory,
  type Message,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { controlledModel, finish, settle, text } from './support/memory-test-kit';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

function clientWith(model: MockChatModel, chatMemory: ChatMemory, system = 'Be brief.') {
  return ChatClient.builder(model)
    .defaultSystem(system)
    .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
    .defaultAdvisorParams({ conversationId: 'c1' })
    .build();
}

describe('MessageChatMemoryAdvisor', () => {
  describe('two turns', () => {
    it('sends system, user 1, assistant 1, user 2 on the second call (call mode)', async () => {
      const model = MockChatModel.script([{ text: 'Hello Ada.' }, { text: 'You are Ada.' }]);
      const chatMemory = new MessageWindowChatMemory();
      const client = clientWith(model, chatMemory);

      const first = await lastValueFrom(client.prompt('I am Ada.').call().content());
      const second = await lastValueFrom(client.prompt('Who am I?').call().content());

      expect([first, second]).toEqual(['Hello Ada.', 'You are Ada.']);
      expect(model.requests[0]?.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        user('I am Ada.'),
      ]);
      expect(model.requests[1]?.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        user('I am Ada.'),
        assistant('Hello Ada.'),
        user('Who am I?'),
      ]);
      expect(await chatMemory.get('c1')).toEqual([
        user('I am Ada.'),
        assistant('Hello Ada.'),
        user('Who am I?'),
        assistant('You are Ada.'),
      ]);
    });

    it('sends system, user 1, assistant 1, user 2 on the second call (stream mode)', async () => {
      const model = MockChatModel.script([{ text: 'Hello Ada.' }, { text: 'You are Ada.' }]);
      const chatMemory = new MessageWindowChatMemory();
      const client = clientWith(model, chatMemory);
      const stream = (prompt: string) =>
        lastValueFrom(client.prompt(prompt).stream().content().pipe(toArray()));

      expect(await stream('I am Ada.')).toEqual(['Hello', ' Ada.']);
      expect(await stream('Who am I?')).toEqual(['You', ' are', ' Ada.']);
      expect(model.requests[1]?.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        user('I am Ada.'),
        assistant('Hello Ada.'),
        user('Who am I?'),
      ]);
      expect(await chatMemory.get('c1')).toHaveLength(4);
    });

    it('passes every chunk through unchanged, in order', async () => {
      const model = MockChatModel.script([{ text: 'Hi there', usage: { inputTokens: 3 } }]);
      const plain = await lastValueFrom(
        ChatClient.create(model).prompt('Hi').stream().chunks().pipe(toArray()),
      );
      const again = MockChatModel.script([{ text: 'Hi there', usage: { inputTokens: 3 } }]);
      const withMemory = await lastValueFrom(
        clientWith(again, new MessageWindowChatMemory())
          .prompt('Hi')
          .stream()
          .chunks()
          .pipe(toArray()),
      );
      expect(withMemory).toEqual(plain);
    });
  });

  describe('conversation id', () => {
    it('fails with MissingConversationIdError, before calling the model, when there is none', async () => {
      const model = MockChatModel.script([{ text: 'never' }]);
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .build();

      const error: unknown = await lastValueFrom(client.prompt('Hi').call().content()).catch(
        (e: unknown) => e,
      );

      expect(MissingConversationIdError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ advisor: 'MessageChatMemoryAdvisor', value: undefined });
      expect((error as Error).message).toContain('advisorParams({ conversationId');
      expect(model.calls).toBe(0);
    });

    it.each([[''], [42], [null]])('rejects the conversation id %p', async (value) => {
      const model = MockChatModel.script([{ text: 'never' }]);
      const client = clientWith(model, new MessageWindowChatMemory());
      const error: unknown = await lastValueFrom(
        client.prompt('Hi').advisorParams({ conversationId: value }).call().content(),
      ).catch((e: unknown) => e);
      expect(MissingConversationIdError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ value });
      expect(model.calls).toBe(0);
    });

    it('uses defaultConversationId when the call has none, and the call id over it', async () => {
      const model = MockChatModel.script([{ text: 'A' }, { text: 'B' }]);
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultAdvisors(
          new MessageChatMemoryAdvisor({ chatMemory, defaultConversationId: 'shared' }),
        )
        .build();
      await lastValueFrom(client.prompt('one').call().content());
      await lastValueFrom(
        client
          .prompt('two')
          .advisorParams({ [AdvisorParams.CONVERSATION_ID]: 'own' })
          .call()
          .content(),
      );
      expect(await chatMemory.get('shared')).toEqual([user('one'), assistant('A')]);
      expect(await chatMemory.get('own')).toEqual([user('two'), assistant('B')]);
    });
  });

  describe('failures', () => {
    it('keeps the user message and nothing of the answer when the model fails mid-stream', async () => {
      const model = MockChatModel.script([{ text: 'Half an ans', error: 'connection reset' }]);
      const chatMemory = new MessageWindowChatMemory();
      const seen: string[] = [];

      const error: unknown = await new Promise((resolve) => {
        clientWith(model, chatMemory)
          .prompt('Hi')
          .stream()
          .content()
          .subscribe({ next: (delta) => seen.push(delta), error: resolve });
      });

      expect(seen).toEqual(['Half', ' an', ' ans']);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe('mock: connection reset');
      expect(await chatMemory.get('c1')).toEqual([user('Hi')]);
    });

    it('keeps the user message only when the stream is unsubscribed mid-answer', async () => {
      const { model, calls } = controlledModel();
      const chatMemory = new MessageWindowChatMemory();
      const seen: string[] = [];
      const subscription = clientWith(model, chatMemory)
        .prompt('Tell me a story')
        .stream()
        .content()
        .subscribe((delta) => seen.push(delta));
      await settle();
      calls[0].next(text('Once upon'));
      subscription.unsubscribe();

      expect(seen).toEqual(['Once upon']);
      expect(calls[0].observed).toBe(false); // the model call was torn down
      expect(await chatMemory.get('c1')).toEqual([user('Tell me a story')]);
    });

    it('keeps the user message when unsubscribed while the history is still loading', async () => {
      const model = MockChatModel.script([{ text: 'never' }]);
      const chatMemory = new MessageWindowChatMemory();
      clientWith(model, chatMemory).prompt('Hi').call().content().subscribe().unsubscribe();
      expect(await chatMemory.get('c1')).toEqual([user('Hi')]);
      expect(model.calls).toBe(0);
    });

    it('saves the user message only when the stream finishes with reason "error"', async () => {
      const model = MockChatModel.script([{ text: 'partial', finishReason: 'error' }]);
      const chatMemory = new MessageWindowChatMemory();
      await lastValueFrom(clientWith(model, chatMemory).prompt('Hi').call().content());
      expect(await chatMemory.get('c1')).toEqual([user('Hi')]);
    });

    it('fails with the memory error, without calling the model, when the history cannot be read', async () => {
      const model = MockChatModel.script([{ text: 'never' }]);
      const broken = new Error('disk on fire');
      const add = jest.fn(() => Promise.resolve());
      const chatMemory: ChatMemory = {
        get: () => Promise.reject(broken),
        add,
        clear: () => Promise.resolve(),
      };
      const error = await lastValueFrom(
        clientWith(model, chatMemory).prompt('Hi').call().content(),
      ).catch((e: unknown) => e);
      expect(error).toBe(broken);
      expect(model.calls).toBe(0);
      expect(add).not.toHaveBeenCalled();
    });

    it('fails with the memory error when a ChatMemory throws instead of rejecting', async () => {
      const broken = new Error('not implemented');
      const chatMemory: ChatMemory = {
        get: () => {
          throw broken;
        },
        add: () => Promise.resolve(),
        clear: () => Promise.resolve(),
      };
      const error = await lastValueFrom(
        clientWith(MockChatModel.script([{ text: 'x' }]), chatMemory)
          .prompt('Hi')
          .call()
          .content(),
      ).catch((e: unknown) => e);
      expect(error).toBe(broken);
    });

    it('fails after the last chunk when the turn cannot be saved', async () => {
      const broken = new Error('write failed');
      const chatMemory: ChatMemory = {
        get: () => Promise.resolve([]),
        add: () => Promise.reject(broken),
        clear: () => Promise.resolve(),
      };
      const seen: string[] = [];
      const error = await new Promise((resolve) => {
        clientWith(MockChatModel.script([{ text: 'Hello' }]), chatMemory)
          .prompt('Hi')
          .stream()
          .content()
          .subscribe({ next: (d) => seen.push(d), error: resolve });
      });
      expect(seen).toEqual(['Hello']);
      expect(error).toBe(broken);
    });

    it('reports a failed background write to RxJS config.onUnhandledError', async () => {
      const { config } = await import('rxjs');
      const previous = config.onUnhandledError;
      const reported: unknown[] = [];
      config.onUnhandledError = (error: unknown) => reported.push(error);
      try {
        const broken = new Error('disk full');
        const chatMemory: ChatMemory = {
          get: () => Promise.resolve([]),
          add: () => Promise.reject(broken),
          clear: () => Promise.resolve(),
        };
        const { model } = controlledModel();
        clientWith(model, chatMemory).prompt('Hi').stream().chunks().subscribe().unsubscribe();
        await settle();
        expect(reported).toEqual([broken]);
      } finally {
        config.onUnhandledError = previous;
      }
    });

    it('completes only once the turn is stored', async () => {
      let release!: () => void;
      const stored: Message[][] = [];
      const chatMemory: ChatMemory = {
        get: () => Promise.resolve([]),
        add: (_id, messages) =>
          new Promise<void>((resolve) => {
            release = () => {
              stored.push([...messages]);
              resolve();
            };
          }),
        clear: () => Promise.resolve(),
      };
      let completed = false;
      clientWith(MockChatModel.script([{ text: 'Hello' }]), chatMemory)
        .prompt('Hi')
        .call()
        .content()
        .subscribe({ complete: () => (completed = true) });
      await settle();
      expect(completed).toBe(false);
      release();
      await settle();
      expect(completed).toBe(true);
      expect(stored).toEqual([[user('Hi'), assistant('Hello')]]);
    });
  });

  describe('empty source and re-subscription', () => {
    it('stores the user message alone when the model sends nothing', async () => {
      const model = MockChatModel.respond(() => EMPTY);
      const chatMemory = new MessageWindowChatMemory();
      const chunks = await lastValueFrom(
        clientWith(model, chatMemory).prompt('Hi').stream().chunks().pipe(toArray()),
      );
      expect(chunks).toEqual([]);
      expect(await chatMemory.get('c1')).toEqual([user('Hi')]);
    });

    it('runs each subscription as its own turn, with no shared state', async () => {
      const model = MockChatModel.respond((_request, call) => ({ text: `answer ${call}` }));
      const chatMemory = new MessageWindowChatMemory();
      const content$ = clientWith(model, chatMemory).prompt('Again').call().content();

      expect(await lastValueFrom(content$)).toBe('answer 1');
      expect(await lastValueFrom(content$)).toBe('answer 2');
      expect(model.requests[1]?.messages.slice(1)).toEqual([
        user('Again'),
        assistant('answer 1'),
        user('Again'),
      ]);
      expect(await chatMemory.get('c1')).toEqual([
        user('Again'),
        assistant('answer 1'),
        user('Again'),
        assistant('answer 2'),
      ]);
    });
  });

  describe('history', () => {
    it('sends the stored system message when the call has none, the call’s own otherwise', async () => {
      const chatMemory = new MessageWindowChatMemory();
      await chatMemory.add('c1', [
        { role: 'system', content: 'Stored rules.' },
        user('u1'),
        assistant('a1'),
      ]);
      const model = MockChatModel.script([{ text: 'x' }, { text: 'y' }]);
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();

      await lastValueFrom(client.prompt('u2').call().content());
      await lastValueFrom(client.prompt().system('Call rules.').user('u3').call().content());

      expect(model.requests[0]?.messages).toEqual([
        { role: 'system', content: 'Stored rules.' },
        user('u1'),
        assistant('a1'),
        user('u2'),
      ]);
      expect(model.requests[1]?.messages.slice(0, 2)).toEqual([
        { role: 'system', content: 'Call rules.' },
        user('u1'),
      ]);
    });

    it('saves the user message but not few-shot examples given before it', async () => {
      const model = MockChatModel.script([{ text: 'Bonjour' }]);
      const chatMemory = new MessageWindowChatMemory();
      await lastValueFrom(
        clientWith(model, chatMemory)
          .prompt()
          .messages(user('Translate: cat'), assistant('chat'))
          .user('Translate: hello')
          .call()
          .content(),
      );
      expect(model.requests[0]?.messages).toHaveLength(4);
      expect(await chatMemory.get('c1')).toEqual([user('Translate: hello'), assistant('Bonjour')]);
    });

    it('drops a tool call left unanswered by an aborted call from what it sends', async () => {
      const chatMemory = new MessageWindowChatMemory();
      await chatMemory.add('c1', [
        user('Time in Paris?'),
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 't1', name: 'getTime', arguments: '{}' }],
        },
        user('Never mind. Hi!'),
        assistant('Hi!'),
      ]);
      const model = MockChatModel.script([{ text: 'ok' }]);
      await lastValueFrom(clientWith(model, chatMemory).prompt('Bye').call().content());
      expect(model.requests[0]?.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        user('Time in Paris?'),
        user('Never mind. Hi!'),
        assistant('Hi!'),
        user('Bye'),
      ]);
    });
  });

  describe('options', () => {
    it('defaults to Order.CHAT_MEMORY, outside the tool loop, with its own window memory', () => {
      const advisor = new MessageChatMemoryAdvisor();
      expect(advisor.order).toBe(Order.CHAT_MEMORY);
      expect(advisor.order).toBe(Order.HIGHEST_PRECEDENCE + 200);
      expect(advisor.name).toBe('MessageChatMemoryAdvisor');
      expect(advisor.managesConversationHistory).toBe(false);
      expect(advisor.chatMemory).toBeInstanceOf(MessageWindowChatMemory);
    });

    it('manages the conversation history when ordered inside the tool loop', () => {
      expect(
        new MessageChatMemoryAdvisor({ order: Order.TOOL_CALLING + 1 }).managesConversationHistory,
      ).toBe(true);
      expect(
        new MessageChatMemoryAdvisor({ order: Order.TOOL_CALLING }).managesConversationHistory,
      ).toBe(false);
    });

    it.each([
      ['chatMemory', { chatMemory: {} }],
      ['order', { order: Number.NaN }],
      ['name', { name: '' }],
      ['defaultConversationId', { defaultConversationId: '' }],
      ['saveToolMessages', { saveToolMessages: 'yes' }],
    ])('rejects a bad %s with InvalidOptionsError', (option, options) => {
      expect(() => new MessageChatMemoryAdvisor(options as never)).toThrow(InvalidOptionsError);
      try {
        new MessageChatMemoryAdvisor(options as never);
      } catch (error) {
        expect(error).toMatchObject({ option });
      }
    });
  });

  it('works in a chain without ChatClient, with a model Observable of chunks', async () => {
    const { createAdvisorChain, ChatRequest } = await import('../../lib/index');
    const chatMemory = new MessageWindowChatMemory();
    const model = MockChatModel.respond(() => of(text('pong'), finish));
    const chain = createAdvisorChain({
      advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
      model,
    });
    const request = ChatRequest.create({
      messages: [user('ping')],
      context: new Map([['conversationId', 'direct']]),
    });
    await lastValueFrom(chain.next(request).pipe(toArray()));
    expect(await chatMemory.get('direct')).toEqual([user('ping'), assistant('pong')]);
  });
});
