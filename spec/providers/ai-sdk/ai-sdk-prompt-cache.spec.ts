// PromptCachingAdvisor through the bridge and the real @ai-sdk/anthropic package: the
// breakpoints reach the wire as cache_control, and round 2 of a tool loop reads what
// round 1 wrote. The two streams are synthetic (the Anthropic Messages event shapes of
// /work/shared/fixtures/anthropic/vercel-anthropic-tool-no-args.chunks.txt, with the cache
// counts a cached prefix of 2048 tokens gives), written here, not recorded.
import { createAnthropic } from '@ai-sdk/anthropic';
import { lastValueFrom } from 'rxjs';
import {
  PromptCachingAdvisor,
  type PromptCacheRound,
} from '../../../lib/advisor/prompt-caching-advisor.js';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { AiSdkChatModel } from '../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import {
  startReplayServer,
  type ReplayServer,
  type Reply,
  type WireJson,
} from '../support/replay-server.js';

jest.setTimeout(20_000);

const MODEL = 'claude-sonnet-4-5-20250929';

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
const round1 = anthropicStream([
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
const round2 = anthropicStream([
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

describe('PromptCachingAdvisor through AiSdkChatModel (@ai-sdk/anthropic)', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  it('marks system, tools and the moving end of the conversation; round 2 reads what round 1 wrote', async () => {
    server.enqueue(round1, round2);
    const anthropic = createAnthropic({ apiKey: 'sk-ant-test', baseURL: server.url });
    const model = new AiSdkChatModel({ model: anthropic(MODEL) });
    const reported: PromptCacheRound[] = [];
    const client = ChatClient.builder(model)
      .defaultSystem('You are a weather assistant.')
      .defaultTools(
        tool({
          name: 'weather',
          description: 'The weather in a location',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
          execute: () => 'sunny',
        }),
      )
      .defaultAdvisors(new PromptCachingAdvisor({ onRound: (round) => reported.push(round) }))
      .build();

    const response = await lastValueFrom(client.prompt('Weather in Paris?').call().chatResponse());

    expect(response.text).toBe('Sunny.');
    const ephemeral = { type: 'ephemeral' };
    const [first, second] = server.requests.map((request): WireJson => request.body);
    expect(first.system).toEqual([
      { type: 'text', text: 'You are a weather assistant.', cache_control: ephemeral },
    ]);
    expect(first.tools.at(-1).cache_control).toEqual(ephemeral);
    expect(first.messages.at(-1).content.at(-1)).toEqual({
      type: 'text',
      text: 'Weather in Paris?',
      cache_control: ephemeral,
    });
    // The breakpoint moved to the end of round 2's conversation: the tool result.
    expect(second.messages.at(-1).content.at(-1)).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      cache_control: ephemeral,
    });
    expect(second.messages[0].content.at(-1).cache_control).toBeUndefined();

    expect(reported).toEqual([
      { round: 1, inputTokens: 12 + 2048, cacheReadTokens: 0, cacheWriteTokens: 2048 },
      { round: 2, inputTokens: 9 + 61 + 2048, cacheReadTokens: 2048, cacheWriteTokens: 61 },
    ]);
    expect(reported[1].cacheReadTokens).toBe(reported[0].cacheWriteTokens);
    expect(response.usage).toMatchObject({ cacheReadTokens: 2048, cacheWriteTokens: 2048 + 61 });
  });
});
