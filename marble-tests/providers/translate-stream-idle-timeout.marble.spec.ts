import type OpenAI from 'openai';
import { type TestScheduler } from 'rxjs/testing';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ProviderIdleTimeoutError } from '../../lib/errors/provider-idle-timeout-error';
import { ChatCompletionsTranslator } from '../../lib/providers/openai/chat-completions-translator';
import { translateStream } from '../../lib/providers/kit/translate-stream';
import { createTestScheduler } from '../support/test-scheduler';

const errors = { provider: 'test', secrets: [] };

const chat = (delta: Record<string, unknown>, finish: string | null = null) =>
  ({
    id: 'c1',
    model: 'm',
    object: 'chat.completion.chunk',
    created: 0,
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) as unknown as OpenAI.ChatCompletionChunk;

const a = chat({ content: 'Hi' });
const b = chat({ content: ' there' }, 'stop');

const chunks: Record<string, ChatChunk> = {
  m: { type: 'metadata', id: 'c1', model: 'm' },
  h: { type: 'text-delta', text: 'Hi' },
  t: { type: 'text-delta', text: ' there' },
  n: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
  f: { type: 'finish', reason: 'stop' },
};

const idle = (idleTimeout: number): ProviderIdleTimeoutError =>
  new ProviderIdleTimeoutError({ provider: 'test', idleTimeout });

describe('translateStream idleTimeout (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('fails with ProviderIdleTimeoutError when the first event does not come in time, and unsubscribes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('-------a|', { a });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: 5,
      });
      expectObservable(result$).toBe('-----#', undefined, idle(5));
      expectSubscriptions(events$.subscriptions).toBe('^----!');
    });
  });

  it('restarts the clock at every event and fails after a silence between two', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('-a----------b|', { a, b });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: 5,
      });
      expectObservable(result$).toBe('-(mh)-#', chunks, idle(5));
      expectSubscriptions(events$.subscriptions).toBe('^-----!');
    });
  });

  it('lets a stream whose gaps stay under the limit complete', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('----a----b----|', { a, b });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: 5,
      });
      expectObservable(result$).toBe('----(mh)-t----(nf|)', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^-------------!');
    });
  });

  it('uses 120 s by default', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('- 119999ms a 120s b|', { a, b });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      expectObservable(result$).toBe('- 119999ms (mh) 119996ms #', chunks, idle(120_000));
      expectSubscriptions(events$.subscriptions).toBe('^ 239999ms !');
    });
  });

  it('never times out with Infinity', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const events$ = cold('- 1000s a 1000s b|', { a, b });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: Infinity,
      });
      expectObservable(result$).toBe('- 1000s (mh) 999997ms t(nf|)', chunks);
    });
  });

  it('gives every subscription its own clock', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('---a----b|', { a, b });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: 5,
      });
      expectObservable(result$).toBe('---(mh)-t(nf|)', chunks);
      expectObservable(result$, '---^').toBe('------(mh)-t(nf|)', chunks);
      expectSubscriptions(events$.subscriptions).toBe(['^--------!', '---^--------!']);
    });
  });

  it('stops the clock on early unsubscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('-a---------', { a });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout: 5,
      });
      expectObservable(result$, '^--!').toBe('-(mh)', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^--!');
    });
  });
});
