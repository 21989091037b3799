import { isObservable, Observable, Subscriber, type Subscription } from 'rxjs';

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
    const head = new FilterThenSubscriber(subscriber, keep, then, sourceFailed);
    source$.subscribe(head);
    return () => {
      head.unsubscribe();
      head.tail?.unsubscribe();
    };
  });
}

/**
 * `filterThen`'s subscriber to `source$`: every chunk of a tool-loop round passes its
 * `next`, so it is a `Subscriber` subclass RxJS subscribes with as it is (no observer
 * object, no `SafeSubscriber` between: one call per value; `lib/core/direct-subscriber.ts`).
 * Its `next` never throws.
 */
class FilterThenSubscriber<T, R> extends Subscriber<T> {
  /** What `then()` returned, when an Observable: subscribed with `out` itself. */
  tail: Subscription | undefined = undefined;

  constructor(
    private readonly out: Subscriber<T | R>,
    private readonly keep: (value: T) => boolean,
    private readonly then: () => readonly R[] | Observable<R>,
    private readonly sourceFailed: ((err: unknown) => void) | undefined,
  ) {
    super();
  }

  override next(value: T): void {
    const { out } = this;
    if (this.isStopped || out.closed) return;
    let kept: boolean;
    try {
      kept = this.keep(value);
    } catch (err) {
      out.error(err);
      return;
    }
    if (kept) out.next(value);
  }

  protected override _error(err: unknown): void {
    try {
      this.sourceFailed?.(err);
      this.out.error(err);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      this.follow();
    } finally {
      this.unsubscribe();
    }
  }

  /** `source$` completed: what `then()` returns follows. */
  private follow(): void {
    const { out } = this;
    // `keep` threw on a synchronous source: the stream has failed, nothing follows.
    if (out.closed) return;
    let rest: readonly R[] | Observable<R>;
    try {
      rest = this.then();
    } catch (err) {
      out.error(err);
      return;
    }
    if (isObservable(rest)) {
      // The subscriber itself, as `defer` passes it: no wrapper per value of the tail
      // (every chunk of a nested agent passes two tails, the round's and its tools').
      this.tail = rest.subscribe(out);
      return;
    }
    for (const value of rest) {
      if (out.closed) return;
      out.next(value);
    }
    out.complete();
  }
}
