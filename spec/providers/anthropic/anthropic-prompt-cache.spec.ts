// PromptCachingAdvisor with the native AnthropicChatModel and the real @anthropic-ai/sdk:
// the breakpoints reach the wire as cache_control (system, last tool, moving end of the
// conversation), and round 2 of a tool loop reads what round 1 wrote, from the usage the
// replayed streams report.
import { lastValueFrom } from 'rxjs';
import {
  PromptCachingAdvisor,
  type PromptCacheRound,
} from '../../../lib/advisor/prompt-caching-advisor.js';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { round1, round2 } from '../support/anthropic-cache-streams.js';
import { anthropicClient } from '../support/clients.js';
import { startReplayServer, type ReplayServer, type WireJson } from '../support/replay-server.js';

jest.setTimeout(20_000);

describe('PromptCachingAdvisor through AnthropicChatModel', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  const client = (advisor: PromptCachingAdvisor): ChatClient =>
    ChatClient.builder(
      new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' }),
    )
      .defaultSystem('You are a weather assistant.')
      .defaultTools(
        tool({
          name: 'weather',
          description: 'The weather in a location',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
          execute: () => 'sunny',
        }),
      )
      .defaultAdvisors(advisor)
      .build();

  it('marks system, tools and the moving end of the conversation; round 2 reads what round 1 wrote', async () => {
    server.enqueue(round1, round2);
    const reported: PromptCacheRound[] = [];
    const advisor = new PromptCachingAdvisor({ onRound: (round) => reported.push(round) });

    const response = await lastValueFrom(
      client(advisor).prompt('Weather in Paris?').call().chatResponse(),
    );

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
    // Round 2: the breakpoint moved to the end of the conversation, the tool result; the
    // question's block no longer carries one (round 2 builds its body afresh).
    expect(second.messages.at(-1).content.at(-1)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'sunny',
      cache_control: ephemeral,
    });
    expect(second.messages[0].content.at(-1).cache_control).toBeUndefined();
    expect(second.system[0].cache_control).toEqual(ephemeral);

    expect(reported).toEqual([
      { round: 1, inputTokens: 12 + 2048, cacheReadTokens: 0, cacheWriteTokens: 2048 },
      { round: 2, inputTokens: 9 + 61 + 2048, cacheReadTokens: 2048, cacheWriteTokens: 61 },
    ]);
    expect(reported[1].cacheReadTokens).toBe(reported[0].cacheWriteTokens);
    expect(response.usage).toMatchObject({ cacheReadTokens: 2048, cacheWriteTokens: 2048 + 61 });
  });

  it('sends the TTL and only the breakpoints asked for', async () => {
    server.enqueue(round1, round2);
    const advisor = new PromptCachingAdvisor({ breakpoints: ['tools'], ttl: '1h' });
    await lastValueFrom(client(advisor).prompt('Weather in Paris?').call().chatResponse());
    const first: WireJson = server.requests[0].body;
    expect(first.system).toBe('You are a weather assistant.');
    expect(first.tools.at(-1).cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(JSON.stringify(first.messages)).not.toContain('cache_control');
  });

  it('sends no cache_control without the advisor', async () => {
    server.enqueue(round2);
    const plain = ChatClient.create(
      new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' }),
    );
    await lastValueFrom(plain.prompt('Hi').call().chatResponse());
    expect(JSON.stringify(server.requests[0].body)).not.toContain('cache_control');
  });
});
