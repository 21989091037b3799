// Images and files through the real openai SDK (Responses API) to a loopback server.
import type { ChatRequest } from '../../../lib/core/chat-request.js';
import type { MediaPart } from '../../../lib/core/media-part.js';
import { UnsupportedMediaError } from '../../../lib/errors/unsupported-media-error.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { failure, openAiClient } from '../support/clients.js';
import { responsesRounds } from '../support/fixtures.js';
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

jest.setTimeout(20_000);

describe('OpenAiChatModel (responses): images and files', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const model = (): OpenAiChatModel =>
    new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test', api: 'responses' });

  const sentBody = (request: ChatRequest): Promise<WireJson> =>
    sentBodyOf(server, model(), request, {
      kind: 'sse',
      body: responsesRounds('azure-tool-call.1.chunks.txt')[0],
    });

  it('sends input_text, input_image (URL or data URL) and input_file (URL or data URL)', async () => {
    const body = await sentBody(userMediaRequest([imageByUrl, imageBytes, pdfBase64, pdfByUrl]));
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in these?' },
          { type: 'input_image', image_url: IMAGE_URL, detail: 'auto' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}`, detail: 'auto' },
          {
            type: 'input_file',
            file_data: `data:application/pdf;base64,${PDF_BASE64}`,
            filename: 'report.pdf',
          },
          { type: 'input_file', file_url: PDF_URL },
        ],
      },
    ]);
  });

  it('sends a tool result with media as a function_call_output content list', async () => {
    const body = await sentBody(
      toolMediaRequest([
        imageBytes,
        { mediaType: 'application/pdf', data: { base64: PDF_BASE64 } },
      ]),
    );
    expect(body.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_shot',
      output: [
        { type: 'input_text', text: 'Done.' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}` },
        {
          type: 'input_file',
          file_data: `data:application/pdf;base64,${PDF_BASE64}`,
          filename: 'file.pdf',
        },
      ],
    });
  });

  it('refuses audio before sending', async () => {
    const before = server.requests.length;
    const audio: MediaPart = { mediaType: 'audio/mpeg', data: { base64: 'SUQz' } };
    const error = await failure(model().stream(userMediaRequest([audio])));
    expect(server.requests.length).toBe(before);
    expect(UnsupportedMediaError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: 'openai-responses',
      mediaType: 'audio/mpeg',
      role: 'user',
    });
  });
});
