import { base64DecodedSize, type MediaBudget } from '../core/media-limits.js';
import type { MediaPart } from '../core/media-part.js';
import { isWebUrl } from '../core/web-url.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { UiMessagePart } from './ui-message.js';

/**
 * A UI file part as media: a base64 data URL inline, an http(s) URL by reference. A data
 * URL is sized from its length before its content is read, and its own media type must
 * be the part's.
 * @internal
 */
export function fileMedia(part: UiMessagePart, budget: MediaBudget): MediaPart | undefined {
  const { url, mediaType, filename } = part;
  if (typeof url !== 'string' || typeof mediaType !== 'string') return undefined;
  const named = typeof filename === 'string' ? { filename } : {};
  if (isWebUrl(url)) return { mediaType, data: { url }, ...named };
  return inlineMedia(url, mediaType, named, budget);
}

function inlineMedia(
  url: string,
  mediaType: string,
  named: { filename?: string },
  budget: MediaBudget,
): MediaPart | undefined {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma === -1) return undefined;
  const header = url.slice(5, comma);
  if (!header.endsWith(';base64')) return undefined;
  const ownType = header.split(';')[0] ?? '';
  if (ownType !== '' && ownType.toLowerCase() !== mediaType.toLowerCase()) {
    throw new InvalidOptionsError({
      option: 'messages',
      value: `a file part with mediaType ${JSON.stringify(mediaType)} and a data: URL of type ${JSON.stringify(ownType)}`,
      expected: 'a file part whose data: URL has the same media type as its mediaType',
    });
  }
  const padding = url.endsWith('==') ? 2 : url.endsWith('=') ? 1 : 0;
  budget.add(base64DecodedSize(url.length - comma - 1, padding), mediaType);
  const base64 = url.slice(comma + 1);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(base64)
    ? { mediaType, data: { base64 }, ...named }
    : undefined;
}
