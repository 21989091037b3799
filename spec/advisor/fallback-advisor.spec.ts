import { lastValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import {
  ChatClient,
  ChatRequest,
  createAdvisorChain,
  FallbackAdvisor,
  InvalidOptionsError,
  Order,
  ProviderError,
  type ChatChunk,
  type ChatModel,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const overloaded = (provider = 'primary'): ProviderError =>
  new ProviderError({ provider, message: 'overloaded', status: 503, retryable: true });

/** A model that answers every call with `chunks$` and counts its calls. */
function countingModel(
  provider: string,
  chunks$: Observable<ChatChunk>,
): ChatModel & { calls: number } {
  const model = {
    provider,
    calls: 0,
    stream: () => {
      model.calls++;
      return chunks$;
    },
  };
  return model;
}

const answer = (text: string): Observable<ChatChunk> =>
  of<ChatChunk[]>({ type: 'text-delta', text }, { type: 'finish', reason: 'stop' });

const ask = (client: ChatClient): Promise<string> =>
  lastValueFrom(client.prompt('Hi').call().content());

describe('ChatRequest.withChatModel and the end of the chain', () => {
  it('streams the model the request names instead of the chain model', async () => {
    const named = MockChatModel.script([{ text: 'named' }]);
    const chainModel = MockChatModel.script([{ text: 'chain' }]);
    const chain = createAdvisorChain({ advisors: [], model: chainModel });
    const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
    const chunks = await lastValueFrom(chain.next(request.withChatModel(named)).pipe(toArray()));
    expect(chunks).toContainEqual({ type: 'text-delta', text: 'named' });
    expect(chainModel.requests).toHaveLength(0);
    expect(request.withChatModel(named).withOptions({ temperature: 0 }).chatModel).toBe(named);
    expect(request.withChatModel(named).withChatModel(undefined).chatModel).toBeUndefined();
  });
});

describe('FallbackAdvisor', () => {
  it('defaults: Order.FALLBACK, inside the tool loop and outside RetryAdvisor', () => {
    const fallback = new FallbackAdvisor({ models: [MockChatModel.script([])] });
    expect(fallback.order).toBe(Order.FALLBACK);
    expect(fallback.name).toBe('fallback');
    expect(Order.TOOL_CALLING).toBeLessThan(Order.FALLBACK);
    expect(Order.FALLBACK).toBeLessThan(Order.RETRY);
  });

  it.each([
    ['models', {}],
    ['models', { models: [] }],
    ['models', { models: [{ provider: 'x' }] }],
    ['shouldFallback', { models: [MockChatModel.script([])], shouldFallback: true }],
    ['scheduler', { models: [MockChatModel.script([])], scheduler: {} }],
    ['order', { models: [MockChatModel.script([])], order: Number.NaN }],
  ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
    const create = () => new FallbackAdvisor(options as never);
    expect(create).toThrow(InvalidOptionsError);
    expect(create).toThrow(expect.objectContaining({ option }) as Error);
  });

  it('answers with the backup when the primary fails with a retryable ProviderError', async () => {
    const primary = countingModel(
      'primary',
      throwError(() => overloaded()),
    );
    const backup = countingModel('backup', answer('from the backup'));
    const client = ChatClient.builder(primary)
      .defaultAdvisors(new FallbackAdvisor({ models: [primary, backup] }))
      .build();
    expect(await ask(client)).toBe('from the backup');
    expect([primary.calls, backup.calls]).toEqual([1, 1]);
  });

  it('falls back on a failure the predicate accepts, and gives it the failed model', async () => {
    const plain = new Error('quota exceeded');
    const primary = countingModel(
      'primary',
      throwError(() => plain),
    );
    const backup = countingModel('backup', answer('ok'));
    const seen: [unknown, string][] = [];
    const fallback = new FallbackAdvisor({
      models: [primary, backup],
      shouldFallback: (error, model) => {
        seen.push([error, model.provider]);
        return true;
      },
    });
    const client = ChatClient.builder(primary).defaultAdvisors(fallback).build();
    expect(await ask(client)).toBe('ok');
    expect(seen).toEqual([[plain, 'primary']]);
  });

  it('fails with the error a throwing predicate throws', async () => {
    const oops = new Error('predicate broke');
    const primary = countingModel(
      'primary',
      throwError(() => overloaded()),
    );
    const backup = countingModel('backup', answer('never'));
    const fallback = new FallbackAdvisor({
      models: [primary, backup],
      shouldFallback: () => {
        throw oops;
      },
    });
    const client = ChatClient.builder(primary).defaultAdvisors(fallback).build();
    await expect(ask(client)).rejects.toBe(oops);
    expect(backup.calls).toBe(0);
  });

  it('does not fall back on an empty answer (the stream ends normally)', async () => {
    const primary = countingModel('primary', of<ChatChunk>({ type: 'finish', reason: 'stop' }));
    const backup = countingModel('backup', answer('never'));
    const client = ChatClient.builder(primary)
      .defaultAdvisors(new FallbackAdvisor({ models: [primary, backup] }))
      .build();
    expect(await ask(client)).toBe('');
    expect(backup.calls).toBe(0);
  });

  it('starts each subscription with the first model again (no state but Retry-After)', async () => {
    const primary = countingModel(
      'primary',
      throwError(() => overloaded()),
    );
    const backup = countingModel('backup', answer('ok'));
    const content$ = ChatClient.builder(primary)
      .defaultAdvisors(new FallbackAdvisor({ models: [primary, backup] }))
      .build()
      .prompt('Hi')
      .call()
      .content();
    expect(await lastValueFrom(content$)).toBe('ok');
    expect(await lastValueFrom(content$)).toBe('ok');
    expect([primary.calls, backup.calls]).toEqual([2, 2]);
  });
});
