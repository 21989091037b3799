import { lastValueFrom, toArray } from 'rxjs';
import {
  advisor,
  aggregate,
  AdvisorParams,
  ChatClient,
  InvalidOptionsError,
  type Advisor,
  type Tool,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const fakeTool = (name: string): Tool =>
  ({
    name,
    description: name,
    inputSchema: { type: 'object' },
    returnDirect: false,
  }) as unknown as Tool;

describe('ChatClient', () => {
  it('sends system, messages, then user text, with defaults applied', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const client = ChatClient.builder(model)
      .defaultSystem('Answer in English.')
      .defaultOptions({ temperature: 0.2, maxTokens: 100 })
      .build();
    await lastValueFrom(
      client
        .prompt()
        .messages({ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'reply' })
        .user('now')
        .options({ maxTokens: 5 })
        .call()
        .content(),
    );
    const [request] = model.requests;
    expect(request.messages).toEqual([
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'now' },
    ]);
    expect(request.options).toEqual({ temperature: 0.2, maxTokens: 5 });
  });

  it('sends images and files given to user() on the user message', async () => {
    const model = MockChatModel.script([{ text: 'a cat' }, { text: 'no picture' }]);
    const client = ChatClient.builder(model).build();
    const photo = { mediaType: 'image/png', data: { base64: 'iVBORw0KGgo=' } } as const;
    const spec = client.prompt().user('What is this?', [photo]);
    await lastValueFrom(spec.call().content());
    await lastValueFrom(spec.user('And now?').call().content());
    expect(model.requests[0].messages).toEqual([
      { role: 'user', content: 'What is this?', media: [photo] },
    ]);
    expect(model.requests[1].messages).toEqual([{ role: 'user', content: 'And now?' }]);
  });

  it('lets a call replace the default system text', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const client = ChatClient.builder(model).defaultSystem('default').build();
    await lastValueFrom(client.prompt('hi').system('override').call().content());
    expect(model.requests[0].messages[0]).toEqual({ role: 'system', content: 'override' });
  });

  it('call() is stream() aggregated', async () => {
    const round = {
      id: 'resp',
      text: 'Hello streaming world',
      reasoning: 'hm',
      usage: { inputTokens: 4, outputTokens: 3 },
    };
    const client = ChatClient.create(MockChatModel.script([round, round]));
    const viaCall = await lastValueFrom(client.prompt('x').call().chatResponse());
    const viaStream = await lastValueFrom(client.prompt('x').stream().chunks().pipe(aggregate()));
    expect(viaCall).toEqual(viaStream);
    expect(viaCall.text).toBe('Hello streaming world');
    expect(viaCall.usage).toEqual({ inputTokens: 4, outputTokens: 3, totalTokens: 7 });
  });

  it('streams text deltas with stream().content()', async () => {
    const client = ChatClient.create(MockChatModel.script([{ text: 'one two three' }]));
    const deltas = await lastValueFrom(client.prompt('x').stream().content().pipe(toArray()));
    expect(deltas).toEqual(['one', ' two', ' three']);
  });

  it('puts advisor params into a fresh context per call, visible to every advisor', async () => {
    const seen: unknown[] = [];
    const contexts: Map<string, unknown>[] = [];
    const reader = advisor({
      name: 'reader',
      before: (r) => {
        seen.push(r.context.get(AdvisorParams.CONVERSATION_ID), r.context.get('tenant'));
        contexts.push(r.context);
        r.context.set('written', true);
        return r;
      },
    });
    const client = ChatClient.builder(MockChatModel.script([{ text: 'a' }, { text: 'b' }]))
      .defaultAdvisors(reader)
      .defaultAdvisorParams({ tenant: 't1' })
      .build();
    const content$ = client.prompt('x').advisorParams({ conversationId: 'c1' }).call().content();
    await lastValueFrom(content$);
    await lastValueFrom(content$);
    expect(seen).toEqual(['c1', 't1', 'c1', 't1']);
    expect(contexts[0]).not.toBe(contexts[1]);
  });

  it('carries tools, tool names from a registry and tool context on the request', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const getTime = fakeTool('getTime');
    const getUsers = fakeTool('getUsers');
    const registry = { get: (name: string) => (name === 'getUsers' ? getUsers : undefined) };
    const client = ChatClient.builder(model)
      .defaultTools(getTime)
      .defaultToolRegistry(registry)
      .defaultToolContext({ tenant: 't1' })
      .defaultAdvisorParams({ [AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER]: false })
      .build();
    await lastValueFrom(
      client.prompt('x').toolNames('getUsers').toolContext({ userId: 7 }).call().content(),
    );
    const [request] = model.requests;
    expect(request.tools.map((t) => t.name)).toEqual(['getTime', 'getUsers']);
    expect(request.toolContext).toEqual({ tenant: 't1', userId: 7 });
  });

  it('fails the call with a clear error for an unknown tool name', async () => {
    const client = ChatClient.create(MockChatModel.script([{ text: 'ok' }]));
    await expect(
      lastValueFrom(client.prompt('x').toolNames('nope').call().content()),
    ).rejects.toThrow(InvalidOptionsError);
  });

  it('does nothing until subscribed, and each subscription is one model call', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const content$ = ChatClient.create(model).prompt('x').call().content();
    expect(model.calls).toBe(0);
    expect(await lastValueFrom(content$)).toBe('a');
    expect(await lastValueFrom(content$)).toBe('b');
    expect(model.calls).toBe(2);
  });

  it('keeps prompt specs immutable', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const base = ChatClient.create(model).prompt('first');
    const changed = base.user('second');
    await lastValueFrom(base.call().content());
    await lastValueFrom(changed.call().content());
    expect(model.requests.map((r) => r.lastUserText)).toEqual(['first', 'second']);
  });

  it('runs per-call advisors after the default ones of the same order', async () => {
    const order: string[] = [];
    const named = (name: string): Advisor =>
      advisor({
        name,
        before: (r) => {
          order.push(name);
          return r;
        },
      });
    const client = ChatClient.builder(MockChatModel.script([{ text: 'ok' }]))
      .defaultAdvisors(named('default'))
      .build();
    await lastValueFrom(client.prompt('x').advisors(named('call')).call().content());
    expect(order).toEqual(['default', 'call']);
  });

  it('derives a variant client with mutate()', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const base = ChatClient.builder(model).defaultSystem('base').build();
    const variant = base.mutate().defaultSystem('variant').build();
    await lastValueFrom(base.prompt('x').call().content());
    await lastValueFrom(variant.prompt('x').call().content());
    expect(model.requests.map((r) => r.messages[0].content)).toEqual(['base', 'variant']);
  });

  it('rejects something that is not a model', () => {
    expect(() => ChatClient.builder({} as never)).toThrow(InvalidOptionsError);
  });
});
