import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { framesToReadableStream } from './frames-to-readable-stream.js';
import type { ResumableRegistration } from './resumable-streams.js';
import { resolveSseOptions, type ServerSentEventsOptions } from './server-sent-events-options.js';
import { sseHeaders } from './sse-headers.js';
import { toServerSentEvents } from './to-server-sent-events.js';
import { resolveMaxPendingFrames } from './write-frames-to-node-response.js';

/**
 * Options of {@link toWebResponse}: the `toServerSentEvents` options plus the response's.
 *
 * @example
 * ```ts
 * import type { ToWebResponseOptions } from 'rx-advisors/sse';
 * const options: ToWebResponseOptions = { protocol: 'ai-sdk-ui', headers: { 'x-chat-id': chatId } };
 * ```
 */
export interface ToWebResponseOptions extends ServerSentEventsOptions {
  /** The HTTP status; default 200. */
  status?: number;
  /** Extra response headers, on top of the SSE headers. */
  headers?: Record<string, string>;
  /**
   * Frames held between two reads of the body when the client reads slower than the model
   * writes; beyond that the body errors and the chunks are unsubscribed. Default 1000.
   */
  maxPendingFrames?: number;
  /** Keep the stream in a `ResumableStreams` registry under this id (see `pipeToNodeResponse`). */
  resumable?: ResumableRegistration;
}

/**
 * Chat chunks as a fetch `Response` of Server-Sent Events, for Hono, Next.js route handlers,
 * Deno and Bun. The body is a pull-based `ReadableStream`: the chunks are subscribed when the
 * server first reads it, and cancelling it (the client went away) unsubscribes, which aborts
 * the model request and running tools.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { toWebResponse } from 'rx-advisors/sse';
 *
 * const app = new Hono();
 * app.post('/api/chat', async (c) => {
 *   const { message } = await c.req.json();
 *   return toWebResponse(client.prompt(message).stream().chunks(), { protocol: 'ai-sdk-ui' });
 * });
 * ```
 * @param chunks$ The chunks, e.g. `client.prompt(…).stream().chunks()`.
 * @param options Protocol, heartbeat, error policy, status, headers, slow-client bound, resume.
 * @returns A streaming `Response`.
 */
export function toWebResponse(
  chunks$: Observable<ChatChunk>,
  options: ToWebResponseOptions = {},
): Response {
  const { protocol } = resolveSseOptions(options);
  const maxPendingFrames = resolveMaxPendingFrames(options.maxPendingFrames);
  const { resumable, status = 200 } = options;
  const frames$ =
    resumable === undefined
      ? chunks$.pipe(toServerSentEvents(options))
      : resumable.streams.start(resumable.streamId, chunks$, options);
  return new Response(framesToReadableStream(frames$, maxPendingFrames), {
    status,
    headers: sseHeaders(protocol, options.headers),
  });
}
