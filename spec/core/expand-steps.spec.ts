import { EMPTY, lastValueFrom, of, count, type Observable } from 'rxjs';
import { expandSteps } from '../../lib/core/expand-steps';

describe('expandSteps', () => {
  // Each round is synchronous (`of`) and ends with the step that opens the next one.
  const rounds =
    (total: number) =>
    (value: number): Observable<number> =>
      value < 0 && -value < total ? of(-value, value - 1) : EMPTY;

  it('runs 10,000 synchronous rounds at a constant stack depth', async () => {
    const values = await lastValueFrom(of(-1).pipe(expandSteps(rounds(10_000)), count()));
    // -1 .. -10,000 (the steps) and 1 .. 9,999 (one value per round but the last).
    expect(values).toBe(10_000 + 9_999);
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
    of(-1)
      .pipe(
        expandSteps((value: number) => {
          if (value < 0) depths.push(depth());
          return rounds(50)(value);
        }),
      )
      .subscribe();
    expect(depths).toHaveLength(50);
    expect(new Set(depths.slice(1)).size).toBe(1);
  });
});
