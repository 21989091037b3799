// Images and files through the bridge and real AI SDK provider packages (@ai-sdk/google,
// @ai-sdk/mistral 3.x and 2.x, @ai-sdk/anthropic) to a loopback server.
import { createAnthropic } from '@ai-sdk/anthropic';
import type { ChatRequest } from '../../../lib/core/chat-request.js';
import type { MediaPart } from '../../../lib/core/media-part.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { UnsupportedMediaError } from '../../../lib/errors/unsupported-media-error.js';
import { AiSdkChatModel } from '../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import { failure } from '../support/clients.js';
import {
  IMAGE_URL,
  imageByUrl,
  imageBytes,
  PDF_BASE64,
  PDF_URL,
  pdfBase64,
  pdfByUrl,
  PNG_BASE64,
  toolMediaRequest,
  userMediaRequest,
  mediaRefusal,
  sentBody as sentBodyOf,
} from '../support/media.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';
import { syntheticAnthropicText } from '../support/synthetic-streams.js';
import { googleModel, mistralModel, mistralV2Model, replay } from './support/ai-sdk-targets.js';

jest.setTimeout(20_000);

describe('AiSdkChatModel: images and files', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const sentBody = (
    model: AiSdkChatModel,
    request: ChatRequest,
    reply = replay('google-text.chunks.txt'),
  ): Promise<WireJson> => sentBodyOf(server, model, request, reply);
  const refusal = (model: AiSdkChatModel, request: ChatRequest) =>
    mediaRefusal(server, model, request);

  it('@ai-sdk/google: inline parts become inlineData after the text', async () => {
    const body = await sentBody(googleModel(server), userMediaRequest([imageBytes, pdfBase64]));
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is in these?' },
          { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
          { inlineData: { mimeType: 'application/pdf', data: PDF_BASE64 } },
        ],
      },
    ]);
  });

  it('@ai-sdk/google: a tool result image becomes an inlineData function response part', async () => {
    const body = await sentBody(googleModel(server), toolMediaRequest([imageBytes]));
    expect(JSON.stringify(body.contents.at(-1))).toContain(
      JSON.stringify({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }),
    );
  });

  it('@ai-sdk/google: an https image URL (in its supportedUrls) goes as fileData', async () => {
    const body = await sentBody(googleModel(server), userMediaRequest([imageByUrl]));
    expect(body.contents[0].parts[1]).toEqual({
      fileData: { mimeType: 'image/jpeg', fileUri: IMAGE_URL },
    });
  });

  it('refuses a URL the model does not fetch itself (its supportedUrls); the bridge never downloads', async () => {
    const error = await refusal(mistralModel(server), userMediaRequest([imageByUrl]));
    expect(error).toMatchObject({ mediaType: 'image/jpeg', role: 'user' });
    expect(error.reason).toMatch(/supportedUrls/);
  });

  it('@ai-sdk/mistral: a PDF by https URL (in its supportedUrls) goes as document_url', async () => {
    const body = await sentBody(
      mistralModel(server),
      userMediaRequest([pdfByUrl, imageBytes]),
      replay('mistral-text.chunks.txt'),
    );
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'document_url', document_url: PDF_URL },
      { type: 'image_url', image_url: `data:image/png;base64,${PNG_BASE64}` },
    ]);
  });

  it('@ai-sdk/mistral: a type the package refuses becomes an UnsupportedMediaError before sending', async () => {
    const text: MediaPart = { mediaType: 'text/plain', data: { base64: 'aGk=' } };
    const error = await refusal(mistralModel(server), userMediaRequest([text]));
    expect(error).toMatchObject({ mediaType: 'text/plain', role: 'user' });
    expect(error.reason).toMatch(/Only images and PDF/);
  });

  it('keeps a package refusal that is not about media a ProviderError', async () => {
    const request = userMediaRequest([imageBytes]).withOptions({
      responseFormat: {
        type: 'json-schema',
        schema: { type: 'object', properties: { kind: { enum: [1, 'a'] } } },
      },
    });
    const error = await failure(googleModel(server).stream(request));
    expect(UnsupportedMediaError.isInstance(error)).toBe(false);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/enum/i);
  });

  it('@ai-sdk/mistral 2.x (V2): tool-result media go as V2 `media` items; a URL is refused', async () => {
    const body = await sentBody(
      mistralV2Model(server),
      toolMediaRequest([imageBytes]),
      replay('mistral-text.chunks.txt'),
    );
    const toolMessage = body.messages.find((message: WireJson) => message.role === 'tool');
    expect(JSON.parse(toolMessage.content)).toEqual([
      { type: 'text', text: 'Done.' },
      { type: 'media', data: PNG_BASE64, mediaType: 'image/png' },
    ]);
    const error = await refusal(mistralV2Model(server), toolMediaRequest([pdfByUrl]));
    expect(error).toMatchObject({ role: 'tool', mediaType: 'application/pdf' });
  });

  it('@ai-sdk/anthropic: a tool result image becomes an image block of the tool_result', async () => {
    const anthropic = createAnthropic({ apiKey: 'sk-ant-test', baseURL: server.url });
    const model = new AiSdkChatModel({ model: anthropic('claude-sonnet-4-5') });
    const body = await sentBody(model, toolMediaRequest([imageBytes]), {
      kind: 'sse',
      body: syntheticAnthropicText(),
    });
    expect(body.messages.at(-1).content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_shot',
        content: [
          { type: 'text', text: 'Done.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        ],
      },
    ]);
  });
});
