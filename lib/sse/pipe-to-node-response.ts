import type { ServerResponse } from 'node:http';
import type { Observable, Subscription } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { PipeToNodeResponseOptions } from './sse-response-options.js';
import { sseResponsePlan } from './sse-response-plan.js';
import { writeFramesToNodeResponse } from './write-frames-to-node-response.js';

/**
 * Streams chat chunks as Server-Sent Events on a Node response: Node `http`, Express 5
 * (`res`) and Fastify 5 (`reply.hijack()` then `reply.raw`).
 *
 * The SSE headers (`text/event-stream`, `no-cache`, `keep-alive`, `x-accel-buffering: no`,
 * plus the encoder's, e.g. `x-vercel-ai-ui-message-stream: v1` for `protocol: 'ai-sdk-ui'`)
 * are sent at once. Backpressure: when `res.write()` returns false, the frames that arrive
 * meanwhile are held (at most `maxPendingFrames` frames and `maxPendingBytes` characters, for
 * at most `writeTimeout` ms) and written as one batch on `'drain'`; past a bound the socket is
 * destroyed. A client that disconnects unsubscribes the chunks, which aborts the model request
 * and running tools.
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
 * @param options Protocol, heartbeat, error policy, status, headers, slow-client bounds, resume.
 * @returns The subscription writing the response (unsubscribe to stop early).
 * @throws ResumableStreamLimitError with `resumable`, when the owner keeps too many streams
 *   (nothing was written: answer 429).
 */
export function pipeToNodeResponse(
  chunks$: Observable<ChatChunk>,
  res: ServerResponse,
  options: PipeToNodeResponseOptions = {},
): Subscription {
  const { frames$, status, headers, connection } = sseResponsePlan(chunks$, options);
  return writeFramesToNodeResponse(frames$, res, { status, headers, ...connection });
}
