import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { framesToReadableStream } from './frames-to-readable-stream.js';
import type { ToWebResponseOptions } from './sse-response-options.js';
import { sseResponsePlan } from './sse-response-plan.js';

/**
 * Chat chunks as a fetch `Response` of Server-Sent Events, for Hono, Next.js route handlers,
 * Deno and Bun. The body is a pull-based `ReadableStream`: the chunks are subscribed when the
 * server first reads it, and cancelling it (the client went away) unsubscribes, which aborts
 * the model request and running tools. Frames waiting for a read are bounded like
 * `pipeToNodeResponse`'s (`maxPendingFrames`, `maxPendingBytes`, `writeTimeout`): past a
 * bound the body errors with a `SlowClientError`.
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
 * @param options Protocol, heartbeat, error policy, status, headers, slow-client bounds, resume.
 * @returns A streaming `Response`.
 * @throws ResumableStreamLimitError with `resumable`, when the owner keeps too many streams.
 */
export function toWebResponse(
  chunks$: Observable<ChatChunk>,
  options: ToWebResponseOptions = {},
): Response {
  const { frames$, status, headers, connection } = sseResponsePlan(chunks$, options);
  return new Response(framesToReadableStream(frames$, connection), { status, headers });
}
