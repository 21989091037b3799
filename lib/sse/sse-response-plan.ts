import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { resolveSseOptions, SSE_OPTION_NAMES } from './server-sent-events-options.js';
import {
  resolveConnectionOptions,
  SSE_CONNECTION_OPTION_NAMES,
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

/** The response's own options (`status`, `headers`, `resumable`). */
const RESPONSE_OPTION_NAMES = ['status', 'headers', 'resumable'];
const NOT_SSE_OPTIONS = [...SSE_CONNECTION_OPTION_NAMES, ...RESPONSE_OPTION_NAMES];
const NOT_CONNECTION_OPTIONS = [...SSE_OPTION_NAMES, ...RESPONSE_OPTION_NAMES];

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
  const resolved = resolveSseOptions(options, NOT_SSE_OPTIONS);
  const { encoder } = resolved;
  const connection = resolveConnectionOptions(options, NOT_CONNECTION_OPTIONS);
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
