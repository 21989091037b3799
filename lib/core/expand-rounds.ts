import { Observable, type OperatorFunction, type Subscription } from 'rxjs';

/**
 * The loop operator of the tool loop and of `recursiveAdvisor`: runs rounds one after
 * another, where a round is an Observable of values and, as its last value, at most one
 * step that opens the next round. Values are emitted as they come; a step is consumed
 * (never emitted) and `next(step)` is subscribed as the next round.
 *
 * It is exactly `expand((v) => (isStep(v) ? next(v) : EMPTY)), filter((v) => !isStep(v))`
 * (the default unbounded concurrency of `expand`, so a round's chunks stream through as
 * they arrive) under its precondition, for two reasons:
 * 1. Stack safety. A round asked for while a subscription is still being set up (a
 *    synchronous model, synchronous tools) starts once that subscribe call returns, from
 *    the outermost frame (a trampoline), instead of nesting inside it: a loop of 10,000
 *    synchronous rounds runs at a constant stack depth, where `expand` overflows the stack
 *    after about a thousand.
 * 2. Per-chunk cost. `expand` projects every value and subscribes to every projection,
 *    `EMPTY` included, and a `filter` then drops the steps: an inner subscription and a
 *    predicate call per streamed chunk. Here only a step costs a subscription.
 *
 * Precondition: a step is the last value of its round. A round that emits a value after
 * its step fails the stream with a `TypeError` (with `expand` that value would come
 * before the next round's values when the round is synchronous, and after them here).
 * Completes when the source and every round completed; the first error wins and no round
 * starts after it; unsubscribing tears down every running round.
 *
 * ```
 * source:   --a--s|           s: a step (consumed); next(s) is round 2
 * round 2:       --c--d|
 * result:   --a----c--d|
 * ```
 *
 * @internal
 * @example
 * ```ts
 * round$(first).pipe(expandRounds(isLoopStep, (step) => step.next$));
 * ```
 * @param isStep Whether a value is a step; may throw (the stream's error).
 * @param next The round a step opens; may throw (the stream's error).
 * @returns The operator: the values of every round, steps left out.
 */
export function expandRounds<V, S extends V>(
  isStep: (value: V) => value is S,
  next: (step: S) => Observable<V>,
): OperatorFunction<V, Exclude<V, S>> {
  return (source) =>
    new Observable<Exclude<V, S>>((subscriber) => {
      // Running rounds (the source included) plus steps waiting to start.
      let active = 1;
      // Steps that arrived while a subscribe call was on the stack, started after it returns.
      let waiting: S[] | undefined;
      let subscribing = false;
      const error = (err: unknown): void => subscriber.error(err);
      const complete = (): void => {
        if (--active === 0) subscriber.complete();
      };
      const subscribeRound = (round$: Observable<V>): void => {
        let stepped = false;
        let done = false;
        let round: Subscription | undefined;
        round = round$.subscribe({
          next: (value) => {
            if (subscriber.closed) return;
            if (stepped) {
              error(new TypeError('expandRounds: a round emitted a value after its step.'));
              return;
            }
            let step: boolean;
            try {
              step = isStep(value);
            } catch (err) {
              error(err);
              return;
            }
            if (!step) {
              subscriber.next(value as Exclude<V, S>);
              return;
            }
            stepped = true;
            active++;
            if (subscribing) (waiting ??= []).push(value as S);
            else trampoline(() => start(value as S));
          },
          error,
          complete: () => {
            done = true;
            if (round !== undefined) subscriber.remove(round);
            complete();
          },
        });
        // A synchronous round has finished already; keep only running ones for teardown.
        if (!done) subscriber.add(round);
        else round = undefined;
      };
      const start = (step: S): void => {
        let round$: Observable<V>;
        try {
          round$ = next(step);
        } catch (err) {
          error(err);
          return;
        }
        subscribeRound(round$);
      };
      // Runs `first`, then every round it (or they) asked for, one after another.
      const trampoline = (first: () => void): void => {
        subscribing = true;
        try {
          first();
          while (!subscriber.closed && waiting !== undefined && waiting.length > 0) {
            start(waiting.shift() as S);
          }
        } finally {
          subscribing = false;
          waiting = undefined;
        }
      };
      trampoline(() => subscribeRound(source));
    });
}
