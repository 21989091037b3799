import { lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { Message } from '../../../lib/core/message.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { anthropicClient } from '../support/clients.js';
import { getTime, secondRoundRequest } from '../support/conversation.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';
import { syntheticAnthropicText } from '../support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

describe('AnthropicChatModel: the JSON @anthropic-ai/sdk sends', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  async function sentBody(
    model: AnthropicChatModel,
    request = secondRoundRequest(),
  ): Promise<WireJson> {
    server.enqueue({ kind: 'sse', body: syntheticAnthropicText() });
    await lastValueFrom(model.stream(request).pipe(aggregate()));
    const sent = server.requests[server.requests.length - 1];
    expect(sent.path).toBe('/v1/messages');
    return sent.body;
  }

  const model = (): AnthropicChatModel =>
    new AnthropicChatModel({
      client: anthropicClient(server),
      model: 'claude-test',
      maxTokens: 512,
    });

  it('sends a two-round tool conversation as Messages: system apart, tool results as user blocks', async () => {
    // A late system message and a user follow-up after the tool results, on purpose.
    const extra: Message[] = [
      { role: 'system', content: 'Use 24-hour time.' },
      { role: 'user', content: 'And be quick.' },
    ];
    const body = await sentBody(model(), secondRoundRequest({}, extra));
    expect(body).toEqual({
      model: 'claude-test',
      max_tokens: 512,
      stream: true,
      system: 'Be brief.\n\nUse 24-hour time.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What time is it in Paris and Tokyo?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'call_paris', name: 'getTime', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_tokyo', name: 'getTime', input: { city: 'Tokyo' } },
          ],
        },
        // Both tool results and the follow-up are merged into one user turn, results first.
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_paris', content: '12:00 in Paris' },
            {
              type: 'tool_result',
              tool_use_id: 'call_tokyo',
              content: 'Tokyo is not available',
              is_error: true,
            },
            { type: 'text', text: 'And be quick.' },
          ],
        },
      ],
      tools: [
        {
          name: 'getTime',
          description: 'The current time in a city',
          input_schema: getTime.inputSchema,
        },
      ],
    });
  });

  it('sends reasoning blocks back as thinking and redacted_thinking before the turn’s text', async () => {
    const request = secondRoundRequest();
    const withReasoning = request.withMessages(
      request.messages.map((message) =>
        message.role === 'assistant'
          ? {
              ...message,
              reasoning: [
                { text: '', redactedData: 'EmwKAhgBEgy3va3pzix' },
                { text: 'Need the time.', signature: 'sig-1' },
                { text: 'unsigned, cannot be verified' },
              ],
            }
          : message,
      ),
    );
    const body = await sentBody(model(), withReasoning);
    expect(body.messages[1].content.slice(0, 3)).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'thinking', thinking: 'Need the time.', signature: 'sig-1' },
      { type: 'text', text: 'Let me check.' },
    ]);
  });

  it('maps options: tool choice, native structured output, stop sequences, sampling, extra', async () => {
    const body = await sentBody(
      model(),
      secondRoundRequest({
        model: 'claude-override',
        maxTokens: 99,
        toolChoice: 'required',
        responseFormat: {
          type: 'json-schema',
          schema: { type: 'object', additionalProperties: false },
        },
        stop: ['END'],
        temperature: 0,
        topP: 0.9,
        extra: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      }),
    );
    expect(body).toMatchObject({
      model: 'claude-override',
      max_tokens: 99,
      tool_choice: { type: 'any' },
      output_config: {
        format: { type: 'json_schema', schema: { type: 'object', additionalProperties: false } },
      },
      stop_sequences: ['END'],
      temperature: 0,
      top_p: 0.9,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    [
      { type: 'tool', name: 'getTime' },
      { type: 'tool', name: 'getTime' },
    ],
  ] as const)('maps toolChoice %j', async (choice, sent) => {
    expect(
      (await sentBody(model(), secondRoundRequest({ toolChoice: choice }))).tool_choice,
    ).toEqual(sent);
  });

  it('sends tool input it cannot parse (cut off by max_tokens) as the empty object', async () => {
    const request = secondRoundRequest();
    const truncated = request.withMessages(
      request.messages
        .map((message) =>
          message.role === 'assistant'
            ? {
                ...message,
                toolCalls: [{ id: 'call_paris', name: 'getTime', arguments: '{"city": "Par' }],
              }
            : message,
        )
        .filter((message) => message.role !== 'tool' || message.toolCallId === 'call_paris'),
    );
    const body = await sentBody(model(), truncated);
    expect(body.messages[1].content[1]).toEqual({
      type: 'tool_use',
      id: 'call_paris',
      name: 'getTime',
      input: {},
    });
  });
});
