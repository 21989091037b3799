import { concat, defer, filter, from, isObservable, of, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { filterThen } from '../../lib/core/filter-then';
import { createTestScheduler } from '../support/test-scheduler';

/** The composition filterThen stands for, to run side by side. */
function composed<T, R>(
  source$: Observable<T>,
  keep: (value: T) => boolean,
  then: () => readonly R[] | Observable<R>,
): Observable<T | R> {
  return concat(
    source$.pipe(filter(keep)),
    defer(() => {
      const rest = then();
      return isObservable(rest) ? rest : from(rest);
    }),
  );
}

describe('filterThen (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  const notB = (value: string): boolean => value !== 'b';

  it('emits the kept values, then the array then() returns, in the frame the source completes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('--a--b--c--|');
      const expected = '--a-----c--(xy|)';
      expectObservable(filterThen(source$, notB, () => ['x', 'y'])).toBe(expected);
      expectObservable(composed(source$, notB, () => ['x', 'y'])).toBe(expected);
      expectSubscriptions(source$.subscriptions).toBe(['^----------!', '^----------!']);
    });
  });

  it('calls then() only when the source completes', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const calls: number[] = [];
      const source$ = cold('-a-|');
      expectObservable(
        filterThen(
          source$,
          () => true,
          () => {
            calls.push(testScheduler.now());
            return [];
          },
        ),
      ).toBe('-a-|');
      testScheduler.flush();
      expect(calls).toEqual([3]);
    });
  });

  it('subscribes to an Observable then() returns and ends with it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-|');
      const tail$ = cold('   --x-y|');
      expectObservable(filterThen(source$, notB, () => tail$)).toBe('-a---x-y|');
      expectObservable(composed(source$, notB, () => tail$)).toBe('-a---x-y|');
      expectSubscriptions(tail$.subscriptions).toBe(['---^----!', '---^----!']);
    });
  });

  it('passes a source error on without calling then()', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      let called = false;
      const source$ = cold('-a-#');
      expectObservable(
        filterThen(source$, notB, () => {
          called = true;
          return ['x'];
        }),
      ).toBe('-a-#');
      testScheduler.flush();
      expect(called).toBe(false);
    });
  });

  it('errors when keep throws, and unsubscribes the source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-b-c|');
      const keep = (value: string): boolean => {
        if (value === 'b') throw new Error('bad chunk');
        return true;
      };
      expectObservable(filterThen(source$, keep, () => ['x'])).toBe(
        '-a-#',
        undefined,
        new Error('bad chunk'),
      );
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('never calls then() after keep threw on a synchronous source', () => {
    testScheduler.run(({ expectObservable }) => {
      let called = false;
      const source$ = of('a', 'b', 'c');
      const keep = (value: string): boolean => {
        if (value === 'b') throw new Error('bad chunk');
        return true;
      };
      const then = (): string[] => {
        called = true;
        return ['x'];
      };
      expectObservable(filterThen(source$, keep, then)).toBe(
        '(a#)',
        undefined,
        new Error('bad chunk'),
      );
      expectObservable(composed(source$, keep, then)).toBe(
        '(a#)',
        undefined,
        new Error('bad chunk'),
      );
      testScheduler.flush();
      expect(called).toBe(false);
    });
  });

  it('errors when then() throws', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-|');
      const then = (): string[] => {
        throw new Error('limit');
      };
      expectObservable(filterThen(source$, notB, then)).toBe('-a-#', undefined, new Error('limit'));
    });
  });

  it('passes an error of the Observable then() returns on', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a|');
      const tail$ = cold('  -x#');
      expectObservable(filterThen(source$, notB, () => tail$)).toBe('-a-x#');
    });
  });

  it('tears the source down when unsubscribed early', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a---c--|');
      expectObservable(
        filterThen(source$, notB, () => ['x']),
        '^--!',
      ).toBe('-a--');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('tears the Observable then() returned down when unsubscribed during it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a|');
      const tail$ = cold('  ---x--y|');
      expectObservable(
        filterThen(source$, notB, () => tail$),
        '^------!',
      ).toBe('-a---x-');
      expectSubscriptions(tail$.subscriptions).toBe('--^----!');
    });
  });

  it('is cold: every subscription runs the source and then() again', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      let calls = 0;
      const source$ = cold('-a|');
      const result$ = filterThen(source$, notB, () => [`x${++calls}`]);
      expectObservable(result$).toBe('-a(x|)', { a: 'a', x: 'x1' });
      expectObservable(result$).toBe('-a(x|)', { a: 'a', x: 'x2' });
    });
  });
  it('tells sourceFailed about an error of the source only, on its frame', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const [boom, late, tail] = [new Error('boom'), new Error('late'), new Error('tail')];
      const seen: string[] = [];
      const note = (err: unknown): void =>
        void seen.push(`${testScheduler.now()}:${(err as Error).message}`);
      expectObservable(
        filterThen(cold<string>('--a--#', undefined, boom), notB, () => ['x'], note),
      ).toBe('--a--#', undefined, boom);
      const thenFails = (): string[] => {
        throw late;
      };
      expectObservable(filterThen(cold<string>('--a--|'), notB, thenFails, note)).toBe(
        '--a--#',
        undefined,
        late,
      );
      expectObservable(
        filterThen(cold<string>('--a|'), notB, () => cold<string>('-#', undefined, tail), note),
      ).toBe('--a-#', undefined, tail);
      testScheduler.flush();
      expect(seen).toEqual(['5:boom']);
    });
  });
});
