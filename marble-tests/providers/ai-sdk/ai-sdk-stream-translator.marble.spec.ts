import { type TestScheduler } from 'rxjs/testing';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { ProviderIdleTimeoutError } from '../../../lib/errors/provider-idle-timeout-error';
import type { AiSdkStreamPart } from '../../../lib/providers/ai-sdk/ai-sdk-language-model';
import { AiSdkStreamTranslator } from '../../../lib/providers/ai-sdk/ai-sdk-stream-translator';
import { translateStream } from '../../../lib/providers/kit/translate-stream';
import { createTestScheduler } from '../../support/test-scheduler';

const errors = { provider: 'test', secrets: [] };

const parts: Record<string, AiSdkStreamPart> = {
  s: { type: 'stream-start', warnings: [] },
  r: { type: 'response-metadata', id: 'resp_1', modelId: 'm' },
  t: { type: 'text-delta', id: 'x', delta: 'Hi' },
  a: { type: 'tool-input-start', id: 'call_1', toolName: 'weather' },
  b: { type: 'tool-input-delta', id: 'call_1', delta: '{"city":"Oslo"}' },
  c: { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Oslo"}' },
  f: {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
  },
};

const chunks: Record<string, ChatChunk> = {
  m: { type: 'metadata', id: 'resp_1', model: 'm' },
  h: { type: 'text-delta', text: 'Hi' },
  d: { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'weather', argumentsDelta: '' },
  e: { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Oslo"}' },
  c: { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
  u: { type: 'usage', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
  f: { type: 'finish', reason: 'tool-calls' },
};

const bridge = (events$: TranslateInput, idleTimeout?: number) =>
  translateStream({
    events$,
    createTranslator: () => new AiSdkStreamTranslator(errors, 'm'),
    errors,
    ...(idleTimeout === undefined ? {} : { idleTimeout }),
  });

type TranslateInput = Parameters<typeof translateStream<AiSdkStreamPart>>[0]['events$'];

describe('AiSdkStreamTranslator through translateStream (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('emits each part on its own frame; usage and finish when the stream completes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold<AiSdkStreamPart>('-s-r-t--a-b--c-f-|', parts);
      expectObservable(bridge(events$)).toBe('---m-h--d-e--c---(uf|)', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^----------------!');
    });
  });

  it('fails a stall with a retryable ProviderIdleTimeoutError and unsubscribes the parts', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold<AiSdkStreamPart>('-r-t-------', parts);
      const error = new ProviderIdleTimeoutError({ provider: 'test', idleTimeout: 4 });
      expectObservable(bridge(events$, 4)).toBe('-m-h---#', chunks, error);
      expectSubscriptions(events$.subscriptions).toBe('^------!');
    });
  });

  it('tears the parts down when the subscriber unsubscribes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events$ = cold<AiSdkStreamPart>('-r-t-t-t-f|', parts);
      expectObservable(bridge(events$), '^-----!').toBe('-m-h-h-', chunks);
      expectSubscriptions(events$.subscriptions).toBe('^-----!');
    });
  });

  it('fails a stream that completes without a finish part', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const events$ = cold<AiSdkStreamPart>('-r-t-|', parts);
      expectObservable(bridge(events$)).toBe(
        '-m-h-#',
        chunks,
        expect.objectContaining({ retryable: true }) as unknown,
      );
    });
  });
});
