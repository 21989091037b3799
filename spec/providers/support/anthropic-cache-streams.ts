// Anthropic Messages streams of a two-round tool loop with prompt caching: round 1 writes
// the prefix (system + tools + question) to the cache, round 2 reads it back. Synthetic
// (the event shapes of /work/shared/fixtures/anthropic/vercel-anthropic-tool-no-args.chunks.txt,
// with the cache counts a cached prefix of 2048 tokens gives), written here, not recorded.
import type { Reply } from './replay-server.js';

export const MODEL = 'claude-sonnet-4-5-20250929';

function anthropicStream(events: Record<string, unknown>[]): Reply {
  const body = events
    .map((event) => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');
  return { kind: 'sse', body };
}

const usage = (input: number, write: number, read: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: write,
  cache_read_input_tokens: read,
  output_tokens: output,
});

const start = (id: string, counts: ReturnType<typeof usage>) => ({
  type: 'message_start',
  message: {
    model: MODEL,
    id,
    type: 'message',
    role: 'assistant',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: counts,
  },
});

/** Round 1: the prefix (system + tools + question) is written to the cache; a tool call. */
export const round1 = anthropicStream([
  start('msg_round1', usage(12, 2048, 0, 1)),
  {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
  },
  {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json: '{"location":"Paris"}' },
  },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: usage(12, 2048, 0, 20),
  },
  { type: 'message_stop' },
]);

/** Round 2: the prefix is read back; only the tool turn is new. */
export const round2 = anthropicStream([
  start('msg_round2', usage(9, 61, 2048, 1)),
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sunny.' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: usage(9, 61, 2048, 3),
  },
  { type: 'message_stop' },
]);
