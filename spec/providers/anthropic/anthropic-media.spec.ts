// Images and documents through the real @anthropic-ai/sdk to a loopback server.
import type { ChatRequest } from '../../../lib/core/chat-request.js';
import type { MediaPart } from '../../../lib/core/media-part.js';
import { UnsupportedMediaError } from '../../../lib/errors/unsupported-media-error.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { anthropicClient, failure } from '../support/clients.js';
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
  sentBody as sentBodyOf,
} from '../support/media.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';
import { syntheticAnthropicText } from '../support/synthetic-streams.js';

jest.setTimeout(20_000);

describe('AnthropicChatModel: images and documents', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const model = (): AnthropicChatModel =>
    new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' });

  const sentBody = (request: ChatRequest): Promise<WireJson> =>
    sentBodyOf(server, model(), request, { kind: 'sse', body: syntheticAnthropicText() });

  it('sends image and document blocks before the text', async () => {
    const text: MediaPart = {
      mediaType: 'text/plain',
      data: { bytes: new TextEncoder().encode('Grüße') },
      filename: 'notes.txt',
    };
    const body = await sentBody(
      userMediaRequest([imageByUrl, imageBytes, pdfBase64, pdfByUrl, text]),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: IMAGE_URL } },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
          },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
            title: 'report.pdf',
          },
          { type: 'document', source: { type: 'url', url: PDF_URL } },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'Grüße' },
            title: 'notes.txt',
          },
          { type: 'text', text: 'What is in these?' },
        ],
      },
    ]);
  });

  it('sends no empty text block when a message is media only', async () => {
    const body = await sentBody(userMediaRequest([imageByUrl], ''));
    expect(body.messages[0].content).toEqual([
      { type: 'image', source: { type: 'url', url: IMAGE_URL } },
    ]);
  });

  it('sends a tool result with media as tool_result content blocks', async () => {
    const body = await sentBody(toolMediaRequest([imageBytes]));
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_shot',
          content: [
            { type: 'text', text: 'Done.' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
            },
          ],
        },
      ],
    });
  });

  it('refuses audio, and plain text by URL, before sending', async () => {
    const before = server.requests.length;
    const audio: MediaPart = { mediaType: 'audio/wav', data: { base64: 'UklGRg==' } };
    const error = await failure(model().stream(toolMediaRequest([audio])));
    expect(UnsupportedMediaError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'anthropic', mediaType: 'audio/wav', role: 'tool' });
    const textUrl: MediaPart = {
      mediaType: 'text/plain',
      data: { url: 'https://example.com/a.txt' },
    };
    const second = await failure(model().stream(userMediaRequest([textUrl])));
    expect(second).toMatchObject({ mediaType: 'text/plain', role: 'user' });
    expect(server.requests.length).toBe(before);
  });
});
