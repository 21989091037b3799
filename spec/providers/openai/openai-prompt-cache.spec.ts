// PromptCachingAdvisor with the native OpenAiChatModel and the real openai SDK: the cache
// key reaches the wire as prompt_cache_key (both APIs), and the cached input tokens the
// replayed streams report come back per round as cache reads.
import { lastValueFrom } from 'rxjs';
import {
  PromptCachingAdvisor,
  type PromptCacheRound,
} from '../../../lib/advisor/prompt-caching-advisor.js';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { openAiClient } from '../support/clients.js';
import { getTime } from '../support/conversation.js';
import { framesFromLines, responsesRounds } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { chatChunk } from '../support/synthetic-streams.js';

jest.setTimeout(20_000);

/** The usage chunk of a call whose prompt had `cached` tokens served from the cache. */
function usageLine(prompt: number, cached: number, completion: number): string {
  return JSON.stringify({
    id: 'chatcmpl-synthetic-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-synthetic',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
    },
  });
}

/** Round 1: a tool call; nothing cached yet. Round 2: the prefix of round 1 is read back. */
const round1 = framesFromLines('openai-chat', [
  chatChunk({
    role: 'assistant',
    tool_calls: [
      {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'getTime', arguments: '{"city":"Paris"}' },
      },
    ],
  }),
  chatChunk({}, 'tool_calls'),
  usageLine(1100, 0, 12),
]);
const round2 = framesFromLines('openai-chat', [
  chatChunk({ role: 'assistant', content: 'Noon.' }),
  chatChunk({}, 'stop'),
  usageLine(1140, 1024, 3),
]);

describe('PromptCachingAdvisor through OpenAiChatModel', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  it('chat: sends prompt_cache_key each round; round 2 reports the cached prefix as reads', async () => {
    server.enqueue({ kind: 'sse', body: round1 }, { kind: 'sse', body: round2 });
    const reported: PromptCacheRound[] = [];
    const client = ChatClient.builder(
      new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' }),
    )
      .defaultTools(getTime)
      .defaultAdvisors(
        new PromptCachingAdvisor({ key: 'tenant-7', onRound: (round) => reported.push(round) }),
      )
      .build();

    const response = await lastValueFrom(client.prompt('Time in Paris?').call().chatResponse());

    expect(response.text).toBe('Noon.');
    expect(server.requests.map((request): unknown => request.body.prompt_cache_key)).toEqual([
      'tenant-7',
      'tenant-7',
    ]);
    // OpenAI places no breakpoints: nothing Anthropic-shaped reaches the body.
    expect(JSON.stringify(server.requests[0].body)).not.toContain('cache_control');
    expect(reported).toEqual([
      { round: 1, inputTokens: 1100, cacheReadTokens: 0, cacheWriteTokens: undefined },
      { round: 2, inputTokens: 1140, cacheReadTokens: 1024, cacheWriteTokens: undefined },
    ]);
  });

  it('responses: sends prompt_cache_key', async () => {
    server.enqueue({ kind: 'sse', body: responsesRounds('azure-tool-call.1.chunks.txt')[0] });
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
    const client = ChatClient.builder(model)
      .defaultAdvisors(new PromptCachingAdvisor({ key: 'tenant-7' }))
      .build();
    // The recorded answer calls a tool; no loop here (the request body is what is checked).
    await lastValueFrom(
      client
        .prompt('Hi')
        .advisorParams({ toolCallingAdvisorAutoRegister: false })
        .call()
        .chatResponse(),
    );
    expect(server.requests[0].body.prompt_cache_key).toBe('tenant-7');
  });
});
