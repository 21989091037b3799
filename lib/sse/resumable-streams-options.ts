import type { InMemoryResumableStreamStoreOptions } from './in-memory-resumable-stream-store.js';
import type { ResumableStreamStore } from './resumable-stream-store.js';
import type { ResumableStreamRestorer } from './resumable-streams-restore.js';
import type { ServerSentEventsOptions } from './server-sent-events-options.js';
import type { SseConnectionOptions } from './sse-connection-options.js';
import type { SseEncoder } from './encoder/sse-encoder.js';

/**
 * Options of `ResumableStreams`: a store, or the bounds of the default in-memory store.
 *
 * @example
 * ```ts
 * import { ResumableStreams } from 'rx-advisors/sse';
 * const streams = new ResumableStreams({ maxBufferedFrames: 2000, ttl: 5 * 60_000, maxStreamsPerOwner: 5 });
 * ```
 */
export interface ResumableStreamsOptions extends InMemoryResumableStreamStoreOptions {
  /**
   * Where streams live; default a new `InMemoryResumableStreamStore` with the bounds given
   * here (give either a store or bounds, not both).
   */
  store?: ResumableStreamStore;
  /**
   * Custom `SseEncoder`s that streams kept in the store may have been written with, so a resume
   * in this process knows their headers and error frames. The built-in encoders and every
   * encoder started through this instance are known already.
   */
  encoders?: readonly SseEncoder[];
  /**
   * Rebuilds a stream the store no longer has (the process that ran it is gone: a restart, a
   * deploy), from the client's `Last-Event-ID`; with it, event ids carry the restorer's
   * cursor (`id: 42.318`). `durableRunRestorer` (`rx-advisors/run`) resumes durable runs from
   * their journal. Default none: such a resume gets HTTP 204.
   */
  restore?: ResumableStreamRestorer;
  /** The SSE options of restored streams (protocol, error texts); default `toServerSentEvents`'s. */
  restoreOptions?: ServerSentEventsOptions;
}

/**
 * Options of `ResumableStreams.resume`.
 *
 * @example
 * ```ts partial
 * const frames$ = streams.resume({ owner, streamId }, { lastEventId: req.headers['last-event-id'] as string });
 * ```
 */
export interface ResumeOptions {
  /**
   * The id of the last event the client saw (the `Last-Event-ID` header); none, `''` or `null`
   * replays the stream from its start.
   */
  lastEventId?: string | number | null | undefined;
  /** Milliseconds between heartbeat comments on this connection, or `false`. Default 15000. */
  heartbeat?: number | false;
}

/**
 * Options of the `resumeTo…` methods of `ResumableStreams`: extra headers, the heartbeat and
 * the slow-client bounds of the connection.
 *
 * @example
 * ```ts partial
 * streams.resumeToNodeResponse({ owner, streamId }, req, res, { headers: { 'access-control-allow-origin': '*' } });
 * ```
 */
export interface ResumeResponseOptions extends SseConnectionOptions {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Milliseconds between heartbeat comments, or `false`. Default 15000. */
  heartbeat?: number | false;
}
