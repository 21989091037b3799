// A tool returns an image: through the tool loop and the real openai SDK, the Responses API
// gets it as input_image in function_call_output; Chat Completions refuses it before sending.
import { lastValueFrom } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client.js';
import type { ToolResultContent } from '../../../lib/core/tool-result-content.js';
import { UnsupportedMediaError } from '../../../lib/errors/unsupported-media-error.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { failure, openAiClient } from '../support/clients.js';
import { responsesRounds } from '../support/fixtures.js';
import { PNG_BASE64 } from '../support/media.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { syntheticChatToolCallStream } from '../support/synthetic-streams.js';

jest.setTimeout(20_000);

/** A tool named `name` that answers with a text and a PNG chart (base64). */
function chartTool(name: string) {
  return tool({
    name,
    description: 'A weather chart for a place',
    parameters: { type: 'object', properties: { location: { type: 'string' } } },
    execute: ({ location }) => location ?? 'here',
    resultConverter: (place: string): ToolResultContent => ({
      content: `Chart for ${place}.`,
      media: [{ mediaType: 'image/png', data: { base64: PNG_BASE64 } }],
    }),
  });
}

describe('OpenAiChatModel: a tool result with an image, through the tool loop', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  it('Responses: sends it as input_image in the function_call_output list', async () => {
    // Round 1 (recorded) calls `weather` for San Francisco; round 2 is a recorded text answer.
    const [toolRound] = responsesRounds('azure-tool-call.1.chunks.txt');
    const answer = responsesRounds('openai-reasoning-encrypted-content.1.chunks.txt').at(-1);
    server.enqueue({ kind: 'sse', body: toolRound ?? '' }, { kind: 'sse', body: answer ?? '' });
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
    const before = server.requests.length;

    await lastValueFrom(
      ChatClient.create(model).prompt('Weather?').tools(chartTool('weather')).call().content(),
    );

    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1].body.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_H5DxLSFnsGhiROnUiDHmgyc8',
      output: [
        { type: 'input_text', text: 'Chart for San Francisco.' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}` },
      ],
    });
  });

  it('Chat Completions: fails round 2 with an UnsupportedMediaError before sending it', async () => {
    server.enqueue({ kind: 'sse', body: syntheticChatToolCallStream(['{"location":', '"Oslo"}']) });
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    const before = server.requests.length;

    const error = await failure(
      ChatClient.create(model).prompt('Weather?').tools(chartTool('lookup')).call().content(),
    );

    expect(UnsupportedMediaError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: 'openai-chat-completions',
      mediaType: 'image/png',
      role: 'tool',
    });
    // Round 1 went out; round 2, with the image, never did.
    expect(server.requests.length - before).toBe(1);
  });
});
