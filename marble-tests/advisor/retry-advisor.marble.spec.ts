import {
  ChatClient,
  InvalidOptionsError,
  ProviderError,
  RetryAdvisor,
  type ChatChunk,
  type RetryAdvisorOptions,
  type RetryChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

/** A 429 whose Retry-After asked for `retryAfter` ms (or said nothing). */
const rateLimited = (retryAfter?: number): ProviderError =>
  new ProviderError({
    provider: 'mock',
    message: 'rate limited',
    status: 429,
    retryable: true,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });

const retry = (attempt: number, reason = 'mock: rate limited'): RetryChunk => ({
  type: 'retry',
  attempt,
  reason,
  advisor: 'retry',
});

const values: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'Hal' },
  b: { type: 'text-delta', text: 'Hello' },
  f: { type: 'finish', reason: 'stop' },
  r: retry(2),
  s: retry(3),
  e: retry(2, 'empty answer'),
  m: { type: 'metadata', rounds: 2 },
  n: { type: 'metadata', rounds: 3 },
  u: {
    type: 'usage',
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
  },
};

/** `values` with the waits the retry chunks announce (`r`, `s`: after errors; `e`: after an empty answer). */
function waited(r?: number, s?: number, e?: number): Record<string, ChatChunk> {
  const withDelay = (chunk: RetryChunk, delay: number | undefined): RetryChunk =>
    delay === undefined ? chunk : { ...chunk, delay };
  return {
    ...values,
    r: withDelay(retry(2), r),
    s: withDelay(retry(3), s),
    e: withDelay(retry(2, 'empty answer'), e),
  };
}

/** A `random` that answers these draws in order and fails the test on one draw too many. */
function draws(...numbers: number[]): () => number {
  return () => {
    const next = numbers.shift();
    if (next === undefined) throw new Error('random() was called more often than expected');
    return next;
  };
}

function chunksOf(model: MockChatModel, options: RetryAdvisorOptions) {
  return ChatClient.builder(model)
    .defaultAdvisors(new RetryAdvisor(options))
    .build()
    .prompt('Hi')
    .stream()
    .chunks();
}

