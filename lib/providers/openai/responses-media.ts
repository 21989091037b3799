import type OpenAI from 'openai';
import {
  checkMediaPart,
  isImageMediaType,
  mediaUrl,
  type MediaPart,
} from '../../core/media-part.js';
import type { ToolMessage, UserMessage } from '../../core/message.js';
import { UnsupportedMediaError } from '../../errors/unsupported-media-error.js';
import { defaultFilename, OPENAI_IMAGE_TYPES } from './openai-media-types.js';

type InputContent = OpenAI.Responses.ResponseInputContent;
type OutputItem = OpenAI.Responses.ResponseFunctionCallOutputItem;

const API = 'openai-responses';

/**
 * The content of a Responses user input message: the text alone, or `input_text` then one
 * `input_image` or `input_file` per media part.
 * @internal
 * @param message The user message.
 * @returns The message's `content`.
 * @throws UnsupportedMediaError for a part the Responses API cannot take.
 */
export function responsesUserContent(message: UserMessage): string | InputContent[] {
  const media = message.media;
  if (media === undefined || media.length === 0) return message.content;
  const content: InputContent[] = [];
  if (message.content !== '') content.push({ type: 'input_text', text: message.content });
  for (const part of media) {
    const item = toInput(part, 'user');
    content.push(item.type === 'input_image' ? { ...item, detail: 'auto' } : item);
  }
  return content;
}

/**
 * The `output` of a `function_call_output` item: the text alone, or `input_text` then one
 * `input_image` or `input_file` per media part.
 * @internal
 * @param message The tool message.
 * @returns The item's `output`.
 * @throws UnsupportedMediaError for a part the Responses API cannot take.
 */
export function responsesToolOutput(message: ToolMessage): string | OutputItem[] {
  const media = message.media;
  if (media === undefined || media.length === 0) return message.content;
  const output: OutputItem[] = [];
  if (message.content !== '') output.push({ type: 'input_text', text: message.content });
  for (const part of media) output.push(toInput(part, 'tool'));
  return output;
}

function toInput(
  part: MediaPart,
  role: 'user' | 'tool',
): { type: 'input_image'; image_url: string } | OpenAI.Responses.ResponseInputFile {
  const source = checkMediaPart(part, { provider: API, role });
  const mediaType = part.mediaType.toLowerCase();
  if (OPENAI_IMAGE_TYPES.includes(mediaType))
    return { type: 'input_image', image_url: mediaUrl(part) };
  if (isImageMediaType(mediaType) || /^(audio|video)\//.test(mediaType)) {
    throw new UnsupportedMediaError({
      provider: API,
      mediaType: part.mediaType,
      role,
      reason:
        'the Responses API takes images (PNG, JPEG, GIF, WebP) and files (PDF, text, documents), not audio, video or other image types.',
    });
  }
  if (source === 'url') return { type: 'input_file', file_url: mediaUrl(part) };
  return {
    type: 'input_file',
    file_data: mediaUrl(part),
    filename: part.filename ?? defaultFilename(mediaType),
  };
}
