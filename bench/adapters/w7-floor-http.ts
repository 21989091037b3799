import type { SseServerAdapter } from './w7-sse-adapter.js';

/** The floor's response headers (the UI message stream's); bench/w7-frame-path.ts shares them. */
export const HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'x-vercel-ai-ui-message-stream': 'v1',
};
/** The frames before the first delta. */
export const HEAD =
  'id: 1\ndata: {"type":"start"}\n\n' +
  'id: 2\ndata: {"type":"start-step"}\n\n' +
  'id: 3\ndata: {"type":"text-start","id":"text-1"}\n\n';
/** A delta frame's start (the JSON-encoded delta and `}\n\n` follow). */
export const DELTA = 'data: {"type":"text-delta","id":"text-1","delta":';
const FINISH =
  '{"type":"finish","finishReason":"stop","messageMetadata":{"usage":{"inputTokens":12,"outputTokens":34,"totalTokens":46}}}';

/** The frames after the last delta, numbered on from `id`. */
function tail(id: number): string {
  return (
    `id: ${id}\ndata: {"type":"text-end","id":"text-1"}\n\n` +
    `id: ${id + 1}\ndata: {"type":"finish-step"}\n\n` +
    `id: ${id + 2}\ndata: ${FINISH}\n\n` +
    `id: ${id + 3}\ndata: [DONE]\n\n`
  );
}

/**
 * The floor: bare `node:http` writing, by hand, the bytes rx-advisors writes (the same
 * headers and frames, ids included), one `res.write` per delta as it comes, no
 * backpressure handling beyond Node's own buffering.
 */
export const w7FloorHttpAdapter: SseServerAdapter = {
  framework: 'floor-http',
  label: 'node:http res.write of precomputed frame parts',
  handler(ticker) {
    return (_req, res) => {
      res.writeHead(200, HEADERS);
      res.write(HEAD);
      const handle = ticker.start({
        delta: (k, text) => {
          res.write(`id: ${k + 4}\n${DELTA}${JSON.stringify(text)}}\n\n`);
        },
        end: () => {
          res.end(tail(ticker.deltasPerStream + 4));
        },
      });
      res.once('close', () => handle.stop());
    };
  },
};
