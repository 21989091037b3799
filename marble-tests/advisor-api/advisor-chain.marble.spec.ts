import { concat, map } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  advisor,
  ChatRequest,
  createAdvisorChain,
  type Advisor,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const request = () => ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

/** An advisor that records its name on the way in and tags text on the way out. */
function tagging(name: string, order: number, log: string[]): Advisor {
  return advisor({
    name,
    order,
    before: (r) => {
      log.push(`in:${name}`);
      return r;
    },
    after: map((chunk) =>
      chunk.type === 'text-delta' ? { ...chunk, text: `${chunk.text}>${name}` } : chunk,
    ),
  });
}

describe('advisor chain (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('runs three advisors by order on the way in and in reverse on the way out', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b--f|', { a: t('x'), b: t('y'), f: FINISH });
      const log: string[] = [];
      const chain = createAdvisorChain({
        // registered out of order on purpose
        advisors: [tagging('C', 30, log), tagging('A', 10, log), tagging('B', 20, log)],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('-a--b--f|', {
        a: t('x>C>B>A'),
        b: t('y>C>B>A'),
        f: FINISH,
      });
      expectSubscriptions(model$.subscriptions).toBe('^-------!');
      testScheduler.flush();
      expect(log).toEqual(['in:A', 'in:B', 'in:C']);
    });
  });

  it('keeps registration order for equal orders', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold('-a|', { a: t('x') });
      const log: string[] = [];
      const chain = createAdvisorChain({
        advisors: [tagging('first', 5, log), tagging('second', 5, log), tagging('third', 5, log)],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('-a|', { a: t('x>third>second>first') });
      testScheduler.flush();
      expect(log).toEqual(['in:first', 'in:second', 'in:third']);
    });
  });

  it('re-runs the whole downstream each time next() is subscribed', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1$ = cold('-a|', { a: t('one') });
      const round2$ = cold('--b|', { b: t('two') });
      const log: string[] = [];
      const inner = tagging('inner', 10, log);
      const twice: Advisor = {
        name: 'twice',
        order: 0,
        advise: (r, chain) => concat(chain.next(r), chain.next(r)),
      };
      const chain = createAdvisorChain({
        advisors: [twice, inner],
        model: MockChatModel.fromStreams([round1$, round2$]),
      });
      expectObservable(chain.next(request())).toBe('-a--b|', {
        a: t('one>inner'),
        b: t('two>inner'),
      });
      expectSubscriptions(round1$.subscriptions).toBe('^-!');
      expectSubscriptions(round2$.subscriptions).toBe('--^--!');
      testScheduler.flush();
      expect(log).toEqual(['in:inner', 'in:inner']);
    });
  });

  it('tears the whole chain down on early unsubscribe', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-c-d-f|', { a: t('a'), b: t('b'), c: t('c'), d: t('d'), f: FINISH });
      const log: string[] = [];
      const chain = createAdvisorChain({
        advisors: [tagging('A', 1, log), tagging('B', 2, log)],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request()), '^---!').toBe('-a-b', {
        a: t('a>B>A'),
        b: t('b>B>A'),
      });
      expectSubscriptions(model$.subscriptions).toBe('^---!');
    });
  });

  it('shares no state between two subscriptions', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const stream1$ = cold('-a-f|', { a: t('x'), f: FINISH });
      const stream2$ = cold('-a-f|', { a: t('y'), f: FINISH });
      const counting = advisor({
        name: 'counter',
        after: (source$) => {
          let count = 0; // per subscription: after() runs once per call
          return source$.pipe(
            map((chunk) =>
              chunk.type === 'text-delta' ? { ...chunk, text: `${chunk.text}#${++count}` } : chunk,
            ),
          );
        },
      });
      const chain = createAdvisorChain({
        advisors: [counting],
        model: MockChatModel.fromStreams([stream1$, stream2$]),
      });
      const call$ = chain.next(request());
      expectObservable(call$).toBe('-a-f|', { a: t('x#1'), f: FINISH });
      expectObservable(call$).toBe('-a-f|', { a: t('y#1'), f: FINISH });
    });
  });

  it('passes a model error through every advisor', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const failure = new Error('model down');
      const model$ = cold('-a-#', { a: t('x') }, failure);
      const chain = createAdvisorChain({
        advisors: [tagging('A', 1, [])],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('-a-#', { a: t('x>A') }, failure);
    });
  });

  it('turns a throwing before() into the stream error, and the model is never called', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new Error('bad request');
      const model$ = cold('-a|', { a: t('x') });
      const throwing = advisor({
        name: 'throws',
        before: () => {
          throw failure;
        },
      });
      const chain = createAdvisorChain({
        advisors: [throwing],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('#', undefined, failure);
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('completes empty when the model stream is empty', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold<ChatChunk>('--|');
      const chain = createAdvisorChain({
        advisors: [tagging('A', 1, [])],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('--|');
    });
  });
});
