import type { SseProtocol } from './server-sent-events-options.js';

const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // nginx buffers proxied responses unless told not to, which would hold every frame back.
  'x-accel-buffering': 'no',
};

const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  ...EVENT_STREAM_HEADERS,
  'x-vercel-ai-ui-message-stream': 'v1',
};

/**
 * The response headers of an SSE stream in `protocol`, with `extra` on top (a new object).
 * @internal
 */
export function sseHeaders(
  protocol: SseProtocol,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const base = protocol === 'ai-sdk-ui' ? UI_MESSAGE_STREAM_HEADERS : EVENT_STREAM_HEADERS;
  return extra === undefined ? { ...base } : { ...base, ...extra };
}
