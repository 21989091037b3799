import { defer, EMPTY, expand, of, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expandSteps } from '../../lib/core/expand-steps';

describe('expandSteps (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('emits every value and subscribes only to the non-EMPTY projections', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('--a--s--b--|');
      const round2$ = cold('--c--d|');
      const projections: string[] = [];
      const result$ = source$.pipe(
        expandSteps((value: string, index) => {
          projections.push(`${value}${index}`);
          return value === 's' ? round2$ : EMPTY;
        }),
      );
      expectObservable(result$).toBe('--a--s-cb-d|');
      expectSubscriptions(source$.subscriptions).toBe('^----------!');
      expectSubscriptions(round2$.subscriptions).toBe('-----^-----!');
      testScheduler.flush();
      expect(projections).toEqual(['a0', 's1', 'c2', 'b3', 'd4']);
    });
  });

  it('behaves like expand for a recursive loop of rounds', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round = (n: number): Observable<string> =>
        cold(n < 3 ? '-x-n|' : '-x|', { x: `x${n}`, n: `n${n}` });
      const project = (value: string): Observable<string> =>
        value.startsWith('n') ? round(Number(value.slice(1)) + 1) : EMPTY;
      const values = { a: 'x1', b: 'n1', c: 'x2', d: 'n2', e: 'x3' };
      expectObservable(round(1).pipe(expandSteps(project))).toBe('-a-bc-de|', values);
      expectObservable(round(1).pipe(expand(project))).toBe('-a-bc-de|', values);
    });
  });

  it('waits for a running expansion after the source completed', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s|');
      const inner$ = cold('----i|');
      const result$ = source$.pipe(expandSteps((v) => (v === 's' ? inner$ : EMPTY)));
      expectObservable(result$).toBe('-s---i|');
      expectSubscriptions(inner$.subscriptions).toBe('-^----!');
    });
  });

  it('passes a source error on and tears down running expansions', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s--#');
      const inner$ = cold('-i-----j|');
      const result$ = source$.pipe(expandSteps((v) => (v === 's' ? inner$ : EMPTY)));
      expectObservable(result$).toBe('-si-#');
      expectSubscriptions(inner$.subscriptions).toBe('-^--!');
    });
  });

  it('passes an expansion error on and unsubscribes the source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s-----a|');
      const inner$ = cold('--#');
      const result$ = source$.pipe(expandSteps((v) => (v === 's' ? inner$ : EMPTY)));
      expectObservable(result$).toBe('-s-#');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('errors when project throws, after emitting the value', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-a-b-c|');
      const result$ = source$.pipe(
        expandSteps((v: string) => {
          if (v === 'b') throw new Error('bad');
          return EMPTY;
        }),
      );
      expectObservable(result$).toBe('-a-(b#)', undefined, new Error('bad'));
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('completes with an empty source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('---|');
      expectObservable(source$.pipe(expandSteps(() => of('never')))).toBe('---|');
      expectSubscriptions(source$.subscriptions).toBe('^--!');
    });
  });

  it('tears everything down on early unsubscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source$ = cold('-s------a|');
      const inner$ = cold('-i------j|');
      const result$ = source$.pipe(expandSteps((v) => (v === 's' ? inner$ : EMPTY)));
      expectObservable(result$, '^---!').toBe('-si--');
      expectSubscriptions(source$.subscriptions).toBe('^---!');
      expectSubscriptions(inner$.subscriptions).toBe('-^--!');
    });
  });

  it('keeps no state between subscriptions', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source$ = cold('-a-s|');
      const inner$ = cold('-i|');
      const indices: number[] = [];
      const result$ = source$.pipe(
        expandSteps((v: string, index) => {
          indices.push(index);
          return v === 's' ? inner$ : EMPTY;
        }),
      );
      expectObservable(result$).toBe('-a-si|');
      expectObservable(result$).toBe('-a-si|');
      testScheduler.flush();
      // Both subscriptions run side by side, each counting from 0.
      expect(indices).toEqual([0, 0, 1, 1, 2, 2]);
    });
  });
  it('runs a synchronous chain of rounds one after another within one frame', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round = (n: number): Observable<string> => (n < 3 ? of(`x${n}`, `n${n}`) : of(`x${n}`));
      const project = (value: string): Observable<string> =>
        value.startsWith('n') ? round(Number(value.slice(1)) + 1) : EMPTY;
      const source$ = cold('-(n|)', { n: 'n0' });
      const values = { a: 'n0', b: 'x1', c: 'n1', d: 'x2', e: 'n2', f: 'x3' };
      expectObservable(source$.pipe(expandSteps(project))).toBe('-(abcdef|)', values);
      expectObservable(source$.pipe(expand(project))).toBe('-(abcdef|)', values);
    });
  });

  it('starts an expansion asked for during a synchronous subscription once that returns', () => {
    testScheduler.run(({ expectObservable }) => {
      // The documented difference from expand: a synchronous value after the step comes
      // before the step's expansion (the loops here always end a round with its step).
      const source$ = of('s', 'b');
      const project = (value: string): Observable<string> => (value === 's' ? of('c') : EMPTY);
      expectObservable(source$.pipe(expandSteps(project))).toBe('(sbc|)');
      expectObservable(source$.pipe(expand(project))).toBe('(scb|)');
    });
  });

  it('starts no waiting expansion after an error', () => {
    testScheduler.run(({ expectObservable }) => {
      const started: string[] = [];
      const source$ = of('s', 't');
      const project = (value: string): Observable<string> =>
        value === 's'
          ? defer(() => {
              started.push(value);
              return throwError(() => new Error('round failed'));
            })
          : value === 't'
            ? defer(() => {
                started.push(value);
                return of('u');
              })
            : EMPTY;
      expectObservable(source$.pipe(expandSteps(project))).toBe(
        '(st#)',
        undefined,
        new Error('round failed'),
      );
      testScheduler.flush();
      expect(started).toEqual(['s']);
    });
  });
});
