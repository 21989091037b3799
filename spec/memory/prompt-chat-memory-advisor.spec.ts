import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  InvalidOptionsError,
  MessageWindowChatMemory,
  MissingConversationIdError,
  Order,
  PromptChatMemoryAdvisor,
  type Message,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { controlledModel, settle, text } from './support/memory-test-kit';

const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });

const clientWith = (model: MockChatModel, advisor: PromptChatMemoryAdvisor, system?: string) => {
  const builder = ChatClient.builder(model)
    .defaultAdvisors(advisor)
    .defaultAdvisorParams({ conversationId: 'c1' });
  return (system === undefined ? builder : builder.defaultSystem(system)).build();
};

describe('PromptChatMemoryAdvisor', () => {
  it('renders the history into the system text and sends only the new user message', async () => {
    const model = MockChatModel.script([{ text: 'Hello Ada.' }, { text: 'Ada.' }]);
    const chatMemory = new MessageWindowChatMemory();
    const client = clientWith(model, new PromptChatMemoryAdvisor({ chatMemory }), 'Be brief.');

    await lastValueFrom(client.prompt('I am Ada.').call().content());
    await lastValueFrom(client.prompt('Who am I?').call().content());

    expect(model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      u('I am Ada.'),
    ]);
    expect(model.requests[1]?.messages).toEqual([
      {
        role: 'system',
        content:
          'Be brief.\n\nThe conversation so far, oldest first. Use it to answer consistently with what was said before.\n' +
          '<conversation-memory>\nuser: I am Ada.\nassistant: Hello Ada.\n</conversation-memory>',
      },
      u('Who am I?'),
    ]);
    expect(await chatMemory.get('c1')).toEqual([
      u('I am Ada.'),
      a('Hello Ada.'),
      u('Who am I?'),
      a('Ada.'),
    ]);
  });

  it('uses a custom template, keeping $ patterns and braces in the text literal', async () => {
    const chatMemory = new MessageWindowChatMemory();
    await chatMemory.add('c1', [u('price is $& and {instructions}'), a('ok')]);
    const model = MockChatModel.script([{ text: 'x' }]);
    const advisor = new PromptChatMemoryAdvisor({
      chatMemory,
      systemTemplate: '[{instructions}] MEMORY: {memory}',
    });
    await lastValueFrom(clientWith(model, advisor, 'Rules $1.').prompt('next').call().content());
    expect(model.requests[0]?.messages[0]).toEqual({
      role: 'system',
      content: '[Rules $1.] MEMORY: user: price is $& and {instructions}\nassistant: ok',
    });
  });

  it('renders tool calls and results, and works without a system text', async () => {
    const chatMemory = new MessageWindowChatMemory();
    await chatMemory.add('c1', [
      u('time?'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't', name: 'getTime', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', toolCallId: 't', name: 'getTime', content: '12:00' },
      a('Noon.'),
    ]);
    const model = MockChatModel.script([{ text: 'x' }]);
    const advisor = new PromptChatMemoryAdvisor({
      chatMemory,
      systemTemplate: '{instructions}\n{memory}',
    });
    await lastValueFrom(clientWith(model, advisor).prompt('thanks').call().content());
    expect(model.requests[0]?.messages[0]?.content).toBe(
      'user: time?\nassistant called: getTime({"city":"Paris"})\ntool getTime: 12:00\nassistant: Noon.',
    );
  });

  it('leaves the request alone while the conversation is empty', async () => {
    const model = MockChatModel.script([{ text: 'x' }]);
    await lastValueFrom(
      clientWith(model, new PromptChatMemoryAdvisor(), 'Sys.').prompt('first').call().content(),
    );
    expect(model.requests[0]?.messages).toEqual([{ role: 'system', content: 'Sys.' }, u('first')]);
  });

  it('keeps the user message only when unsubscribed mid-answer, and streams unchanged', async () => {
    const { model, calls } = controlledModel();
    const chatMemory = new MessageWindowChatMemory();
    const seen: string[] = [];
    const subscription = clientWith(model, new PromptChatMemoryAdvisor({ chatMemory }))
      .prompt('story?')
      .stream()
      .content()
      .subscribe((delta) => seen.push(delta));
    await settle();
    calls[0].next(text('Once'));
    subscription.unsubscribe();
    expect(seen).toEqual(['Once']);
    expect(await chatMemory.get('c1')).toEqual([u('story?')]);
  });

  it('keeps the user message and rethrows when the model fails', async () => {
    const model = MockChatModel.script([{ text: 'Half', error: 'overloaded' }]);
    const chatMemory = new MessageWindowChatMemory();
    const error = await lastValueFrom(
      clientWith(model, new PromptChatMemoryAdvisor({ chatMemory })).prompt('hi').call().content(),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('mock: overloaded');
    expect(await chatMemory.get('c1')).toEqual([u('hi')]);
  });

  it('fails with the error of a ChatMemory that throws, without calling the model', async () => {
    const broken = new Error('no store');
    const model = MockChatModel.script([{ text: 'x' }]);
    const chatMemory = {
      get: () => Promise.reject(broken),
      add: () => Promise.resolve(),
      clear: () => Promise.resolve(),
    };
    const error = await lastValueFrom(
      clientWith(model, new PromptChatMemoryAdvisor({ chatMemory })).prompt('hi').call().content(),
    ).catch((e: unknown) => e);
    expect(error).toBe(broken);
    expect(model.calls).toBe(0);
  });

  it('stores the user message alone for an empty source, and runs each subscription as a turn', async () => {
    const model = MockChatModel.respond((_request, call) =>
      call === 1 ? { text: [] } : { text: 'second' },
    );
    const chatMemory = new MessageWindowChatMemory();
    const content$ = clientWith(model, new PromptChatMemoryAdvisor({ chatMemory }))
      .prompt('again')
      .call()
      .content();
    expect(await lastValueFrom(content$)).toBe('');
    expect(await lastValueFrom(content$)).toBe('second');
    expect(model.requests[1]?.messages[0]?.content).toContain('user: again');
    expect(await chatMemory.get('c1')).toEqual([u('again'), u('again'), a('second')]);
  });

  it('needs a conversation id', async () => {
    const model = MockChatModel.script([{ text: 'x' }]);
    const client = ChatClient.builder(model).defaultAdvisors(new PromptChatMemoryAdvisor()).build();
    const error = await lastValueFrom(client.prompt('hi').stream().chunks().pipe(toArray())).catch(
      (e: unknown) => e,
    );
    expect(MissingConversationIdError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ advisor: 'PromptChatMemoryAdvisor' });
  });

  it('defaults to Order.CHAT_MEMORY and rejects an order inside the tool loop or a bad template', () => {
    expect(new PromptChatMemoryAdvisor().order).toBe(Order.CHAT_MEMORY);
    expect(() => new PromptChatMemoryAdvisor({ order: Order.TOOL_CALLING + 1 })).toThrow(
      InvalidOptionsError,
    );
    expect(() => new PromptChatMemoryAdvisor({ order: Order.TOOL_CALLING + 1 })).toThrow('"order"');
    expect(() => new PromptChatMemoryAdvisor({ systemTemplate: 'no placeholders' })).toThrow(
      '"systemTemplate"',
    );
    expect(() => new PromptChatMemoryAdvisor({ systemTemplate: '{memory} only' })).toThrow(
      InvalidOptionsError,
    );
  });
});
