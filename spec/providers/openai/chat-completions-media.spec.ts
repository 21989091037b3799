// Images and files through the real openai SDK (Chat Completions) to a loopback server:
// what reaches the wire, and what is refused before anything is sent.
import type { ChatRequest } from '../../../lib/core/chat-request.js';
import type { MediaPart } from '../../../lib/core/media-part.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { openAiClient } from '../support/clients.js';
import {
  IMAGE_URL,
  imageByUrl,
  imageBytes,
  PDF_BASE64,
  pdfBase64,
  pdfByUrl,
  PNG_BASE64,
  toolMediaRequest,
  userMediaRequest,
  mediaRefusal,
  sentBody as sentBodyOf,
} from '../support/media.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';
import { syntheticChatText } from '../support/synthetic-streams.js';

jest.setTimeout(20_000);

describe('OpenAiChatModel (chat): images and files', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const model = (): OpenAiChatModel =>
    new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });

  const sentBody = (request: ChatRequest): Promise<WireJson> =>
    sentBodyOf(server, model(), request, { kind: 'sse', body: syntheticChatText() });
  const refusal = (request: ChatRequest) => mediaRefusal(server, model(), request);

  it('sends the text then image_url parts (URL or data URL) and PDF file parts', async () => {
    const wav: MediaPart = { mediaType: 'audio/wav', data: { base64: 'UklGRg==' } };
    const body = await sentBody(userMediaRequest([imageByUrl, imageBytes, pdfBase64, wav]));
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: IMAGE_URL } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          {
            type: 'file',
            file: {
              file_data: `data:application/pdf;base64,${PDF_BASE64}`,
              filename: 'report.pdf',
            },
          },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ]);
  });

  it('keeps a text-only user message a plain string', async () => {
    const body = await sentBody(userMediaRequest([], 'Hi'));
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('refuses a PDF by URL before sending', async () => {
    const error = await refusal(userMediaRequest([pdfByUrl]));
    expect(error).toMatchObject({
      provider: 'openai-chat-completions',
      mediaType: 'application/pdf',
      role: 'user',
    });
    expect(error.message).toMatch(/inline/);
  });

  it('refuses media types it cannot take and malformed parts', async () => {
    const video: MediaPart = { mediaType: 'video/mp4', data: { base64: 'AAAA' } };
    expect(await refusal(userMediaRequest([video]))).toMatchObject({ mediaType: 'video/mp4' });
    const notBase64: MediaPart = {
      mediaType: 'image/png',
      data: { base64: 'data:image/png;base64,xx' },
    };
    expect((await refusal(userMediaRequest([notBase64]))).reason).toMatch(/base64/);
    const twoSources = {
      mediaType: 'image/png',
      data: { url: IMAGE_URL, base64: 'AAAA' },
    } as unknown as MediaPart;
    expect((await refusal(userMediaRequest([twoSources]))).reason).toMatch(/exactly one/);
    const fileUrl: MediaPart = { mediaType: 'image/png', data: { url: 'file:///etc/passwd' } };
    expect((await refusal(userMediaRequest([fileUrl]))).reason).toMatch(/http/);
  });

  it('refuses media on a tool result: Chat Completions tool messages are text only', async () => {
    const error = await refusal(toolMediaRequest([imageBytes]));
    expect(error).toMatchObject({ role: 'tool', mediaType: 'image/png' });
  });
});
