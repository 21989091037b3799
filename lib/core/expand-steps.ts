import { EMPTY, Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';

/**
 * RxJS `expand` (unbounded concurrency) for loops where only a few values start more work:
 * every value, from the source or from an expansion, is emitted and then projected, and a
 * projection that is the `EMPTY` constant starts nothing. RxJS's own `expand` subscribes
 * to every projection, `EMPTY` included, which costs an inner subscription (and its
 * garbage) per streamed chunk; here only the values that open a new round do.
 * Completes when the source and every expansion completed; the first error wins; an
 * unsubscription tears down the source and every running expansion.
 *
 * Expansions are trampolined: one asked for while a subscription is still being set up
 * (a synchronous source or round) starts as soon as that subscription call returns,
 * from the outermost frame, instead of nesting inside it. A loop of synchronous rounds
 * (a synchronous model, synchronous tools) therefore runs at a constant stack depth, however
 * many rounds it has. For the loops here the step is a round's last value, so the order
 * of values is the same as `expand`'s; an expansion asked for from an asynchronous
 * callback starts at once, as with `expand`.
 *
 * ```
 * source:   --a--s--b--|      s: a step whose projection is round 2
 * round 2:       --c--d|
 * result:   --a--s-cb-d|      every other value's projection is EMPTY
 * ```
 *
 * @internal
 * @example
 * ```ts
 * round$.pipe(expandSteps((item) => (item instanceof LoopStep ? item.next$ : EMPTY)));
 * ```
 * @param project Maps a value to the Observable it starts, or to `EMPTY`.
 * @returns The operator.
 */
export function expandSteps<T>(
  project: (value: T, index: number) => Observable<T>,
): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let index = 0;
      // Running sources: the source itself plus every expansion not yet complete.
      let active = 1;
      // Expansions asked for while a subscribe call is on the stack, started after it returns.
      let waiting: Observable<T>[] | undefined;
      let subscribing = false;
      const complete = (): void => {
        if (--active === 0) subscriber.complete();
      };
      const error = (err: unknown): void => subscriber.error(err);
      const start = (expansion$: Observable<T>): void => {
        let expansion: Subscription | undefined;
        let done = false;
        expansion = expansion$.subscribe({
          next: emit,
          error,
          complete: () => {
            done = true;
            if (expansion !== undefined) subscriber.remove(expansion);
            complete();
          },
        });
        // A synchronous expansion has finished already; keep only running ones for teardown.
        if (!done) subscriber.add(expansion);
        else expansion = undefined;
      };
      // Runs `first`, then every expansion it (or they) asked for, one after another.
      const trampoline = (first: () => void): void => {
        subscribing = true;
        try {
          first();
          let next: Observable<T> | undefined;
          while (!subscriber.closed && (next = waiting?.shift()) !== undefined) start(next);
        } finally {
          subscribing = false;
          waiting = undefined;
        }
      };
      const emit = (value: T): void => {
        subscriber.next(value);
        let expansion$: Observable<T>;
        try {
          expansion$ = project(value, index++);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        if (expansion$ === EMPTY || subscriber.closed) return;
        active++;
        if (subscribing) (waiting ??= []).push(expansion$);
        else trampoline(() => start(expansion$));
      };
      trampoline(() => subscriber.add(source.subscribe({ next: emit, error, complete })));
    });
}
