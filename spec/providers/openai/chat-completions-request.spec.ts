import { lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { openAiClient } from '../support/clients.js';
import { getTime, secondRoundRequest } from '../support/conversation.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';
import { syntheticChatText } from '../support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

describe('OpenAiChatModel (chat): the JSON the openai SDK sends', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  async function sentBody(
    model: OpenAiChatModel,
    request = secondRoundRequest(),
  ): Promise<WireJson> {
    server.enqueue({ kind: 'sse', body: syntheticChatText() });
    await lastValueFrom(model.stream(request).pipe(aggregate()));
    const sent = server.requests[server.requests.length - 1];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    return sent.body;
  }

  it('sends a two-round tool conversation as Chat Completions messages', async () => {
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    const body = await sentBody(model);
    expect(body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What time is it in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'call_paris',
              type: 'function',
              function: { name: 'getTime', arguments: '{"city":"Paris"}' },
            },
            {
              id: 'call_tokyo',
              type: 'function',
              function: { name: 'getTime', arguments: '{"city":"Tokyo"}' },
            },
          ],
        },
        // Tool call ids round-trip; an error result is sent as its text (no error flag exists).
        { role: 'tool', tool_call_id: 'call_paris', content: '12:00 in Paris' },
        { role: 'tool', tool_call_id: 'call_tokyo', content: 'Tokyo is not available' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'getTime',
            description: 'The current time in a city',
            parameters: getTime.inputSchema,
          },
        },
      ],
    });
  });

  it('maps options, merging the model defaults under the request’s own', async () => {
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-default',
      options: { temperature: 1, topP: 0.5, extra: { user: 'default-user', seed: 1 } },
    });
    const body = await sentBody(
      model,
      secondRoundRequest({
        model: 'gpt-override',
        temperature: 0,
        maxTokens: 100,
        stop: ['END'],
        toolChoice: { type: 'tool', name: 'getTime' },
        responseFormat: { type: 'json-schema', name: 'answer', schema: { type: 'object' } },
        extra: { seed: 42 },
      }),
    );
    expect(body).toMatchObject({
      model: 'gpt-override',
      temperature: 0,
      top_p: 0.5,
      max_completion_tokens: 100,
      stop: ['END'],
      tool_choice: { type: 'function', function: { name: 'getTime' } },
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
      user: 'default-user',
      seed: 42,
    });
    expect(body).not.toHaveProperty('max_tokens');
  });

  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
  ] as const)('maps toolChoice %s', async (choice, sent) => {
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    expect((await sentBody(model, secondRoundRequest({ toolChoice: choice }))).tool_choice).toBe(
      sent,
    );
  });

  it('maps json and text response formats, and max_tokens for older compatible servers', async () => {
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'llama',
      maxTokensField: 'max_tokens',
      includeUsage: false,
    });
    const json = await sentBody(
      model,
      secondRoundRequest({ responseFormat: { type: 'json' }, maxTokens: 5 }),
    );
    expect(json.response_format).toEqual({ type: 'json_object' });
    expect(json.max_tokens).toBe(5);
    expect(json).not.toHaveProperty('stream_options');
    const text = await sentBody(model, secondRoundRequest({ responseFormat: { type: 'text' } }));
    expect(text.response_format).toEqual({ type: 'text' });
  });

  it('sends an assistant turn that is only tool calls with content null', async () => {
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    const request = secondRoundRequest();
    const onlyCalls = request.withMessages(
      request.messages.map((message) =>
        message.role === 'assistant' ? { ...message, content: '' } : message,
      ),
    );
    const body = await sentBody(model, onlyCalls);
    expect(body.messages[2]).toMatchObject({ role: 'assistant', content: null });
  });
});
