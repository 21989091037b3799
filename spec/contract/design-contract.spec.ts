// The public API exactly as ../shared/DESIGN.md writes it: names, shapes and the
// behaviour its sections promise. Outside tests are written against these spellings.
import { lastValueFrom, toArray } from 'rxjs';
import {
  aggregate,
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  Order,
  ProviderError,
  recursiveAdvisor,
  RxAdvisorsError,
  StructuredOutputError,
  tool,
  ToolArgumentsError,
  ToolCallingAdvisor,
  ToolLoopLimitError,
  ToolNotFoundError,
  ToolRegistry,
  UsageAccumulator,
  type ChatChunk,
  type ChatResponse,
  type ToolContext,
} from 'rx-advisors';
import { toServerSentEvents } from 'rx-advisors/sse';
import { MockChatModel } from 'rx-advisors/testing';

const contexts: ToolContext[] = [];
const getTime = tool({
  name: 'getTime',
  description: 'The current time in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  } as const,
  execute: ({ city }, context) => {
    contexts.push(context);
    return `12:00 in ${city}`;
  },
});

function designModel() {
  return MockChatModel.script([
    {
      toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 10, outputTokens: 5 },
    },
    { text: 'It is noon in Paris.', usage: { inputTokens: 20, outputTokens: 7 } },
  ]);
}

