import { lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { openAiClient } from '../support/clients.js';
import { getTime, secondRoundRequest } from '../support/conversation.js';
import { responsesRounds } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

describe('OpenAiChatModel (responses): the JSON the openai SDK sends', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  it('sends a two-round tool conversation as Responses input items', async () => {
    server.enqueue({ kind: 'sse', body: responsesRounds('azure-tool-call.1.chunks.txt')[0] });
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
    await lastValueFrom(
      model
        .stream(
          secondRoundRequest({
            toolChoice: 'required',
            maxTokens: 64,
            temperature: 0.2,
            responseFormat: { type: 'json-schema', schema: { type: 'object' }, strict: false },
          }),
        )
        .pipe(aggregate()),
    );
    const sent = server.requests[server.requests.length - 1];
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toEqual({
      model: 'gpt-test',
      stream: true,
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What time is it in Paris and Tokyo?' },
        { role: 'assistant', content: 'Let me check.' },
        {
          type: 'function_call',
          call_id: 'call_paris',
          name: 'getTime',
          arguments: '{"city":"Paris"}',
        },
        {
          type: 'function_call',
          call_id: 'call_tokyo',
          name: 'getTime',
          arguments: '{"city":"Tokyo"}',
        },
        { type: 'function_call_output', call_id: 'call_paris', output: '12:00 in Paris' },
        { type: 'function_call_output', call_id: 'call_tokyo', output: 'Tokyo is not available' },
      ],
      tools: [
        {
          type: 'function',
          name: 'getTime',
          description: 'The current time in a city',
          parameters: getTime.inputSchema,
          strict: false,
        },
      ],
      tool_choice: 'required',
      max_output_tokens: 64,
      temperature: 0.2,
      text: {
        format: {
          type: 'json_schema',
          name: 'response',
          schema: { type: 'object' },
          strict: false,
        },
      },
    });
  });
});
