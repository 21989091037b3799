import { ROOT_CONTEXT } from '@opentelemetry/api';
import { take } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { observeStream, type StreamWatcher } from '../../lib/otel/observe-stream';
import { createTestScheduler } from '../support/test-scheduler';

type Chunk = { readonly type: string };
const values: Record<string, Chunk> = { a: { type: 'text-delta' }, b: { type: 'text-delta' } };
values.u = { type: 'usage' };

/** A watcher that logs what it is told, and the watchers made so far. */
function recorder(quietType?: string) {
  const log: string[][] = [];
  const watch = (): StreamWatcher<Chunk> => {
    const told: string[] = [];
    log.push(told);
    return {
      quietType,
      next: (chunk) => told.push(chunk.type),
      complete: () => told.push('complete'),
      error: () => told.push('error'),
      cancel: () => told.push('cancel'),
    };
  };
  return { log, watch };
}

// The hand-written layer of the telemetry advisor (a Subscriber subclass): the error and
// teardown behaviour of RxJS's own operators, and exactly one ending per subscription.
describe('observeStream (marble)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('passes values and completion on, and tells the watcher once', () => {
    const { log, watch } = recorder();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-u-|', values);
      expectObservable(observeStream(source$, ROOT_CONTEXT, watch)).toBe('-a-u-|', values);
      expectSubscriptions(source$.subscriptions).toBe('^----!');
    });
    expect(log).toEqual([['text-delta', 'usage', 'complete']]);
  });

  it('passes an error on and tells the watcher of it, not of a cancel', () => {
    const { log, watch } = recorder();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-#', values, new Error('boom'));
      expectObservable(observeStream(source$, ROOT_CONTEXT, watch)).toBe(
        '-a-#',
        values,
        new Error('boom'),
      );
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
    expect(log).toEqual([['text-delta', 'error']]);
  });

  it('unsubscribes the source on an early unsubscribe, then tells a cancel', () => {
    const { log, watch } = recorder();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-b-u-|', values);
      expectObservable(observeStream(source$, ROOT_CONTEXT, watch), '^--!').toBe('-a-', values);
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
    expect(log).toEqual([['text-delta', 'cancel']]);
  });

  it('tells a cancel after a synchronous take(1) has unsubscribed the source', () => {
    const { log, watch } = recorder();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('(ab|)', values);
      expectObservable(observeStream(source$, ROOT_CONTEXT, watch).pipe(take(1))).toBe(
        '(a|)',
        values,
      );
      expectSubscriptions(source$.subscriptions).toBe('(^!)');
    });
    expect(log).toEqual([['text-delta', 'cancel']]);
  });

  it('skips the quiet type after the first value, and starts clean per subscription', () => {
    const { log, watch } = recorder('text-delta');
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-b-u-|', values);
      const observed$ = observeStream(source$, ROOT_CONTEXT, watch);
      expectObservable(observed$).toBe('-a-b-u-|', values);
      expectObservable(observed$).toBe('-a-b-u-|', values);
    });
    const once = ['text-delta', 'usage', 'complete'];
    expect(log).toEqual([once, once]);
  });

  it('passes an empty source on', () => {
    const { log, watch } = recorder();
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(observeStream(cold<Chunk>('|'), ROOT_CONTEXT, watch)).toBe('|');
    });
    expect(log).toEqual([['complete']]);
  });
});
