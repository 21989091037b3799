import { ChatClient, ProviderError, RetryAdvisor, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const overloaded = new ProviderError({
  provider: 'mock',
  message: 'overloaded',
  status: 529,
  retryable: true,
});

const values: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'Hal' },
  b: { type: 'text-delta', text: 'Hello' },
  f: { type: 'finish', reason: 'stop' },
  r: { type: 'retry', attempt: 2, reason: 'mock: overloaded', advisor: 'retry' },
  s: { type: 'retry', attempt: 3, reason: 'mock: overloaded', advisor: 'retry' },
  m: { type: 'metadata', rounds: 3 },
  u: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
};

describe('RetryAdvisor (marble)', () => {
  it('waits the exponential backoff in virtual time between attempts', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, overloaded);
      const attempt2 = cold('--#', values, overloaded);
      const attempt3 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2, attempt3]);
      const retry = new RetryAdvisor({ backoff: { initialDelay: 10, factor: 2 }, jitter: 0 });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(retry)
        .build()
        .prompt('Hi')
        .stream()
        .chunks();

      expectObservable(chunks$).toBe('-ar 11ms s 20ms b--(muf|)', {
        ...values,
        r: { ...values['r'], delay: 10 },
        s: { ...values['s'], delay: 20 },
      });
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('12ms ^-!');
      expectSubscriptions(attempt3.subscriptions).toBe('34ms ^---!');
    });
  });

  it('unsubscribing during the backoff cancels the wait and the next attempt', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, overloaded);
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const retry = new RetryAdvisor({ backoff: { initialDelay: 10 }, jitter: 0 });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(retry)
        .build()
        .prompt('Hi')
        .stream()
        .chunks();

      expectObservable(chunks$, '^----!').toBe('-ar--', {
        ...values,
        r: { ...values['r'], delay: 10 },
      });
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
  });

  it('re-throws the error of the last attempt when maxAttempts run out', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-#', values, overloaded);
      const attempt2 = cold('-#', values, overloaded);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const retry = new RetryAdvisor({ maxAttempts: 2, backoff: () => 5 });
      const chunks$ = ChatClient.builder(model)
        .defaultAdvisors(retry)
        .build()
        .prompt('Hi')
        .stream()
        .chunks();

      expectObservable(chunks$).toBe(
        '-r 5ms #',
        { ...values, r: { ...values['r'], delay: 5 } },
        overloaded,
      );
      expectSubscriptions(attempt1.subscriptions).toBe('^!');
      expectSubscriptions(attempt2.subscriptions).toBe('6ms ^!');
    });
  });
});
