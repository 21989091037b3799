import {
  defer,
  expand,
  filter,
  ignoreElements,
  merge,
  Subject,
  tap,
  type Observable,
  type OperatorFunction,
} from 'rxjs';

/**
 * The recursion of the tool loop and of `recursiveAdvisor`: RxJS `expand` (default,
 * unbounded concurrency) over the *steps* of a loop (a round or an attempt that ends and
 * says what comes next), while the values between the steps (streamed chunks) go straight
 * out. Only steps travel through `expand`; every other value reaches the output through a
 * per-subscription `Subject`, since `expand` would otherwise project each streamed chunk
 * and subscribe to an inner Observable for it. A step is not emitted; `project` turns it
 * into the next stretch of the loop (values and, usually, one more step), or `EMPTY`.
 * Completes when the source and every expansion completed; the first error wins;
 * unsubscribing tears down the source and every running expansion.
 *
 * ```
 * source:   --a--s|               s: a step; project(s) is round 2
 * round 2:        --c--d|
 * result:   --a-----c--d|
 * ```
 *
 * @internal
 * @example
 * ```ts
 * round$.pipe(expandSteps((item): item is LoopStep => item instanceof LoopStep, (step) => step.next$));
 * ```
 * @param isStep Tells a step from a value to emit.
 * @param project Maps a step to the Observable that continues the loop.
 * @returns The operator.
 */
export function expandSteps<T, S>(
  isStep: (item: T | S) => item is S,
  project: (step: S) => Observable<T | S>,
): OperatorFunction<T | S, T> {
  return (source) =>
    defer(() => {
      const values$ = new Subject<T>();
      // Sends values out through values$ and lets only the steps through.
      const steps = (items$: Observable<T | S>): Observable<S> =>
        items$.pipe(
          filter((item): item is S => {
            if (isStep(item)) return true;
            values$.next(item);
            return false;
          }),
        );
      const loop$ = steps(source).pipe(
        expand((step) => steps(project(step))),
        ignoreElements(),
        tap({ complete: () => values$.complete() }),
      );
      // values$ is subscribed first, so values emitted synchronously are not missed.
      return merge(values$, loop$);
    });
}
