import { EMPTY, expand, filter, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expandSteps } from '../../lib/core/expand-steps';

const isStep = (value: string): value is `s${string}` => value.startsWith('s');

describe('expandSteps (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('emits the values, expands the steps and does not emit them', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('--a--s--b--|');
      const round2$ = cold('--c--d|');
      const projected: string[] = [];
      const result$ = source$.pipe(
        expandSteps(isStep, (step) => {
          projected.push(step);
          return round2$;
        }),
      );
      expectObservable(result$).toBe('--a----cb-d|');
      expectSubscriptions(source$.subscriptions).toBe('^----------!');
      expectSubscriptions(round2$.subscriptions).toBe('-----^-----!');
      testScheduler.flush();
      expect(projected).toEqual(['s']);
    });
  });

  it('gives what expand + filter give for a recursive loop of rounds', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round = (n: number): Observable<string> =>
        cold(n < 3 ? '-x-s|' : '-x|', { x: `x${n}`, s: `s${n}` });
      const project = (step: string): Observable<string> => round(Number(step.slice(1)) + 1);
      const values = { a: 'x1', c: 'x2', e: 'x3' };
      expectObservable(round(1).pipe(expandSteps(isStep, project))).toBe('-a--c--e|', values);
      expectObservable(
        round(1).pipe(
          expand((v) => (isStep(v) ? project(v) : EMPTY)),
          filter((v) => !isStep(v)),
        ),
      ).toBe('-a--c--e|', values);
    });
  });

  it('waits for a running expansion after the source completed', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s|');
      const inner$ = cold('----i|');
      expectObservable(source$.pipe(expandSteps(isStep, () => inner$))).toBe('-----i|');
      expectSubscriptions(inner$.subscriptions).toBe('-^----!');
    });
  });

  it('ends a loop whose step projects to EMPTY', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-s-b|');
      expectObservable(source$.pipe(expandSteps(isStep, () => EMPTY))).toBe('-a---b|');
    });
  });

  it('passes a source error on and tears down running expansions', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s--#');
      const inner$ = cold('-i-----j|');
      expectObservable(source$.pipe(expandSteps(isStep, () => inner$))).toBe('--i-#');
      expectSubscriptions(inner$.subscriptions).toBe('-^--!');
    });
  });

  it('passes an expansion error on and unsubscribes the source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s-----a|');
      const inner$ = cold('--#');
      expectObservable(source$.pipe(expandSteps(isStep, () => inner$))).toBe('---#');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('errors when project throws', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-s-c|');
      const result$ = source$.pipe(
        expandSteps(isStep, () => {
          throw new Error('bad');
        }),
      );
      expectObservable(result$).toBe('-a-#', undefined, new Error('bad'));
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('completes with an empty source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold<string>('---|');
      expectObservable(source$.pipe(expandSteps(isStep, () => cold('a|')))).toBe('---|');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('tears everything down on early unsubscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s------a|');
      const inner$ = cold('-i------j|');
      expectObservable(source$.pipe(expandSteps(isStep, () => inner$)), '^---!').toBe('--i--');
      expectSubscriptions(source$.subscriptions).toBe('^---!');
      expectSubscriptions(inner$.subscriptions).toBe('-^--!');
    });
  });

  it('keeps no state between subscriptions', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-s|');
      const inner$ = cold('-i|');
      const result$ = source$.pipe(expandSteps(isStep, () => inner$));
      // A Subject shared by the two subscriptions would deliver every value twice to each.
      expectObservable(result$).toBe('-a--i|');
      expectObservable(result$).toBe('-a--i|');
    });
  });
});
