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
import { MODEL, round1, round2 } from '../support/anthropic-cache-streams.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';

jest.setTimeout(20_000);

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
