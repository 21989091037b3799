import type Anthropic from '@anthropic-ai/sdk';
import {
  bytesFromBase64,
  checkMediaPart,
  mediaBase64,
  type MediaPart,
} from '../../core/media-part.js';
import { UnsupportedMediaError } from '../../errors/unsupported-media-error.js';

type MediaBlock = Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam;
type ImageType = Anthropic.Base64ImageSource['media_type'];

const API = 'anthropic';
const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * The Messages blocks of media parts: images (JPEG, PNG, GIF, WebP) and PDF documents by
 * URL or inline, plain-text documents inline. The same blocks go into a user turn and into
 * a `tool_result`'s content.
 * @internal
 * @param media The parts.
 * @param role Where they are, for the error.
 * @returns One block per part.
 * @throws UnsupportedMediaError for a part the Messages API cannot take.
 */
export function anthropicMediaBlocks(
  media: readonly MediaPart[],
  role: 'user' | 'tool',
): MediaBlock[] {
  return media.map((part) => toBlock(part, role));
}

function toBlock(part: MediaPart, role: 'user' | 'tool'): MediaBlock {
  const source = checkMediaPart(part, { provider: API, role });
  const mediaType = part.mediaType.toLowerCase();
  const url = 'url' in part.data ? part.data.url : undefined;
  if (IMAGE_TYPES.includes(mediaType)) {
    return {
      type: 'image',
      source:
        url === undefined
          ? { type: 'base64', media_type: mediaType as ImageType, data: mediaBase64(part) ?? '' }
          : { type: 'url', url },
    };
  }
  if (mediaType === 'application/pdf') {
    const block: Anthropic.DocumentBlockParam = {
      type: 'document',
      source:
        url === undefined
          ? { type: 'base64', media_type: 'application/pdf', data: mediaBase64(part) ?? '' }
          : { type: 'url', url },
    };
    if (part.filename !== undefined) block.title = part.filename;
    return block;
  }
  if (mediaType === 'text/plain' && source !== 'url') {
    const block: Anthropic.DocumentBlockParam = {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: plainText(part) },
    };
    if (part.filename !== undefined) block.title = part.filename;
    return block;
  }
  throw new UnsupportedMediaError({
    provider: API,
    mediaType: part.mediaType,
    role,
    reason:
      mediaType === 'text/plain'
        ? 'plain-text documents must be inline (data.base64 or data.bytes).'
        : 'the Messages API takes images (JPEG, PNG, GIF, WebP), PDF documents and inline plain text, not audio, video or other files.',
  });
}

function plainText(part: MediaPart): string {
  const data = part.data;
  const bytes = 'bytes' in data ? data.bytes : bytesFromBase64(mediaBase64(part) ?? '');
  return new TextDecoder().decode(bytes);
}
