import { ChatRequest, createAdvisorChain, recursiveAdvisor, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const values: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'one' },
  b: { type: 'text-delta', text: 'two' },
  c: { type: 'text-delta', text: 'three' },
  f: { type: 'finish', reason: 'stop' },
  r: { type: 'retry', attempt: 2, reason: 'again', advisor: 'again' },
  m: { type: 'metadata', rounds: 2 },
  u: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
};

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

function twice(delay?: number) {
  return recursiveAdvisor({
    name: 'again',
    order: 0,
    next: ({ attempt, request: r }) =>
      attempt < 2
        ? { request: r, reason: 'again', ...(delay === undefined ? {} : { delay }) }
        : undefined,
  });
}

describe('recursiveAdvisor (marble)', () => {
  it("streams each attempt's deltas on their own frames", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-f|', values);
      const attempt2 = cold('-b--c-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = createAdvisorChain({ advisors: [twice()], model }).next(request);

      expectObservable(chunks$).toBe('-a--rb--c--(muf|)', values);
      expectSubscriptions(attempt1.subscriptions).toBe('^---!');
      expectSubscriptions(attempt2.subscriptions).toBe('----^------!');
    });
  });

  it('emits the retry chunk at once and waits the step delay before the next attempt', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-f|', values);
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = createAdvisorChain({ advisors: [twice(5)], model }).next(request);

      expectObservable(chunks$).toBe('-a--r 5ms b--(muf|)', {
        ...values,
        r: { ...values['r'], delay: 5 },
      });
      expectSubscriptions(attempt2.subscriptions).toBe('9ms ^---!');
    });
  });

  it('unsubscribing during the second attempt tears it down', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-f|', values);
      const attempt2 = cold('-b--c-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = createAdvisorChain({ advisors: [twice()], model }).next(request);

      expectObservable(chunks$, '^------!').toBe('-a--rb-', values);
      expectSubscriptions(attempt2.subscriptions).toBe('----^--!');
    });
  });

  it('passes an error of the source through when next stops', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a-#', values, new Error('boom'));
      const model = MockChatModel.fromStreams([attempt1]);
      const stop = recursiveAdvisor({ name: 'again', order: 0, next: () => undefined });
      const chunks$ = createAdvisorChain({ advisors: [stop], model }).next(request);

      expectObservable(chunks$).toBe('-a-#', values, new Error('boom'));
      expectSubscriptions(attempt1.subscriptions).toBe('^--!');
    });
  });

  it('an empty attempt still ends with metadata, usage and finish', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold<ChatChunk>('--|');
      const model = MockChatModel.fromStreams([attempt1]);
      const stop = recursiveAdvisor({ name: 'again', order: 0, next: () => undefined });
      const chunks$ = createAdvisorChain({ advisors: [stop], model }).next(request);

      expectObservable(chunks$).toBe('--(mug|)', {
        ...values,
        m: { type: 'metadata', rounds: 1 },
        g: { type: 'finish', reason: 'other' },
      });
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
    });
  });
});
