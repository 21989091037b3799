import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { type TestScheduler } from 'rxjs/testing';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { AnthropicStreamTranslator } from '../../lib/providers/anthropic/anthropic-stream-translator';
import { ChatCompletionsTranslator } from '../../lib/providers/openai/chat-completions-translator';
import { ResponsesTranslator } from '../../lib/providers/openai/responses-translator';
import { toProviderError } from '../../lib/providers/kit/to-provider-error';
import { translateStream } from '../../lib/providers/kit/translate-stream';
import { createTestScheduler } from '../support/test-scheduler';

const errors = { provider: 'test', secrets: [] };

/** A Chat Completions chunk for choice 0 (only the fields the translator reads). */
const chat = (delta: Record<string, unknown>, finish: string | null = null, usage?: object) =>
  ({
    id: 'c1',
    model: 'm',
    object: 'chat.completion.chunk',
    created: 0,
    choices: finish === 'none' ? [] : [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  }) as unknown as OpenAI.ChatCompletionChunk;

const a = chat({ content: 'Hi' });
const b = chat({ content: ' there' }, 'stop');
const c = chat({}, 'none', { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });

const chunks: Record<string, ChatChunk> = {
  m: { type: 'metadata', id: 'c1', model: 'm' },
  h: { type: 'text-delta', text: 'Hi' },
  t: { type: 'text-delta', text: ' there' },
  u: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
  n: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
  f: { type: 'finish', reason: 'stop' },
  o: { type: 'finish', reason: 'other' },
};

describe('translateStream (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('emits each event’s chunks on that event’s frame, and usage and finish at the end', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('-a-------b---c---|', { a, b, c });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      expectObservable(result$).toBe('-(mh)----t-------(uf|)', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^----------------!');
    });
  });

  it('turns a source error into a ProviderError after the chunks already sent', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const dropped = Object.assign(new TypeError('terminated'), {
        cause: new Error('other side closed'),
      });
      const events$ = cold('-a---#', { a }, dropped);
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      expectObservable(result$).toBe('-(mh)#', chunks, toProviderError(dropped, errors));
      expectSubscriptions(events$.subscriptions).toBe('^----!');
    });
  });

  it('fails and unsubscribes from the source when the translator throws on an event', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failed = {
        type: 'response.failed',
        sequence_number: 1,
        response: {
          id: 'r',
          model: 'm',
          usage: null,
          error: { code: 'server_error', message: 'crashed' },
        },
      } as unknown as OpenAI.Responses.ResponseStreamEvent;
      const events$ = cold('--x---y|', { x: failed, y: failed });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ResponsesTranslator(),
        errors,
      });
      expectObservable(result$).toBe(
        '--#',
        undefined,
        expect.objectContaining({
          provider: 'test',
          retryable: true,
          message: 'test: the stream reported an error (server_error): crashed',
        }) as unknown,
      );
      expectSubscriptions(events$.subscriptions).toBe('^-!');
    });
  });

  it('ends an empty Chat Completions source with unknown usage and finish other', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const events$ = cold<OpenAI.ChatCompletionChunk>('--|');
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      expectObservable(result$).toBe('--(no|)', chunks);
    });
  });

  it('fails an empty Anthropic source: the stream ended before message_stop', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const events$ = cold<Anthropic.RawMessageStreamEvent>('--|');
      const result$ = translateStream({
        events$,
        createTranslator: () => new AnthropicStreamTranslator(),
        errors,
      });
      expectObservable(result$).toBe(
        '--#',
        undefined,
        expect.objectContaining({ provider: 'test', retryable: true }) as unknown,
      );
    });
  });

  it('stops reading the source on early unsubscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold('-a-------b---c---|', { a, b, c });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      expectObservable(result$, '^-----!').toBe('-(mh)-', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^-----!');
    });
  });

  it('gives every subscription its own translator', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const call = chat({
        tool_calls: [{ index: 0, id: 'k', function: { name: 'f', arguments: '{}' } }],
      });
      const done = chat({}, 'tool_calls');
      const events$ = cold('-a----b|', { a: call, b: done });
      const result$ = translateStream({
        events$,
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
      });
      const values: Record<string, ChatChunk> = {
        m: chunks.m,
        d: { type: 'tool-call-delta', index: 0, id: 'k', name: 'f', argumentsDelta: '{}' },
        k: { type: 'tool-call', id: 'k', name: 'f', arguments: '{}' },
        n: chunks.n,
        f: { type: 'finish', reason: 'tool-calls' },
      };
      // Two subscriptions, the second later: each sees exactly one tool call.
      expectObservable(result$).toBe('-(md)-k(nf|)', values);
      expectObservable(result$, '--^').toBe('---(md)-k(nf|)', values);
      expectSubscriptions(events$.subscriptions).toBe(['^------!', '--^------!']);
    });
  });
});