describe('DESIGN.md contract', () => {
  beforeEach(() => {
    contexts.length = 0;
  });

  it('§1 ChatResponse: message, text, usage accumulated over rounds, finishReason, metadata.rounds', async () => {
    const model = designModel();
    const client = ChatClient.builder(model).defaultTools(getTime).build();
    const response: ChatResponse = await lastValueFrom(
      client.prompt('What time is it in Paris?').call().chatResponse(),
    );
    expect(response.text).toBe('It is noon in Paris.');
    expect(response.message).toEqual({ role: 'assistant', content: 'It is noon in Paris.' });
    expect(response.usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    expect(response.finishReason).toBe('stop');
    expect(response.metadata.rounds).toBe(2);
    expect(model.requests).toHaveLength(2);
    const round2 = model.requests[1].messages;
    expect(round2.at(-2)).toMatchObject({
      role: 'assistant',
      toolCalls: [{ name: 'getTime', arguments: '{"city":"Paris"}' }],
    });
    expect(round2.at(-1)).toMatchObject({
      role: 'tool',
      name: 'getTime',
      content: '12:00 in Paris',
    });
  });

  it('§1 UsageAccumulator: add(usage): this, addRoundResponse, total, applyTo', () => {
    const accumulator = new UsageAccumulator();
    expect(accumulator.add({ inputTokens: 10, outputTokens: 20, totalTokens: 30 })).toBe(
      accumulator,
    );
    accumulator.addRoundResponse({
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3, cacheReadTokens: 100 },
    });
    expect(accumulator.total).toEqual({
      inputTokens: 11,
      outputTokens: 22,
      totalTokens: 33,
      cacheReadTokens: 100,
    });
    expect(
      accumulator.applyTo({ usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } }).usage
        .totalTokens,
    ).toBe(33);
  });

  it('§2 MockChatModel.script records every request; a model is cold', async () => {
    const model = designModel();
    const stream$ = model.stream(
      (await import('rx-advisors')).ChatRequest.create({
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(model.requests).toEqual([]);
    const response = await lastValueFrom(stream$.pipe(aggregate()));
    expect(response.message.toolCalls).toEqual([
      { id: expect.any(String), name: 'getTime', arguments: '{"city":"Paris"}' },
    ]);
    expect(model.requests).toHaveLength(1);
  });

  it('§3 Order constants and default orders', () => {
    expect(Order.HIGHEST_PRECEDENCE).toBe(-2147483648);
    expect(Order.LOWEST_PRECEDENCE).toBe(2147483647);
    expect(new MessageChatMemoryAdvisor({ chatMemory: new MessageWindowChatMemory() }).order).toBe(
      Order.HIGHEST_PRECEDENCE + 200,
    );
    expect(new ToolCallingAdvisor().order).toBe(Order.HIGHEST_PRECEDENCE + 300);
  });

  it('§4 the tool loop: callers never see tool-call chunks; one usage, one finish, last', async () => {
    const client = ChatClient.builder(designModel()).defaultTools(getTime).build();
    const chunks: ChatChunk[] = await lastValueFrom(
      client.prompt('What time is it in Paris?').stream().chunks().pipe(toArray()),
    );
    expect(chunks.some((c) => c.type === 'tool-call' || c.type === 'tool-call-delta')).toBe(false);
    expect(chunks.filter((c) => c.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 } },
    ]);
    expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('§4 ToolContext carries values, signal, toolCallId and round', async () => {
    const client = ChatClient.builder(designModel()).defaultTools(getTime).build();
    await lastValueFrom(client.prompt('x').toolContext({ userId: 7 }).call().content());
    expect(contexts).toHaveLength(1);
    expect(contexts[0].values).toEqual({ userId: 7 });
    expect(contexts[0].signal).toBeInstanceOf(AbortSignal);
    expect(contexts[0].toolCallId).toEqual(expect.any(String));
    expect(contexts[0].round).toBe(1);
  });

  it('§4 return direct ends the loop after one model call with the tool result as text', async () => {
    const model = designModel();
    const direct = tool({ ...getTimeOptions(), returnDirect: true });
    const response = await lastValueFrom(
      ChatClient.builder(model).defaultTools(direct).build().prompt('x').call().chatResponse(),
    );
    expect(response.text).toBe('12:00 in Paris');
    expect(response.finishReason).toBe('return-direct');
    expect(model.requests).toHaveLength(1);
  });

  it('§4 maxRounds gives a ToolLoopLimitError with rounds; errors extend RxAdvisorsError', async () => {
    const looping = MockChatModel.script(
      [{ toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] }],
      {
        onExhausted: 'repeat-last',
      },
    );
    const client = ChatClient.builder(looping)
      .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: 5 }))
      .defaultTools(getTime)
      .build();
    const error: unknown = await lastValueFrom(client.prompt('x').call().content()).catch(
      (e: unknown) => e,
    );
    expect(ToolLoopLimitError.isInstance(error)).toBe(true);
    expect((error as ToolLoopLimitError).rounds).toBe(5);
    expect(error).toBeInstanceOf(RxAdvisorsError);
  });

  it('§4 a bad argument or an unknown tool is a result the model sees, not a crash', async () => {
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'getTime', arguments: '{"city":' },
          { name: 'nope', arguments: {} },
        ],
      },
      { text: 'recovered' },
    ]);
    const text = await lastValueFrom(
      ChatClient.builder(model).defaultTools(getTime).build().prompt('x').call().content(),
    );
    expect(text).toBe('recovered');
    const results = model.requests[1].messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(2);
    expect(results.every((m) => m.role === 'tool' && m.isError === true)).toBe(true);
    expect(typeof ToolArgumentsError.isInstance).toBe('function');
    expect(typeof ToolNotFoundError.isInstance).toBe('function');
  });

  it('§4 tools by name from a ToolRegistry, and auto-registration can be switched off', async () => {
    const registry = new ToolRegistry();
    registry.register(getTime);
    const model = designModel();
    const client = ChatClient.builder(model).defaultToolRegistry(registry).build();
    const response = await lastValueFrom(
      client
        .prompt('x')
        .toolNames('getTime')
        .advisorParams({ toolCallingAdvisorAutoRegister: false })
        .call()
        .chatResponse(),
    );
    expect(response.message.toolCalls).toEqual([expect.objectContaining({ name: 'getTime' })]);
    expect(model.requests).toHaveLength(1);
  });

  it('§4 StructuredOutputValidationAdvisor via entity(schema, { validate: true }) retries, then StructuredOutputError', async () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    } as const;
    const good = MockChatModel.script([{ text: '{"n":"one"}' }, { text: '{"n":1}' }]);
    expect(
      await lastValueFrom(
        ChatClient.create(good).prompt('x').call().entity(schema, { validate: true }),
      ),
    ).toEqual({ n: 1 });
    expect(good.requests).toHaveLength(2);
    const bad = MockChatModel.script([{ text: 'no' }], { onExhausted: 'repeat-last' });
    const error: unknown = await lastValueFrom(
      ChatClient.create(bad).prompt('x').call().entity(schema, { validate: true }),
    ).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect((error as StructuredOutputError).attempts).toBe(3);
    expect((error as StructuredOutputError).lastText).toBe('no');
  });

  it('§4 recursiveAdvisor({ name, order, next }) is the shared building block', () => {
    const advisor = recursiveAdvisor({ name: 'again', order: 10, next: () => undefined });
    expect(advisor.name).toBe('again');
    expect(advisor.order).toBe(10);
  });

  it('§5 the ChatClient surface', async () => {
    const client = ChatClient.builder(designModel())
      .defaultSystem('Answer in English.')
      .defaultAdvisors(
        new MessageChatMemoryAdvisor({
          chatMemory: new MessageWindowChatMemory({ maxMessages: 20 }),
        }),
      )
      .defaultTools(getTime)
      .build();
    const deltas = await lastValueFrom(
      client
        .prompt('What time is it in Paris?')
        .advisorParams({ conversationId: 'c1' })
        .stream()
        .content()
        .pipe(toArray()),
    );
    expect(deltas.join('')).toBe('It is noon in Paris.');
  });

  it('§7 toServerSentEvents turns chunks into frames ending with a done event', async () => {
    const client = ChatClient.create(
      MockChatModel.script([{ text: 'a\n\nevent: done\ndata: forged' }]),
    );
    const frames = await lastValueFrom(
      client.prompt('x').stream().chunks().pipe(toServerSentEvents(), toArray()),
    );
    const body = frames.join('');
    expect(body).toContain('event: done');
    expect(body.match(/^event: done$/gm)).toHaveLength(1);
  });

  it('§4 ProviderError carries status, provider and retryable', () => {
    const error = new ProviderError({
      provider: 'openai',
      message: 'rate limited',
      status: 429,
      retryable: true,
    });
    expect([error.provider, error.status, error.retryable]).toEqual(['openai', 429, true]);
  });
});

function getTimeOptions() {
  return {
    name: 'getTime',
    description: 'The current time in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    } as const,
    execute: ({ city }: { city: string }) => `12:00 in ${city}`,
  };
}
