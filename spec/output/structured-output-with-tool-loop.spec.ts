import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  Order,
  StructuredOutputValidationAdvisor,
  ToolCallingAdvisor,
  tool,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const weather = {
  type: 'object',
  properties: { city: { type: 'string' }, tempC: { type: 'number' } },
  required: ['city', 'tempC'],
  additionalProperties: false,
} as const;

function setup() {
  const executed: string[] = [];
  const getWeather = tool({
    name: 'getWeather',
    description: 'The temperature in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    } as const,
    execute: ({ city }) => {
      executed.push(city);
      return `21°C in ${city}`;
    },
  });
  const model = MockChatModel.script([
    {
      toolCalls: [{ id: 't1', name: 'getWeather', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 10, outputTokens: 3 },
    },
    { text: 'It is 21°C and sunny in Paris.', usage: { inputTokens: 20, outputTokens: 8 } },
    { text: '{"city": "Paris", "tempC": 21}', usage: { inputTokens: 40, outputTokens: 9 } },
  ]);
  const client = ChatClient.builder(model)
    .defaultAdvisors(new StructuredOutputValidationAdvisor({ outputSchema: weather }))
    .defaultTools(getWeather)
    .build();
  return { client, model, executed };
}

describe('StructuredOutputValidationAdvisor with the tool loop below it', () => {
  it('sits outside the tool loop by default', () => {
    expect(new StructuredOutputValidationAdvisor({ outputSchema: weather }).order).toBeLessThan(
      new ToolCallingAdvisor().order,
    );
    expect(Order.STRUCTURED_OUTPUT).toBeGreaterThan(Order.CHAT_MEMORY);
  });

  it('never validates a tool round; a retry keeps the tool results so tools do not run again', async () => {
    const { client, model, executed } = setup();
    const response = await firstValueFrom(
      client.prompt('Weather in Paris as JSON?').call().chatResponse(),
    );

    expect(JSON.parse(response.text)).toEqual({ city: 'Paris', tempC: 21 });
    expect(model.calls).toBe(3);
    expect(executed).toEqual(['Paris']);

    // Round 2 of attempt 1 follows the tool round directly: no validation feedback in between.
    const round2 = model.requests[1].messages;
    expect(round2.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(round2[3]).toMatchObject({ role: 'tool', toolCallId: 't1', content: '21°C in Paris' });

    // Attempt 2: the original messages, the tool round, the rejected answer, the errors.
    const retry = model.requests[2].messages;
    expect(retry.slice(0, 4)).toEqual(round2);
    expect(retry[4]).toEqual({ role: 'assistant', content: 'It is 21°C and sunny in Paris.' });
    expect(retry[5].role).toBe('user');
    expect(retry[5].content).toContain('- (answer): the answer contains no JSON object or array');
    expect(retry).toHaveLength(6);

    expect(response.metadata.rounds).toBe(3);
    expect(response.usage).toEqual({ inputTokens: 70, outputTokens: 20, totalTokens: 90 });
  });

  it('streams every round, then one retry chunk, and ends with one metadata, usage and finish', async () => {
    const { client } = setup();
    const chunks: ChatChunk[] = await lastValueFrom(
      client.prompt('Weather in Paris as JSON?').stream().chunks().pipe(toArray()),
    );
    const kinds = chunks.map((c) => c.type);
    expect(kinds.filter((k) => k === 'retry')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'tool-call')).toHaveLength(0);
    expect(kinds.slice(-3)).toEqual(['metadata', 'usage', 'finish']);
    expect(kinds.filter((k) => k === 'finish')).toHaveLength(1);
    expect(chunks.at(-3)).toMatchObject({ type: 'metadata', rounds: 3 });
  });
});

describe('StructuredOutputValidationAdvisor inside chat memory', () => {
  it('stores the user message once and only the final answer, however many retries', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const model = MockChatModel.script([
      { text: 'not json' },
      { text: '{"city": "Oslo", "tempC": 3}' },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new MessageChatMemoryAdvisor({ chatMemory }),
        new StructuredOutputValidationAdvisor({ outputSchema: weather }),
      )
      .build();
    const entity = await firstValueFrom(
      client
        .prompt('Weather in Oslo?')
        .advisorParams({ conversationId: 'c1' })
        .call()
        .entity(weather),
    );
    expect(entity).toEqual({ city: 'Oslo', tempC: 3 });
    expect(await chatMemory.get('c1')).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: '{"city": "Oslo", "tempC": 3}' },
    ]);
  });
});
