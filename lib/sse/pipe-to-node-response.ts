import type { ServerResponse } from 'node:http';
import type { Observable, Subscription } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ResumableRegistration } from './resumable-streams.js';
import { resolveSseOptions, type ServerSentEventsOptions } from './server-sent-events-options.js';
import { sseHeaders } from './sse-headers.js';
import { toServerSentEvents } from './to-server-sent-events.js';
import {
  resolveMaxPendingFrames,
  writeFramesToNodeResponse,
} from './write-frames-to-node-response.js';

/**
 * Options of {@link pipeToNodeResponse}: the `toServerSentEvents` options plus the response's.
 *
 * @example
 * ```ts
 * import type { PipeToNodeResponseOptions } from 'rx-advisors/sse';
 * const options: PipeToNodeResponseOptions = {
 *   protocol: 'ai-sdk-ui',
 *   headers: { 'access-control-allow-origin': '*' },
 *   maxPendingFrames: 500,
 * };
 * ```
 */
export interface PipeToNodeResponseOptions extends ServerSentEventsOptions {
  /** The HTTP status; default 200. */
  status?: number;
  /** Extra response headers (CORS, a stream id…), on top of the SSE headers. */
  headers?: Record<string, string>;
  /**
   * Frames held back while the client reads slower than the model writes (after `write()`
   * returned false, until `'drain'`). A client further behind is disconnected. Default 1000.
   */
  maxPendingFrames?: number;
  /**
   * Keep the stream in a `ResumableStreams` registry under this id, so a client can resume it
   * with `Last-Event-ID`; a disconnect then no longer aborts it (the registry's `ttl` does).
   */
  resumable?: ResumableRegistration;
}

/**
 * Streams chat chunks as Server-Sent Events on a Node response: Node `http`, Express 5
 * (`res`) and Fastify 5 (`reply.hijack()` then `reply.raw`).
 *
 * The SSE headers (`text/event-stream`, `no-cache`, `keep-alive`, `x-accel-buffering: no`,
 * and `x-vercel-ai-ui-message-stream: v1` for `protocol: 'ai-sdk-ui'`) are sent at once.
 * Backpressure: when `res.write()` returns false, the frames that arrive meanwhile are held
 * (at most `maxPendingFrames`) and written as one batch on `'drain'`. A client that
 * disconnects unsubscribes the chunks, which aborts the model request and running tools.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { pipeToNodeResponse } from 'rx-advisors/sse';
 *
 * const app = express();
 * app.post('/api/chat', express.json(), (req, res) => {
 *   const chunks$ = client.prompt(req.body.message).stream().chunks();
 *   pipeToNodeResponse(chunks$, res, { protocol: 'ai-sdk-ui' });
 * });
 * ```
 * @param chunks$ The chunks, e.g. `client.prompt(…).stream().chunks()` (subscribed here).
 * @param res The response; its headers must not have been sent.
 * @param options Protocol, heartbeat, error policy, status, headers, slow-client bound, resume.
 * @returns The subscription writing the response (unsubscribe to stop early).
 */
export function pipeToNodeResponse(
  chunks$: Observable<ChatChunk>,
  res: ServerResponse,
  options: PipeToNodeResponseOptions = {},
): Subscription {
  const { protocol } = resolveSseOptions(options);
  const maxPendingFrames = resolveMaxPendingFrames(options.maxPendingFrames);
  const { resumable, status = 200 } = options;
  const frames$ =
    resumable === undefined
      ? chunks$.pipe(toServerSentEvents(options))
      : resumable.streams.start(resumable.streamId, chunks$, options);
  return writeFramesToNodeResponse(frames$, res, {
    status,
    headers: sseHeaders(protocol, options.headers),
    maxPendingFrames,
  });
}
