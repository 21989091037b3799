import { lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatModel } from '../../../lib/core/chat-model.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { MediaPart } from '../../../lib/core/media-part.js';
import type { Message } from '../../../lib/core/message.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { UnsupportedMediaError } from '../../../lib/errors/unsupported-media-error.js';
import { failure } from './clients.js';
import type { ReplayServer, Reply, WireJson } from './replay-server.js';

/** "%PDF-1.4\n" as bytes and as base64. */
export const PDF_BYTES = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a]);
export const PDF_BASE64 = 'JVBERi0xLjQK';
/** The first bytes of a PNG, as base64. */
export const PNG_BASE64 = 'iVBORw0KGgo=';
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const IMAGE_URL = 'https://example.com/cat.jpg';
export const PDF_URL = 'https://example.com/report.pdf';

export const imageByUrl: MediaPart = { mediaType: 'image/jpeg', data: { url: IMAGE_URL } };
export const imageBytes: MediaPart = { mediaType: 'image/png', data: { bytes: PNG_BYTES } };
export const pdfBase64: MediaPart = {
  mediaType: 'application/pdf',
  data: { base64: PDF_BASE64 },
  filename: 'report.pdf',
};
export const pdfByUrl: MediaPart = { mediaType: 'application/pdf', data: { url: PDF_URL } };

/** A one-message request: the user's text with the given media. */
export function userMediaRequest(
  media: readonly MediaPart[],
  content = 'What is in these?',
): ChatRequest {
  return ChatRequest.create({ messages: [{ role: 'user', content, media }] });
}

/** A second-round request whose tool result carries the given media. */
export function toolMediaRequest(media: readonly MediaPart[]): ChatRequest {
  const messages: Message[] = [
    { role: 'user', content: 'Take a screenshot.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_shot', name: 'screenshot', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: 'call_shot', name: 'screenshot', content: 'Done.', media },
  ];
  return ChatRequest.create({ messages });
}

/**
 * Streams `request` through `model` while `server` answers `reply`, and returns the JSON
 * body the provider sent: what the media specs assert on.
 */
export async function sentBody(
  server: ReplayServer,
  model: ChatModel,
  request: ChatRequest,
  reply: Reply,
): Promise<WireJson> {
  server.enqueue(reply);
  await lastValueFrom(model.stream(request).pipe(aggregate()));
  return server.requests[server.requests.length - 1].body;
}

/**
 * The `UnsupportedMediaError` `model` fails `request` with: raised before anything is sent
 * (no request reaches `server`), and not a `ProviderError`.
 */
export async function mediaRefusal(
  server: ReplayServer,
  model: ChatModel,
  request: ChatRequest,
): Promise<UnsupportedMediaError> {
  const before = server.requests.length;
  const error = await failure(model.stream(request));
  expect(server.requests.length).toBe(before);
  expect(ProviderError.isInstance(error)).toBe(false);
  if (!UnsupportedMediaError.isInstance(error)) throw error;
  return error;
}
