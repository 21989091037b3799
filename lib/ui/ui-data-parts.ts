import type { DataChunk, RetryChunk, SourceChunk } from '../core/chat-chunk.js';
import type { SseErrorPolicy } from '../sse/encoder/sse-error-policy.js';

/**
 * A source as the UI message stream's `source-url` or `source-document` part (optional
 * fields only when the chunk has them).
 * @internal
 */
export function sourcePart(chunk: SourceChunk): Record<string, unknown> {
  return chunk.sourceType === 'url'
    ? {
        type: 'source-url',
        sourceId: chunk.id,
        url: chunk.url,
        ...(chunk.title === undefined ? {} : { title: chunk.title }),
      }
    : {
        type: 'source-document',
        sourceId: chunk.id,
        mediaType: chunk.mediaType,
        title: chunk.title,
        ...(chunk.filename === undefined ? {} : { filename: chunk.filename }),
      };
}

/**
 * A `data` chunk as the UI message stream's `data-<name>` part (`id` and `transient: true`
 * only when the chunk has them).
 * @internal
 */
export function dataPart(chunk: DataChunk): Record<string, unknown> {
  const { name, id, data, transient } = chunk;
  return {
    type: `data-${name}`,
    ...(id === undefined ? {} : { id }),
    data,
    ...(transient === true ? { transient } : {}),
  };
}

/**
 * A retry as the UI message stream's `data-retry` part: the UI protocol cannot take back what
 * a client shows, so the part marks where the new attempt starts (see docs/sse.md). The
 * reason follows the error policy.
 * @internal
 */
export function retryPart(chunk: RetryChunk, errors: SseErrorPolicy): Record<string, unknown> {
  const { attempt, advisor, delay } = chunk;
  const data: Record<string, unknown> = { attempt, reason: errors.retryReason(chunk), advisor };
  if (delay !== undefined) data['delay'] = delay;
  return { type: 'data-retry', data };
}
