import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { resolveSseOptions } from './server-sent-events-options.js';
import {
  resolveConnectionOptions,
  type ResolvedSseConnectionOptions,
} from './sse-connection-options.js';
import { sseHeaders } from './sse-headers.js';
import { STREAM_ID_HEADER, type SseResponseOptions } from './sse-response-options.js';
import { framesOf } from './to-server-sent-events.js';

/** What both response sinks need: the frames, the status, the headers, the bounds. @internal */
export interface SseResponsePlan {
  readonly frames$: Observable<string>;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly connection: ResolvedSseConnectionOptions;
}

/**
 * The shared part of `pipeToNodeResponse` and `toWebResponse`: options checked up front, the
 * frames (kept in a `ResumableStreams` registry when `resumable` is set, whose stream id then
 * goes out in the `x-stream-id` header), the headers.
 * @internal
 */
export function sseResponsePlan(
  chunks$: Observable<ChatChunk>,
  options: SseResponseOptions,
): SseResponsePlan {
  const resolved = resolveSseOptions(options);
  const { encoder } = resolved;
  const connection = resolveConnectionOptions(options);
  const { resumable, status = 200 } = options;
  if (resumable === undefined) {
    return {
      frames$: framesOf(chunks$, resolved),
      status,
      headers: sseHeaders(encoder, options.headers),
      connection,
    };
  }
  const { streams, owner, streamId = streams.createStreamId() } = resumable;
  return {
    frames$: streams.start({ owner, streamId }, chunks$, options),
    status,
    headers: sseHeaders(encoder, { [STREAM_ID_HEADER]: streamId, ...options.headers }),
    connection,
  };
}
