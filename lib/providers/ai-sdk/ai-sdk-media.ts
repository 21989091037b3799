import type {
  LanguageModelV3FilePart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV2ToolResultOutput,
} from '@ai-sdk/provider';
import {
  checkMediaPart,
  isImageMediaType,
  mediaBase64,
  type MediaPart,
} from '../../core/media-part.js';
import type { ToolMessage } from '../../core/message.js';
import { UnsupportedMediaError } from '../../errors/unsupported-media-error.js';

/**
 * What the bridge knows of the model before a call: its provider name, its specification
 * version and the URLs it fetches itself (`supportedUrls`, resolved).
 * @internal
 */
export interface AiSdkMediaTarget {
  provider: string;
  specificationVersion: 'v3' | 'v2';
  supportedUrls: Readonly<Record<string, readonly RegExp[]>>;
}

type ContentOutput = Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>;
type ContentItem = ContentOutput['value'][number];
type V2ContentItem = Extract<LanguageModelV2ToolResultOutput, { type: 'content' }>['value'][number];

/**
 * The prompt `file` part of a user media part. A URL goes to the model only when its
 * `supportedUrls` says the provider fetches it: the bridge never downloads a URL itself
 * (the AI SDK's `generateText` does; fetching user-given URLs on a server is a risk), so
 * another URL is refused.
 * @internal
 * @param part The media part.
 * @param target The model.
 * @returns The file part.
 * @throws UnsupportedMediaError for a malformed part or a URL the model does not fetch.
 */
export function aiSdkFilePart(part: MediaPart, target: AiSdkMediaTarget): LanguageModelV3FilePart {
  const source = checkMediaPart(part, { provider: target.provider, role: 'user' });
  const data = part.data;
  let content: LanguageModelV3FilePart['data'];
  if ('url' in data) {
    if (!isUrlSupported(target.supportedUrls, part.mediaType, data.url)) {
      throw new UnsupportedMediaError({
        provider: target.provider,
        mediaType: part.mediaType,
        role: 'user',
        reason:
          'this model does not fetch URLs of this media type (its supportedUrls), and the bridge does not download them; send the content inline (data.base64 or data.bytes).',
      });
    }
    content = new URL(data.url);
  } else {
    content = source === 'bytes' && 'bytes' in data ? data.bytes : (mediaBase64(part) ?? '');
  }
  const file: LanguageModelV3FilePart = { type: 'file', mediaType: part.mediaType, data: content };
  if (part.filename !== undefined) file.filename = part.filename;
  return file;
}

/**
 * The output of a tool result with media: `content` with the text, then images and files
 * (V3: `image-data`/`file-data` inline, `image-url`/`file-url` by URL; V2: `media`, inline
 * only).
 * @internal
 * @param message The tool message (with media).
 * @param target The model.
 * @returns The tool result's output.
 * @throws UnsupportedMediaError for a malformed part, or a URL part for a V2 model.
 */
export function aiSdkToolMediaOutput(
  message: ToolMessage,
  target: AiSdkMediaTarget,
): LanguageModelV3ToolResultOutput {
  const value: (ContentItem | V2ContentItem)[] = [];
  if (message.content !== '') value.push({ type: 'text', text: message.content });
  for (const part of message.media ?? []) {
    checkMediaPart(part, { provider: target.provider, role: 'tool' });
    const image = isImageMediaType(part.mediaType);
    const data = part.data;
    if (target.specificationVersion === 'v2') {
      if ('url' in data) {
        throw new UnsupportedMediaError({
          provider: target.provider,
          mediaType: part.mediaType,
          role: 'tool',
          reason:
            'AI SDK V2 models take tool-result media inline only; send data.base64 or data.bytes.',
        });
      }
      value.push({ type: 'media', data: mediaBase64(part) ?? '', mediaType: part.mediaType });
    } else if ('url' in data) {
      value.push(
        image
          ? { type: 'image-url', url: data.url }
          : { type: 'file-url', url: data.url, mediaType: part.mediaType },
      );
    } else {
      const base64 = mediaBase64(part) ?? '';
      let item: ContentItem;
      if (image) item = { type: 'image-data', data: base64, mediaType: part.mediaType };
      else if (part.filename === undefined)
        item = { type: 'file-data', data: base64, mediaType: part.mediaType };
      else
        item = {
          type: 'file-data',
          data: base64,
          mediaType: part.mediaType,
          filename: part.filename,
        };
      value.push(item);
    }
  }
  // V2's `media` item is V2's own shape; the bridge's call options are typed as V3's.
  return { type: 'content', value: value as ContentItem[] };
}

/** Whether the model fetches this URL itself (the AI SDK's matching of `supportedUrls`). */
function isUrlSupported(
  supported: Readonly<Record<string, readonly RegExp[]>>,
  mediaType: string,
  url: string,
): boolean {
  const type = mediaType.toLowerCase();
  const wildcard = `${type.split('/')[0]}/*`;
  for (const [pattern, regexes] of Object.entries(supported)) {
    const key = pattern.toLowerCase();
    if (key !== '*' && key !== '*/*' && key !== type && key !== wildcard) continue;
    if (regexes.some((regex) => regex.test(url))) return true;
  }
  return false;
}