describe('RetryAdvisor: jitter, Retry-After and maxDelay (marble)', () => {
  it.each([
    // The exponential delays are 10 and 20 ms; each wait is delay * (1 - jitter * random()).
    {
      label: 'default 0.5',
      jitter: undefined,
      random: [1, 0],
      waits: '5 and 20',
      delays: [5, 20],
      result: '-ar 6ms s 20ms b--(nuf|)',
    },
    {
      label: '1',
      jitter: 1,
      random: [0.5, 0.75],
      waits: '5 and 5',
      delays: [5, 5],
      result: '-ar 6ms s 5ms b--(nuf|)',
    },
    {
      label: '0',
      jitter: 0,
      random: [],
      waits: '10 and 20',
      delays: [10, 20],
      result: '-ar 11ms s 20ms b--(nuf|)',
    },
  ])(
    'jitters the exponential backoff (jitter $label, draws $random: waits $waits ms)',
    ({ jitter, random, delays, result }) => {
      createTestScheduler().run(({ cold, expectObservable }) => {
        const attempt1 = cold('-a#', values, rateLimited());
        const attempt2 = cold('--#', values, rateLimited());
        const attempt3 = cold('-b-f|', values);
        const model = MockChatModel.fromStreams([attempt1, attempt2, attempt3]);
        const options: RetryAdvisorOptions = {
          backoff: { initialDelay: 10, factor: 2 },
          random: draws(...random),
          ...(jitter === undefined ? {} : { jitter }),
        };

        expectObservable(chunksOf(model, options)).toBe(result, waited(...delays));
      });
    },
  );

  it('pins the subscriptions of a jittered backoff (default jitter 0.5, draws 1 then 0)', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, rateLimited());
      const attempt2 = cold('--#', values, rateLimited());
      const attempt3 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2, attempt3]);
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, random: draws(1, 0) });

      expectObservable(chunks$).toBe('-ar 6ms s 20ms b--(nuf|)', waited(5, 20));
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('7ms ^-!');
      expectSubscriptions(attempt3.subscriptions).toBe('29ms ^---!');
    });
  });

  it('waits the Retry-After when it is longer than the backoff', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#   ', values, rateLimited(30));
      const attempt2 = cold('-b-f| ', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, jitter: 0 });

      expectObservable(chunks$).toBe('-ar 29ms -b--(muf|)', waited(30));
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('32ms ^---!');
    });
  });

  it('waits the backoff when it is longer than the Retry-After, and rounds a fraction up', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, rateLimited(29.2));
      const attempt2 = cold('--#', values, rateLimited(5));
      const attempt3 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2, attempt3]);
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, jitter: 0 });

      // Waits: 30 (29.2 rounded up, over a backoff of 10), then 20 (the backoff, over 5).
      expectObservable(chunks$).toBe('-ar 31ms s 20ms b--(nuf|)', waited(30, 20));
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('32ms ^-!');
      expectSubscriptions(attempt3.subscriptions).toBe('54ms ^---!');
    });
  });

  it('ignores the Retry-After with respectRetryAfter: false', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, rateLimited(30));
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = chunksOf(model, {
        backoff: { initialDelay: 10 },
        jitter: 0,
        respectRetryAfter: false,
      });

      expectObservable(chunks$).toBe('-ar 9ms -b--(muf|)', waited(10));
      expectSubscriptions(attempt2.subscriptions).toBe('12ms ^---!');
    });
  });

  it('gives up at once, re-throwing the error, when the Retry-After exceeds maxDelay', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const tooLong = rateLimited(51);
      const attempt1 = cold('-a#', values, tooLong);
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = chunksOf(model, { maxDelay: 50, jitter: 0 });

      expectObservable(chunks$).toBe('-a#', values, tooLong);
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
  });

  it('waits a Retry-After equal to maxDelay, and cuts a longer backoff to maxDelay', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, rateLimited(50));
      const attempt2 = cold('--#', values, rateLimited());
      const attempt3 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2, attempt3]);
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 80 }, jitter: 0, maxDelay: 50 });

      expectObservable(chunks$).toBe('-ar 51ms s 50ms b--(nuf|)', waited(50, 50));
      expectSubscriptions(attempt2.subscriptions).toBe('52ms ^-!');
      expectSubscriptions(attempt3.subscriptions).toBe('104ms ^---!');
    });
  });

  it('unsubscribing during a Retry-After wait tears the timer down; no further model call', () => {
    const testScheduler = createTestScheduler();
    const pendingAfterUnsubscribe: number[] = [];
    let model: MockChatModel | undefined;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('-a#', values, rateLimited(30));
      const attempt2 = cold('-b-f|', values);
      model = MockChatModel.fromStreams([attempt1, attempt2]);
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, jitter: 0 });

      expectObservable(chunks$, '^----!').toBe('-ar--', waited(30));
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
      // One frame after the unsubscription: the Retry-After timer (due at 32) must be gone.
      testScheduler.schedule(() => {
        pendingAfterUnsubscribe.push(...testScheduler.actions.map((action) => action.delay));
      }, 6);
    });
    expect(pendingAfterUnsubscribe).toEqual([]);
    expect(model?.calls).toBe(1);
  });

  it('starts afresh on re-subscription: attempts, backoff and draws are per subscription', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first1 = cold('-a#', values, rateLimited());
      const first2 = cold('-b-f|', values);
      const second1 = cold('-a#', values, rateLimited());
      const second2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([first1, first2, second1, second2]);
      // A shared attempt count would make the second subscription wait 20 * 0.5 and say attempt 3.
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, random: draws(1, 1) });

      expectObservable(chunks$).toBe('-ar 5ms b--(muf|)', waited(5));
      expectObservable(chunks$, '40ms ^').toBe('40ms -ar 5ms b--(muf|)', waited(5));
      expectSubscriptions(first1.subscriptions).toBe('^-!');
      expectSubscriptions(first2.subscriptions).toBe('7ms ^---!');
      expectSubscriptions(second1.subscriptions).toBe('40ms ^-!');
      expectSubscriptions(second2.subscriptions).toBe('47ms ^---!');
    });
  });

  it('jitters the wait after an empty answer (an empty source), rounded up', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const attempt1 = cold('--|', values);
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      // 10 * (1 - 0.5 * 0.5) = 7.5, waited as 8.
      const chunks$ = chunksOf(model, { backoff: { initialDelay: 10 }, random: draws(0.5) });

      expectObservable(chunks$).toBe('--e 8ms b--(muf|)', waited(undefined, undefined, 8));
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe('10ms ^---!');
    });
  });

  it('re-throws an error that is not retryable without drawing a random number', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const badRequest = new ProviderError({ provider: 'mock', message: 'bad', status: 400 });
      const attempt1 = cold('-a#', values, badRequest);
      const model = MockChatModel.fromStreams([attempt1]);
      const chunks$ = chunksOf(model, { random: draws() });

      expectObservable(chunks$).toBe('-a#', values, badRequest);
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
    });
  });

  it('fails the stream when random throws or answers outside [0, 1]', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const crash = new Error('no entropy');
      const attempt1 = cold('-a#', values, rateLimited());
      const attempt2 = cold('-b-f|', values);
      const model = MockChatModel.fromStreams([attempt1, attempt2]);
      const throwing = chunksOf(model, {
        random: () => {
          throw crash;
        },
      });

      expectObservable(throwing).toBe('-a#', values, crash);
      expectSubscriptions(attempt1.subscriptions).toBe('^-!');
      expectSubscriptions(attempt2.subscriptions).toBe([]);
    });
    createTestScheduler().run(({ cold, expectObservable }) => {
      const attempt1 = cold('-a#', values, rateLimited());
      const model = MockChatModel.fromStreams([attempt1]);
      const chunks$ = chunksOf(model, { random: () => 2 });

      expectObservable(chunks$).toBe(
        '-a#',
        values,
        new InvalidOptionsError({
          option: 'random',
          value: 2,
          expected: 'a number in [0, 1] from random()',
        }),
      );
    });
  });
});
