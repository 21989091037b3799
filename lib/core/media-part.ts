import { isWebUrl } from './web-url.js';
import { UnsupportedMediaError } from '../errors/unsupported-media-error.js';

/**
 * Where the content of a {@link MediaPart} is: at a URL the provider fetches (`https:` or
 * `http:`), inline as base64 text, or inline as bytes. Exactly one key.
 *
 * @example
 * ```ts
 * import type { MediaData } from 'rx-advisors';
 *
 * const byUrl: MediaData = { url: 'https://example.com/cat.png' };
 * const inline: MediaData = { base64: 'iVBORw0KGgo=' };
 * const bytes: MediaData = { bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46]) };
 * ```
 */
export type MediaData = { url: string } | { base64: string } | { bytes: Uint8Array };

/**
 * An image or a file that rides on a user message or a tool result (`media` of
 * `UserMessage` and `ToolMessage`), next to its text `content`. What it is comes from
 * `mediaType` alone (`image/png` is an image, `application/pdf` a file): there is no
 * second field that could disagree with it. Each adapter maps the parts its provider takes
 * and refuses the others with an `UnsupportedMediaError` before the request is sent (see
 * docs/providers.md, "Images and files").
 *
 * @example
 * ```ts
 * import type { MediaPart, UserMessage } from 'rx-advisors';
 *
 * const photo: MediaPart = { mediaType: 'image/jpeg', data: { url: 'https://example.com/cat.jpg' } };
 * const invoice: MediaPart = {
 *   mediaType: 'application/pdf',
 *   data: { base64: 'JVBERi0xLjQK' },
 *   filename: 'invoice.pdf',
 * };
 * const message: UserMessage = { role: 'user', content: 'What is in these?', media: [photo, invoice] };
 * ```
 */
export interface MediaPart {
  /** The IANA media type, e.g. `'image/png'`, `'application/pdf'`, `'audio/wav'`. */
  readonly mediaType: string;
  /** The content: by URL, base64 or bytes. */
  readonly data: MediaData;
  /** A file name some providers show the model (OpenAI files). */
  readonly filename?: string;
}

/** How a part's content is given. @internal */
export type MediaSource = 'url' | 'base64' | 'bytes';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks that a part is well formed (a concrete media type, exactly one of `url`,
 * `base64`, `bytes`, an `http(s)` URL, base64 text) and says how its content is given.
 * @internal
 * @param part The part, as the caller wrote it.
 * @param where The adapter and the message role, for the error.
 * @returns The part's source.
 * @throws UnsupportedMediaError when the part is not well formed.
 */
export function checkMediaPart(
  part: MediaPart,
  where: { provider: string; role: 'user' | 'tool' },
): MediaSource {
  const mediaType = typeof part?.mediaType === 'string' ? part.mediaType : String(part?.mediaType);
  const refuse = (reason: string): never => {
    throw new UnsupportedMediaError({ ...where, mediaType, reason });
  };
  if (!MEDIA_TYPE.test(mediaType)) {
    refuse("the media type must be a concrete 'type/subtype' such as 'image/png'.");
  }
  const data = part.data as Partial<Record<MediaSource, unknown>> | undefined;
  const keys = data === undefined || data === null ? [] : Object.keys(data);
  if (keys.length !== 1) refuse('data must have exactly one of url, base64 and bytes.');
  if (data?.url !== undefined) {
    if (!isWebUrl(data.url)) {
      refuse('data.url must be an http(s) URL; put inline content in data.base64 or data.bytes.');
    }
    return 'url';
  }
  if (data?.base64 !== undefined) {
    if (typeof data.base64 !== 'string' || data.base64 === '' || !BASE64.test(data.base64)) {
      refuse('data.base64 must be non-empty base64 text (no data: prefix, no line breaks).');
    }
    return 'base64';
  }
  if (!(data?.bytes instanceof Uint8Array) || data.bytes.byteLength === 0) {
    refuse('data.bytes must be a non-empty Uint8Array.');
  }
  return 'bytes';
}

/**
 * Whether text is base64 (no `data:` prefix, no line breaks).
 * @internal
 */
export function isBase64Text(text: string): boolean {
  return BASE64.test(text);
}

/**
 * Whether a media type is an image (`image/…`).
 * @internal
 */
export function isImageMediaType(mediaType: string): boolean {
  return mediaType.toLowerCase().startsWith('image/');
}

/**
 * A part's inline content as base64 (`undefined` for a URL part).
 * @internal
 */
export function mediaBase64(part: MediaPart): string | undefined {
  const data = part.data;
  if ('base64' in data) return data.base64;
  if ('bytes' in data) return base64FromBytes(data.bytes);
  return undefined;
}

/**
 * A part's content as a URL: its own URL, or a `data:` URL of its inline content.
 * @internal
 */
export function mediaUrl(part: MediaPart): string {
  const data = part.data;
  if ('url' in data) return data.url;
  return `data:${part.mediaType};base64,${mediaBase64(part) ?? ''}`;
}

/** Node's `Buffer`, when the runtime has one (looked up, never imported: browsers have none). */
interface BufferLike {
  from(bytes: Uint8Array): { toString(encoding: 'base64'): string };
  from(text: string, encoding: 'base64'): Uint8Array;
}
const NODE_BUFFER = (globalThis as { Buffer?: BufferLike }).Buffer;

/**
 * Base64 of bytes: Node's `Buffer` where there is one (5 MiB in 6–32 ms, against 320–490
 * ms for `btoa` over pieces), else `btoa` over pieces (browsers).
 * @internal
 */
export function base64FromBytes(bytes: Uint8Array): string {
  if (NODE_BUFFER !== undefined) return NODE_BUFFER.from(bytes).toString('base64');
  const pieces: string[] = [];
  // Pieces keep `String.fromCharCode`'s argument list short.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    pieces.push(String.fromCharCode(...bytes.subarray(offset, offset + 0x8000)));
  }
  return btoa(pieces.join(''));
}

/**
 * Bytes of base64 text (a `Uint8Array`, also under Node).
 * @internal
 */
export function bytesFromBase64(base64: string): Uint8Array {
  if (NODE_BUFFER !== undefined) {
    const buffer = NODE_BUFFER.from(base64, 'base64');
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
  }
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
