import { MediaLimitError } from '../errors/media-limit-error.js';
import type { MediaPart } from './media-part.js';
import type { Message } from './message.js';
import { Rules, validateOptions, withDefaults, type OptionRules } from './validate-options.js';

/**
 * Size limits on inline media (base64, bytes, `data:` URLs; media by URL count nothing),
 * in decoded bytes. Used by `ChatClientBuilder.defaultMediaLimits` and
 * `uiMessagesToMessages`.
 * @example
 * ```ts
 * import type { MediaLimits } from 'rx-advisors';
 * const limits: MediaLimits = { maxMediaPartBytes: 5 * 1024 * 1024 };
 * ```
 */
export interface MediaLimits {
  /** The largest one part may be; default 20 MiB (OpenAI's image limit). */
  maxMediaPartBytes?: number;
  /** The most all parts of one request may carry together; default 50 MiB. */
  maxMediaRequestBytes?: number;
}

/** The defaults of {@link MediaLimits}. @internal */
export const MEDIA_LIMITS_DEFAULTS = {
  maxMediaPartBytes: 20 * 1024 * 1024,
  maxMediaRequestBytes: 50 * 1024 * 1024,
} as const;

/** The rules of {@link MediaLimits}. @internal */
export const MEDIA_LIMITS_RULES = {
  maxMediaPartBytes: Rules.integer(1),
  maxMediaRequestBytes: Rules.integer(1),
} as const satisfies OptionRules<MediaLimits>;

/** Limits with their defaults filled in. @internal */
export type ResolvedMediaLimits = Required<MediaLimits>;

/**
 * Validates media limits and fills in the defaults.
 * @internal
 */
export function resolveMediaLimits(limits: MediaLimits | undefined): ResolvedMediaLimits {
  return withDefaults(MEDIA_LIMITS_DEFAULTS, validateOptions(limits ?? {}, MEDIA_LIMITS_RULES));
}

/**
 * The decoded size of base64 text of a given length, without decoding it.
 * @internal
 */
export function base64DecodedSize(length: number, padding: number): number {
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

/** The decoded size of one part's inline content; 0 for a URL. */
function partSize(part: MediaPart): number {
  const data = part.data as Partial<{ base64: unknown; bytes: unknown }> | undefined;
  if (typeof data?.base64 === 'string') {
    const text = data.base64;
    const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
    return base64DecodedSize(text.length, padding);
  }
  return data?.bytes instanceof Uint8Array ? data.bytes.byteLength : 0;
}

/**
 * Counts media against the limits, one part at a time, and throws at the first part that
 * passes one. Only lengths are read: nothing is decoded or copied.
 * @internal
 */
export class MediaBudget {
  private total = 0;

  constructor(private readonly limits: ResolvedMediaLimits) {}

  /** Adds a part of `size` decoded bytes. @throws MediaLimitError */
  add(size: number, mediaType: string | undefined): void {
    const { maxMediaPartBytes, maxMediaRequestBytes } = this.limits;
    if (size > maxMediaPartBytes) {
      throw new MediaLimitError({ scope: 'part', size, limit: maxMediaPartBytes, mediaType });
    }
    this.total += size;
    if (this.total > maxMediaRequestBytes) {
      throw new MediaLimitError({
        scope: 'request',
        size: this.total,
        limit: maxMediaRequestBytes,
      });
    }
  }
}

/**
 * Checks the inline media of messages (user and tool messages) against the limits.
 * @internal
 * @throws MediaLimitError at the first part, or the first total, above a limit.
 */
export function checkMediaLimits(messages: readonly Message[], limits: ResolvedMediaLimits): void {
  let budget: MediaBudget | undefined;
  for (const message of messages) {
    if ((message.role !== 'user' && message.role !== 'tool') || message.media === undefined) {
      continue;
    }
    budget ??= new MediaBudget(limits);
    for (const part of message.media) budget.add(partSize(part), part.mediaType);
  }
}
