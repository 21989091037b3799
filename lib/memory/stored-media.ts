import {
  base64FromBytes,
  bytesFromBase64,
  isBase64Text,
  type MediaData,
  type MediaPart,
} from '../core/media-part.js';
import { ChatMemoryMediaLimitError } from '../errors/chat-memory-media-limit-error.js';

/**
 * The default `maxMediaBytes` of the persistent repositories: 5 MiB of inline media per
 * message (decoded), the size of the largest image most providers take.
 * @internal
 */
export const DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/**
 * A copy of a media part that shares nothing mutable with it (bytes copied).
 * @internal
 */
export function copyMediaPart(part: MediaPart): MediaPart {
  const data = part.data;
  const copy: MediaData = 'bytes' in data ? { bytes: data.bytes.slice() } : { ...data };
  return part.filename === undefined
    ? { mediaType: part.mediaType, data: copy }
    : { mediaType: part.mediaType, data: copy, filename: part.filename };
}

/**
 * The decoded size of a message's inline media (base64 and bytes); URLs count nothing.
 * @internal
 */
export function inlineMediaBytes(media: readonly MediaPart[]): number {
  let size = 0;
  for (const part of media) {
    const data = part.data;
    if ('bytes' in data) size += data.bytes.byteLength;
    else if ('base64' in data) size += base64Size(data.base64);
  }
  return size;
}

/**
 * Throws when a message's inline media is larger than the limit.
 * @internal
 * @throws ChatMemoryMediaLimitError
 */
export function checkMediaLimit(
  media: readonly MediaPart[],
  where: { conversationId: string; position: number; limit: number },
): void {
  const size = inlineMediaBytes(media);
  if (size > where.limit) throw new ChatMemoryMediaLimitError({ ...where, size });
}

/**
 * Media as stored JSON: inline, each part `{ mediaType, filename?, url | base64 | bytes }`
 * with bytes as base64 text (`bytes` says they come back as a `Uint8Array`).
 * @internal
 */
export function mediaToJson(media: readonly MediaPart[]): string {
  return JSON.stringify(
    media.map((part) => {
      const data = part.data;
      const stored: Record<string, string> = { mediaType: part.mediaType };
      if (part.filename !== undefined) stored['filename'] = part.filename;
      if ('url' in data) stored['url'] = data.url;
      else if ('base64' in data) stored['base64'] = data.base64;
      else stored['bytes'] = base64FromBytes(data.bytes);
      return stored;
    }),
  );
}

/**
 * Media from stored JSON; `undefined` when the JSON is not what {@link mediaToJson} writes.
 * @internal
 */
export function mediaFromJson(text: string): MediaPart[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const parts: MediaPart[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const stored = item as Record<string, unknown>;
    const { mediaType, filename, url, base64, bytes } = stored;
    if (typeof mediaType !== 'string') return undefined;
    let data: MediaData;
    if (typeof url === 'string') data = { url };
    else if (typeof base64 === 'string') data = { base64 };
    else if (typeof bytes === 'string') {
      const decoded = decodeBase64(bytes);
      if (decoded === undefined) return undefined;
      data = { bytes: decoded };
    } else return undefined;
    parts.push(typeof filename === 'string' ? { mediaType, data, filename } : { mediaType, data });
  }
  return parts;
}

/** The decoded size of base64 text (padding excluded). */
function base64Size(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!isBase64Text(text)) return undefined;
  try {
    return bytesFromBase64(text);
  } catch {
    return undefined;
  }
}
