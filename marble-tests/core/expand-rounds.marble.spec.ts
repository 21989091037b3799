import { EMPTY, expand, filter, of, type Observable, type OperatorFunction } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { expandRounds } from '../../lib/core/expand-rounds';
import { createTestScheduler } from '../support/test-scheduler';

/** Steps are the values starting with `s`; step `sN` opens round N. */
type Step = `s${number}`;
const isStep = (value: string): value is Step => value.startsWith('s');

/** The composition `expandRounds` stands for: RxJS `expand`, then the steps filtered out. */
function viaExpand(next: (step: Step) => Observable<string>): OperatorFunction<string, string> {
  return (source) =>
    source.pipe(
      expand((value) => (isStep(value) ? next(value) : EMPTY)),
      filter((value) => !isStep(value)),
    );
}

describe('expandRounds (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('emits the values, consumes a step and subscribes to the round it opens', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('--a--s|', { a: 'a', s: 's2' });
      const round2$ = cold('     --c--d|');
      const expected = '    --a----c--d|';
      expectObservable(source$.pipe(expandRounds(isStep, () => round2$))).toBe(expected);
      expectSubscriptions(source$.subscriptions).toBe('^-----!');
      expectSubscriptions(round2$.subscriptions).toBe('-----^-----!');
    });
  });

  it('gives the same marbles as expand + filter for a loop of asynchronous rounds', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      // Round n: a value, then (before round 3) the step to round n + 1, its last value.
      const round = (step: Step): Observable<string> => {
        const n = Number(step.slice(1));
        return cold(n < 3 ? '-x-(s|)' : '-x|', { x: `x${n}`, s: `s${n + 1}` });
      };
      const source$ = cold('-(s|)', { s: 's1' });
      const values = { a: 'x1', b: 'x2', c: 'x3' };
      const expected = '     --a--b--c|';
      expectObservable(source$.pipe(expandRounds(isStep, round))).toBe(expected, values);
      expectObservable(source$.pipe(viaExpand(round))).toBe(expected, values);
    });
  });

  it('gives the same marbles as expand + filter for synchronous rounds, in one frame', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round = (step: Step): Observable<string> => {
        const n = Number(step.slice(1));
        return n < 3 ? of(`x${n}`, `s${n + 1}`) : of(`x${n}`);
      };
      const source$ = cold('-(s|)', { s: 's1' });
      const values = { a: 'x1', b: 'x2', c: 'x3' };
      expectObservable(source$.pipe(expandRounds(isStep, round))).toBe('-(abc|)', values);
      expectObservable(source$.pipe(viaExpand(round))).toBe('-(abc|)', values);
    });
  });

  it('waits for a running round after the source completed', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s|', { s: 's2' });
      const round$ = cold('  ----i|');
      expectObservable(source$.pipe(expandRounds(isStep, () => round$))).toBe('-----i|');
      expectSubscriptions(round$.subscriptions).toBe('-^----!');
    });
  });

  it('passes a source error on and tears down running rounds', () => {
    testScheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const source$ = hot('-s--#', { s: 's2' });
      const round$ = cold(' -i-----j|');
      expectObservable(source$.pipe(expandRounds(isStep, () => round$))).toBe('--i-#');
      expectSubscriptions(round$.subscriptions).toBe('-^--!');
    });
  });

  it('passes a round error on and unsubscribes the source', () => {
    testScheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const source$ = hot('-s-----a|', { s: 's2' });
      const round$ = cold(' --#');
      expectObservable(source$.pipe(expandRounds(isStep, () => round$))).toBe('---#');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('errors when next throws, and starts nothing after it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-s-b|', { a: 'a', s: 's2', b: 'b' });
      const next = (): Observable<string> => {
        throw new Error('bad');
      };
      expectObservable(source$.pipe(expandRounds(isStep, next))).toBe(
        '-a-#',
        { a: 'a' },
        new Error('bad'),
      );
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('errors when isStep throws', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-b|');
      const throwing = (value: string): value is Step => {
        if (value === 'b') throw new Error('bad');
        return false;
      };
      const next = (): Observable<string> => EMPTY;
      expectObservable(source$.pipe(expandRounds(throwing, next))).toBe(
        '-a-#',
        undefined,
        new Error('bad'),
      );
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('fails a round that emits a value after its step (the precondition)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-s----b|', { a: 'a', s: 's2', b: 'b' });
      const round = (): Observable<string> => cold('--c-d|');
      expectObservable(source$.pipe(viaExpand(round))).toBe('-a---c-db|');
      expectObservable(source$.pipe(expandRounds(isStep, round))).toBe(
        '-a---c-d#',
        undefined,
        new TypeError('expandRounds: a round emitted a value after its step.'),
      );
    });
  });

  it('fails a synchronous round that emits a value after its step', () => {
    testScheduler.run(({ expectObservable }) => {
      // With expand, `b` would come before the expansion's `c`; here it is refused.
      const source$ = of('s2', 'b');
      expectObservable(source$.pipe(viaExpand(() => of('c')))).toBe('(cb|)');
      expectObservable(source$.pipe(expandRounds(isStep, () => of('c')))).toBe(
        '#',
        undefined,
        new TypeError('expandRounds: a round emitted a value after its step.'),
      );
    });
  });

  it('completes with an empty source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('---|');
      expectObservable(source$.pipe(expandRounds(isStep, () => of('never')))).toBe('---|');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('tears everything down on early unsubscription', () => {
    testScheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const source$ = hot('-s------a|', { s: 's2' });
      const round$ = cold(' -i------j|');
      expectObservable(source$.pipe(expandRounds(isStep, () => round$)), '^---!').toBe('--i--');
      expectSubscriptions(source$.subscriptions).toBe('^---!');
      expectSubscriptions(round$.subscriptions).toBe('-^--!');
    });
  });

  it('keeps no state between subscriptions', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-s|', { a: 'a', s: 's2' });
      const round$ = cold('    -i|');
      let opened = 0;
      const result$ = source$.pipe(
        expandRounds(isStep, () => {
          opened++;
          return round$;
        }),
      );
      expectObservable(result$).toBe('-a--i|');
      expectObservable(result$).toBe('-a--i|');
      testScheduler.flush();
      expect(opened).toBe(2);
    });
  });
});
