import { throwError, type Observable } from 'rxjs';
import {
  advisor,
  ChatRequest,
  createAdvisorChain,
  FallbackAdvisor,
  ProviderError,
  RetryAdvisor,
  type ChatChunk,
  type ChatModel,
  type FallbackAdvisorOptions,
} from '../../lib/index';
import { createTestScheduler } from '../support/test-scheduler';

const overloaded = (provider: string, retryAfter?: number): ProviderError =>
  new ProviderError({
    provider,
    message: 'overloaded',
    status: 503,
    retryable: true,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });

const usage = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

const values: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'Hal' },
  b: { type: 'text-delta', text: 'Hello' },
  c: { type: 'text-delta', text: ' there' },
  x: usage(10, 1),
  y: usage(20, 5),
  f: { type: 'finish', reason: 'stop' },
  r: {
    type: 'retry',
    attempt: 2,
    reason: 'primary failed (primary: overloaded); backup answers',
    advisor: 'fallback',
  },
  s: {
    type: 'retry',
    attempt: 3,
    reason: 'backup failed (backup: overloaded); third answers',
    advisor: 'fallback',
  },
  m: { type: 'metadata', rounds: 2 },
  n: { type: 'metadata', rounds: 1 },
  u: usage(20, 5),
  t: usage(30, 6),
};

/** A model whose every call is the given cold stream. */
const model = (provider: string, stream$: Observable<ChatChunk>): ChatModel => ({
  provider,
  stream: () => stream$,
});

function run(
  models: ChatModel[],
  options: Omit<FallbackAdvisorOptions, 'models'> = {},
  inner: ReturnType<typeof advisor>[] = [],
): { fallback: FallbackAdvisor; call: () => Observable<ChatChunk> } {
  const fallback = new FallbackAdvisor({ models, ...options });
  // The chain's own model is never asked: the fallback names the model of every attempt.
  const unused = model(
    'unused',
    throwError(() => new Error('the chain model was asked')),
  );
  const chain = createAdvisorChain({ advisors: [fallback, ...inner], model: unused });
  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
  return { fallback, call: () => chain.next(request) };
}

describe('FallbackAdvisor (marble)', () => {
  it('streams the first model when it answers; the backup is never subscribed', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primary = cold<ChatChunk>('-b-c-(yf|)', values);
      const backup = cold<ChatChunk>('-a|', values);
      const { call } = run([model('primary', primary), model('backup', backup)]);
      expectObservable(call()).toBe('-b-c-(nuf|)', values);
      expectSubscriptions(primary.subscriptions).toBe('^----!');
      expectSubscriptions(backup.subscriptions).toBe([]);
    });
  });

  it('falls back after the first chunk: retry chunk, then the next model, usage of both', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primary = cold<ChatChunk>('-a-x#', values, overloaded('primary'));
      const backup = cold<ChatChunk>('-b-c-(yf|)', values);
      const { call } = run([model('primary', primary), model('backup', backup)]);
      // u: 10 + 20 input, 1 + 5 output (the failed attempt's usage is kept).
      expectObservable(call()).toBe('-a--rb-c-(mtf|)', values);
      expectSubscriptions(primary.subscriptions).toBe('^---!');
      expectSubscriptions(backup.subscriptions).toBe('----^----!');
    });
  });

  it('runs the advisors after it again for the next model', () => {
    const seen: string[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const primary = cold<ChatChunk>('#', values, overloaded('primary'));
      const backup = cold<ChatChunk>('-b-(yf|)', values);
      const recorder = advisor({
        name: 'recorder',
        order: Number.MAX_SAFE_INTEGER,
        before: (request) => {
          seen.push(request.chatModel?.provider ?? 'none');
          return request;
        },
      });
      const { call } = run([model('primary', primary), model('backup', backup)], {}, [recorder]);
      expectObservable(call()).toBe('rb-(muf|)', values);
    });
    expect(seen).toEqual(['primary', 'backup']);
  });

  it('re-throws a failure that does not fall back, without trying the next model', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const badRequest = new ProviderError({ provider: 'primary', message: 'bad', status: 400 });
      const primary = cold<ChatChunk>('-a#', values, badRequest);
      const backup = cold<ChatChunk>('-b|', values);
      const { call } = run([model('primary', primary), model('backup', backup)]);
      expectObservable(call()).toBe('-a#', values, badRequest);
      expectSubscriptions(backup.subscriptions).toBe([]);
    });
  });

  it("re-throws the last model's error when every model failed", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const lastError = overloaded('third');
      const { call } = run([
        model('primary', cold<ChatChunk>('#', values, overloaded('primary'))),
        model('backup', cold<ChatChunk>('-#', values, overloaded('backup'))),
        model('third', cold<ChatChunk>('--#', values, lastError)),
      ]);
      expectObservable(call()).toBe('rs-#', values, lastError);
    });
  });

  it('skips a model until its Retry-After has passed (RxJS time), in later calls too', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primary = cold<ChatChunk>('-#', values, overloaded('primary', 10));
      const backup = cold<ChatChunk>('-b-(yf|)', values);
      const { call } = run([model('primary', primary), model('backup', backup)]);
      expectObservable(call()).toBe('-rb-(muf|)', values);
      // Frame 5: primary waits until frame 11, so the backup answers at once.
      expectObservable(call(), '-----^').toBe('------b-(nuf|)', values);
      // Frame 12: primary's wait is over; it answers (and fails) again.
      expectObservable(call(), '------------^').toBe('-------------rb-(muf|)', values);
      expectSubscriptions(primary.subscriptions).toBe(['^!', '------------^!']);
    });
  });

  it('cancels the answering backup when the subscriber unsubscribes during the fallback', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primary = cold<ChatChunk>('-a#', values, overloaded('primary'));
      const backup = cold<ChatChunk>('---b---c-(yf|)', values);
      const { call } = run([model('primary', primary), model('backup', backup)]);
      expectObservable(call(), '^-------!').toBe('-ar--b--', values);
      expectSubscriptions(primary.subscriptions).toBe('^-!');
      expectSubscriptions(backup.subscriptions).toBe('--^-----!');
    });
  });

  it('lets RetryAdvisor (inner) retry a model before the fallback moves on', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primary = cold<ChatChunk>('-#', values, overloaded('primary'));
      const backup = cold<ChatChunk>('-b-(yf|)', values);
      const models = [model('primary', primary), model('backup', backup)];
      const fallback = new FallbackAdvisor({ models });
      const retry = new RetryAdvisor({ maxAttempts: 2, backoff: () => 3 });
      const chain = createAdvisorChain({ advisors: [retry, fallback], model: models[0] });
      const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
      const result$ = chain.next(request);
      expectObservable(result$).toBe('-R---rb-(Muf|)', {
        ...values,
        R: { type: 'retry', attempt: 2, reason: 'primary: overloaded', advisor: 'retry', delay: 3 },
        // Three model calls: primary twice (the retry gave up), then backup.
        M: { type: 'metadata', rounds: 3 },
      });
      expectSubscriptions(primary.subscriptions).toBe(['^!', '----^!']);
      expectSubscriptions(backup.subscriptions).toBe('-----^--!');
    });
  });
});
