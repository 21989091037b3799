import { lastValueFrom, NEVER, of, throwError, toArray, type Observable } from 'rxjs';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import {
  ChatClient,
  ChatRequest,
  createAdvisorChain,
  InvalidOptionsError,
  Order,
  PromptCachingAdvisor,
  type ChatChunk,
  type ChatModel,
  type PromptCacheRound,
} from '../../lib/index';
import { AiSdkChatModel } from '../../lib/providers/ai-sdk/index';
import { MockChatModel } from '../../lib/testing/index';

const request = (): ChatRequest =>
  ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

const cachedAnswer: ChatChunk[] = [
  { type: 'text-delta', text: 'Hi' },
  {
    type: 'usage',
    usage: { inputTokens: 100, outputTokens: 2, totalTokens: 102, cacheReadTokens: 80 },
  },
  { type: 'finish', reason: 'stop' },
];

/** A model that answers every call with `chunks$` and keeps the requests it got. */
function modelOf(chunks$: Observable<ChatChunk>): ChatModel & { seen: ChatRequest[] } {
  const seen: ChatRequest[] = [];
  return {
    provider: 'test',
    seen,
    stream: (received) => {
      seen.push(received);
      return chunks$;
    },
  };
}

describe('PromptCachingAdvisor', () => {
  it('sets the cache options of every round and reports what each round read and wrote', async () => {
    const rounds: PromptCacheRound[] = [];
    const model = modelOf(of(...cachedAnswer));
    const advisor = new PromptCachingAdvisor({
      ttl: '1h',
      key: 'k',
      onRound: (r) => rounds.push(r),
    });
    const chain = createAdvisorChain({ advisors: [advisor], model });
    const first = request();
    const chunks = await lastValueFrom(chain.next(first).pipe(toArray()));
    await lastValueFrom(chain.next(first));
    expect(chunks).toEqual(cachedAnswer);
    expect(model.seen[0].options.promptCache).toEqual({
      breakpoints: ['system', 'tools', 'conversation'],
      ttl: '1h',
      key: 'k',
    });
    const report = { inputTokens: 100, cacheReadTokens: 80, cacheWriteTokens: undefined };
    expect(rounds).toEqual([
      { round: 1, ...report },
      { round: 2, ...report },
    ]);
    expect(PromptCachingAdvisor.rounds(first.context)).toEqual(rounds);
    expect(advisor.order).toBe(Order.PROMPT_CACHING);
  });

  it('starts each call (context) at round 1', async () => {
    const rounds: number[] = [];
    const client = ChatClient.builder(MockChatModel.script([{ text: 'a' }, { text: 'b' }]))
      .defaultAdvisors(new PromptCachingAdvisor({ onRound: (r) => rounds.push(r.round) }))
      .build();
    const content$ = client.prompt('Hi').call().content();
    await lastValueFrom(content$);
    await lastValueFrom(content$);
    expect(rounds).toEqual([1, 1]);
  });

  it('passes a source error on and reports nothing for the failed round', async () => {
    const onRound = jest.fn();
    const boom = new Error('boom');
    const chain = createAdvisorChain({
      advisors: [new PromptCachingAdvisor({ onRound })],
      model: modelOf(throwError(() => boom)),
    });
    await expect(lastValueFrom(chain.next(request()))).rejects.toBe(boom);
    expect(onRound).not.toHaveBeenCalled();
  });

  it('fails the call when onRound throws', async () => {
    const oops = new Error('callback broke');
    const chain = createAdvisorChain({
      advisors: [
        new PromptCachingAdvisor({
          onRound: () => {
            throw oops;
          },
        }),
      ],
      model: modelOf(of(...cachedAnswer)),
    });
    await expect(lastValueFrom(chain.next(request()).pipe(toArray()))).rejects.toBe(oops);
  });

  it('reports unknown counts for an empty round, and nothing when unsubscribed early', async () => {
    const rounds: PromptCacheRound[] = [];
    const onRound = (r: PromptCacheRound) => rounds.push(r);
    const empty = createAdvisorChain({
      advisors: [new PromptCachingAdvisor({ onRound })],
      model: modelOf(of<ChatChunk>()),
    });
    expect(await lastValueFrom(empty.next(request()).pipe(toArray()))).toEqual([]);
    const stalled = createAdvisorChain({
      advisors: [new PromptCachingAdvisor({ onRound })],
      model: modelOf(NEVER),
    });
    stalled.next(request()).subscribe().unsubscribe();
    expect(rounds).toEqual([
      { round: 1, inputTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    ]);
  });

  it.each([
    ['breakpoints', { breakpoints: ['messages'] }],
    ['ttl', { ttl: '2h' }],
    ['key', { key: '' }],
    ['onRound', { onRound: 1 }],
  ])('rejects a bad %s', (option, options) => {
    expect(() => new PromptCachingAdvisor(options as never)).toThrow(InvalidOptionsError);
    expect(() => new PromptCachingAdvisor(options as never)).toThrow(
      expect.objectContaining({ option }) as Error,
    );
  });

  it('reaches an AI SDK model as Anthropic cacheControl and OpenAI promptCacheKey, merged with extra', async () => {
    const model = new MockLanguageModelV3({
      doStream: () =>
        Promise.resolve({
          stream: convertArrayToReadableStream([
            {
              type: 'finish' as const,
              finishReason: { unified: 'stop' as const, raw: 'stop' },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 1, text: 1, reasoning: undefined },
              },
            },
          ]),
        }),
    });
    const client = ChatClient.builder(new AiSdkChatModel({ model }))
      .defaultAdvisors(new PromptCachingAdvisor({ breakpoints: ['system'], key: 'tenant-7' }))
      .defaultSystem('Be brief.')
      .defaultOptions({ extra: { providerOptions: { openai: { user: 'u1' } } } })
      .build();
    await lastValueFrom(client.prompt('Hi').call().content());
    const call = model.doStreamCalls[0];
    expect(call.prompt[0]).toEqual({
      role: 'system',
      content: 'Be brief.',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    });
    expect(call.prompt[1].providerOptions).toBeUndefined();
    expect(call.providerOptions).toEqual({ openai: { promptCacheKey: 'tenant-7', user: 'u1' } });
  });
});
