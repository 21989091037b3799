import type { ResumableStreams } from './resumable-streams.js';
import type { ServerSentEventsOptions } from './server-sent-events-options.js';
import type { SseConnectionOptions } from './sse-connection-options.js';

/**
 * Options of `pipeToNodeResponse` and `toWebResponse` (one type for both): the
 * `toServerSentEvents` options, the slow-client bounds and the response's own.
 *
 * @example
 * ```ts
 * import type { SseResponseOptions } from 'rx-advisors/sse';
 * const options: SseResponseOptions = {
 *   protocol: 'ai-sdk-ui',
 *   headers: { 'access-control-allow-origin': '*' },
 *   maxPendingFrames: 500,
 * };
 * ```
 */
export interface SseResponseOptions extends ServerSentEventsOptions, SseConnectionOptions {
  /** The HTTP status; default 200. */
  status?: number;
  /** Extra response headers (CORS, a stream id…), on top of the SSE headers. */
  headers?: Record<string, string>;
  /**
   * Keep the stream in a `ResumableStreams` registry, for its owner, so a client can resume
   * it with `Last-Event-ID`; a disconnect then no longer aborts it (the registry's `ttl`
   * does). The stream id goes out in the `x-stream-id` response header.
   */
  resumable?: ResumableRegistration;
}

/**
 * Options of `pipeToNodeResponse` (the shared {@link SseResponseOptions}).
 *
 * @example
 * ```ts
 * import type { PipeToNodeResponseOptions } from 'rx-advisors/sse';
 * const options: PipeToNodeResponseOptions = { protocol: 'ai-sdk-ui', writeTimeout: 10_000 };
 * ```
 */
export type PipeToNodeResponseOptions = SseResponseOptions;

/**
 * Options of `toWebResponse` (the shared {@link SseResponseOptions}).
 *
 * @example
 * ```ts partial
 * import type { ToWebResponseOptions } from 'rx-advisors/sse';
 * const options: ToWebResponseOptions = { protocol: 'ai-sdk-ui', headers: { 'x-chat-id': chatId } };
 * ```
 */
export type ToWebResponseOptions = SseResponseOptions;

/**
 * The `resumable` option of `pipeToNodeResponse` and `toWebResponse`: the registry that keeps
 * the stream, its owner and (optionally) its id.
 *
 * @example
 * ```ts partial
 * import { pipeToNodeResponse, ResumableStreams } from 'rx-advisors/sse';
 * const streams = new ResumableStreams();
 * pipeToNodeResponse(chunks$, res, { resumable: { streams, owner: session.userId } });
 * ```
 */
export interface ResumableRegistration {
  streams: ResumableStreams;
  /** Who the stream belongs to (a user or session id): only this owner can resume it. */
  owner: string;
  /** The stream's id within its owner; default a new unguessable id (`createStreamId()`). */
  streamId?: string;
}

/**
 * The response header that names a resumable stream (set by `pipeToNodeResponse` and
 * `toWebResponse` when `resumable` is given).
 *
 * @example
 * ```ts partial
 * import { STREAM_ID_HEADER } from 'rx-advisors/sse';
 * const streamId = response.headers.get(STREAM_ID_HEADER); // in a fetch client
 * ```
 */
export const STREAM_ID_HEADER = 'x-stream-id';
