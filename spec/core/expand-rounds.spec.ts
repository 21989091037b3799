import { count, EMPTY, lastValueFrom, of, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expandRounds } from '../../lib/core/expand-rounds';

/** A step: the number of the round it opens. */
class Step {
  constructor(readonly next: number) {}
}
const isStep = (value: number | Step): value is Step => value instanceof Step;

/** Round n emits n, then (before the last round) the step to round n + 1, synchronously. */
const rounds =
  (total: number) =>
  (step: Step): Observable<number | Step> =>
    step.next < total ? of(step.next, new Step(step.next + 1)) : of(step.next);

describe('expandRounds', () => {
  it('runs 10,000 synchronous rounds at a constant stack depth', async () => {
    const values = await lastValueFrom(
      of<number | Step>(new Step(1)).pipe(expandRounds(isStep, rounds(10_000)), count()),
    );
    // One value per round; the steps are consumed.
    expect(values).toBe(10_000);
  });

  it('keeps the stack depth of every round the same', () => {
    const depths: number[] = [];
    const depth = (): number => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = Infinity;
      const frames = (new Error().stack ?? '').split('\n').length;
      Error.stackTraceLimit = limit;
      return frames;
    };
    of<number | Step>(new Step(1))
      .pipe(
        expandRounds(isStep, (step: Step) => {
          depths.push(depth());
          return rounds(50)(step);
        }),
      )
      .subscribe();
    expect(depths).toHaveLength(50);
    expect(new Set(depths.slice(1)).size).toBe(1);
  });

  it('starts no round after a synchronous error', () => {
    const opened: number[] = [];
    const errors: unknown[] = [];
    of<number | Step>(new Step(1))
      .pipe(
        expandRounds(isStep, (step: Step) => {
          opened.push(step.next);
          if (step.next === 2) throw new Error('round 2 failed');
          return of(step.next, new Step(step.next + 1));
        }),
      )
      .subscribe({ error: (error: unknown) => errors.push(error) });
    expect(opened).toEqual([1, 2]);
    expect(errors).toEqual([new Error('round 2 failed')]);
  });

  it('completes at once for an empty source', async () => {
    const values = await lastValueFrom(
      EMPTY.pipe(
        expandRounds(isStep, () => of(1)),
        count(),
      ),
    );
    expect(values).toBe(0);
  });

  describe('marbles', () => {
    // Values are letters; a step is 'S' or 'T' (it names the round it opens).
    type Item = string;
    const isLetterStep = (value: Item): value is 'S' | 'T' => value === 'S' || value === 'T';
    const scheduler = () =>
      new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

    it("emits every round's values as they come, the steps left out", () => {
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold<Item>('-a--S|');
        const second = cold<Item>('  -b-T|');
        const third = cold<Item>('       -c|');
        const rounds = { S: second, T: third };
        expectObservable(source.pipe(expandRounds(isLetterStep, (step) => rounds[step]))).toBe(
          '-a---b--c|',
        );
      });
    });

    it('completes only when the source and every round completed', () => {
      scheduler().run(({ cold, expectObservable }) => {
        // The step comes before the source completes; the round outlives it.
        const source = cold<Item>('-S---|');
        const round = cold<Item>(' --a-----b|');
        expectObservable(source.pipe(expandRounds(isLetterStep, () => round))).toBe('---a-----b|');
      });
    });

    it('fails with a TypeError when a round emits a value after its step', () => {
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold<Item>('-S-x|');
        const round = cold<Item>(' ------a|');
        expectObservable(source.pipe(expandRounds(isLetterStep, () => round))).toBe(
          '---#',
          undefined,
          new TypeError('expandRounds: a round emitted a value after its step.'),
        );
      });
    });

    it('fails when isStep throws, and stops the running round', () => {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold<Item>('-S|');
        const round = cold<Item>(' -a-z');
        const failing = (value: Item): value is 'S' => {
          if (value === 'z') throw new Error('bad value');
          return value === 'S';
        };
        expectObservable(source.pipe(expandRounds(failing, () => round))).toBe(
          '--a-#',
          undefined,
          new Error('bad value'),
        );
        expectSubscriptions(round.subscriptions).toBe('-^--!');
      });
    });

    it("passes on a round's error and starts no further round", () => {
      let opened = 0;
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold<Item>('-S|');
        const round = cold<Item>(' -a-#');
        expectObservable(
          source.pipe(
            expandRounds(isLetterStep, () => {
              opened++;
              return opened === 1 ? round : cold<Item>('-T|');
            }),
          ),
        ).toBe('--a-#');
      });
      // The round's error ended the stream: no step came after it, no round opened.
      expect(opened).toBe(1);
    });

    it('unsubscribing tears down the source and every running round', () => {
      scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
        // The source's step is its last value; it stays open, as does the round it opened.
        const source = hot<Item>('-a-S------');
        const round = cold<Item>('   -b------c|');
        expectObservable(source.pipe(expandRounds(isLetterStep, () => round)), '^-----!').toBe(
          '-a--b-',
        );
        expectSubscriptions(source.subscriptions).toBe('^-----!');
        expectSubscriptions(round.subscriptions).toBe('---^--!');
      });
    });
  });
});
