import type OpenAI from 'openai';
import { checkMediaPart, mediaBase64, mediaUrl, type MediaPart } from '../../core/media-part.js';
import type { ToolMessage, UserMessage } from '../../core/message.js';
import { UnsupportedMediaError } from '../../errors/unsupported-media-error.js';
import { defaultFilename, OPENAI_IMAGE_TYPES } from './openai-media-types.js';

type ContentPart = OpenAI.ChatCompletionContentPart;

const API = 'openai-chat-completions';

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * The content of a Chat Completions user message: the text alone, or the text then one
 * part per media part (images by URL or data URL, WAV/MP3 audio and PDF files inline).
 * @internal
 * @param message The user message.
 * @returns The `content` field.
 * @throws UnsupportedMediaError for a part Chat Completions cannot take.
 */
export function chatUserContent(message: UserMessage): string | ContentPart[] {
  const media = message.media;
  if (media === undefined || media.length === 0) return message.content;
  const parts: ContentPart[] = [];
  if (message.content !== '') parts.push({ type: 'text', text: message.content });
  for (const part of media) parts.push(toContentPart(part));
  return parts;
}

/**
 * Chat Completions tool messages are text only: media on one is refused, not dropped.
 * @internal
 * @param message The tool message.
 * @throws UnsupportedMediaError when the message carries media.
 */
export function checkChatToolMedia(message: ToolMessage): void {
  const first = message.media?.[0];
  if (first === undefined) return;
  throw new UnsupportedMediaError({
    provider: API,
    mediaType: String(first.mediaType),
    role: 'tool',
    reason:
      "Chat Completions tool results are text only. Use api: 'responses', Anthropic or the AI SDK bridge, or describe the media in the tool's text.",
  });
}

function toContentPart(part: MediaPart): ContentPart {
  const source = checkMediaPart(part, { provider: API, role: 'user' });
  const mediaType = part.mediaType.toLowerCase();
  const refuse = (reason: string): never => {
    throw new UnsupportedMediaError({
      provider: API,
      mediaType: part.mediaType,
      role: 'user',
      reason,
    });
  };
  if (OPENAI_IMAGE_TYPES.includes(mediaType)) {
    return { type: 'image_url', image_url: { url: mediaUrl(part) } };
  }
  const format = AUDIO_FORMATS[mediaType];
  if (format !== undefined) {
    if (source === 'url') refuse('audio must be inline (data.base64 or data.bytes), not a URL.');
    return { type: 'input_audio', input_audio: { data: mediaBase64(part) ?? '', format } };
  }
  if (mediaType === 'application/pdf') {
    if (source === 'url') {
      refuse(
        "Chat Completions takes PDF files inline only; send data.base64 or data.bytes, or use api: 'responses'.",
      );
    }
    const file: OpenAI.ChatCompletionContentPart.File.File = { file_data: mediaUrl(part) };
    file.filename = part.filename ?? defaultFilename(mediaType);
    return { type: 'file', file };
  }
  return refuse(
    'Chat Completions takes images (PNG, JPEG, GIF, WebP), WAV/MP3 audio and PDF files.',
  );
}
