import { count, EMPTY, lastValueFrom, of, type Observable } from 'rxjs';
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
});
