import { isObservable, Observable, type Subscription } from 'rxjs';

/**
 * The values of `source$` that pass `keep`, then, once it completes, the values `then()`
 * returns: an array is emitted on the spot, an Observable is subscribed to. The same as
 * `concat(source$.pipe(filter(keep)), defer(() => from(then())))` in one subscription, for
 * the tool loop's rounds (a round's chunks, then what the round's end decides), which run
 * once per model call. Errors from `source$`, `keep`, `then` or the returned Observable
 * are the stream's error, and after one `then` is never called (so a round that failed
 * never runs its tools); unsubscribing tears down whichever part is running. It exists
 * because the bench shows the composition costs about a quarter more per tool round
 * (docs/architecture.md, "The tool loop's operators").
 * Contract: `keep` must not unsubscribe; `then` runs at most once per subscription.
 *
 * ```
 * source$: --a--b--c--|          keep: not b
 * then():             (xy|)      an array, or an Observable
 * result:  --a-----c--(xy|)
 * ```
 *
 * @internal
 * @example
 * ```ts
 * filterThen(chain.next(request), assembly.forward, () => endRound(assembly));
 * ```
 * @param source$ The values to filter.
 * @param keep Whether a value of `source$` goes on.
 * @param then Called once `source$` completes; what follows.
 * @param sourceFailed Called with an error of `source$` itself, just before the stream
 *   fails with it (the tool loop notes the model calls behind a failed round).
 * @returns A cold Observable.
 */
export function filterThen<T, R>(
  source$: Observable<T>,
  keep: (value: T) => boolean,
  then: () => readonly R[] | Observable<R>,
  sourceFailed?: (err: unknown) => void,
): Observable<T | R> {
  return new Observable<T | R>((subscriber) => {
    let tail: Subscription | undefined;
    // The subscriber itself, as `defer` passes it: no wrapper per value of the tail (every
    // chunk of a nested agent passes two tails, the round's and its tools').
    const follow = (rest$: Observable<R>): void => {
      tail = rest$.subscribe(subscriber);
    };
    const head = source$.subscribe({
      next: (value) => {
        if (subscriber.closed) return;
        let kept: boolean;
        try {
          kept = keep(value);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        if (kept) subscriber.next(value);
      },
      error: (err: unknown) => {
        sourceFailed?.(err);
        subscriber.error(err);
      },
      complete: () => {
        // `keep` threw on a synchronous source: the stream has failed, nothing follows.
        if (subscriber.closed) return;
        let rest: readonly R[] | Observable<R>;
        try {
          rest = then();
        } catch (err) {
          subscriber.error(err);
          return;
        }
        if (isObservable(rest)) {
          follow(rest);
          return;
        }
        for (const value of rest) {
          if (subscriber.closed) return;
          subscriber.next(value);
        }
        subscriber.complete();
      },
    });
    return () => {
      head.unsubscribe();
      tail?.unsubscribe();
    };
  });
}
