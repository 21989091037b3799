import type { SseEncoder } from './encoder/sse-encoder.js';

const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // nginx buffers proxied responses unless told not to, which would hold every frame back.
  'x-accel-buffering': 'no',
};

/**
 * The response headers of an SSE stream written by `encoder`, with `extra` on top (a new
 * object).
 * @internal
 */
export function sseHeaders(
  encoder: SseEncoder,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return { ...EVENT_STREAM_HEADERS, ...encoder.headers, ...extra };
}
