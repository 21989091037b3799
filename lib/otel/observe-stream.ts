import { context, type Context } from '@opentelemetry/api';
import { Observable } from 'rxjs';

/** What {@link observeStream} tells about one subscription of a stream. */
export interface StreamWatcher<T> {
  /** Every value, before it is passed on. Must not throw. */
  next(value: T): void;
  /** The stream completed. */
  complete(): void;
  /** The stream failed. */
  error(error: unknown): void;
  /** The subscriber left before the stream ended. */
  cancel(): void;
}

/**
 * `source$` unchanged, subscribed with `active` as the active OpenTelemetry context (so
 * work a cold Observable starts when subscribed, and what it schedules from there with the
 * AsyncLocalStorage context manager, runs under that span), with a watcher per
 * subscription told of every value and of how the stream ended: completion, error, or an
 * unsubscribe before either. One subscriber layer: `tap({ next, complete, error,
 * unsubscribe })` after a `context.with` subscription does the same with about 11 ns more
 * per value (Node 20, 10,000 chunks through 5 `map`s: ~4 against ~11 ns per layer), which
 * is most of the per-chunk budget of telemetry (docs/performance.md).
 * @internal
 * @example
 * ```ts
 * observeStream(model$, span.context, () => ({ next, complete, error, cancel }));
 * ```
 * @param source$ The stream.
 * @param active The context to subscribe in.
 * @param watch Creates the watcher of one subscription.
 * @returns `source$`, observed.
 */
export function observeStream<T>(
  source$: Observable<T>,
  active: Context,
  watch: () => StreamWatcher<T>,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    const watcher = watch();
    let ended = false;
    const subscription = context.with(active, () =>
      source$.subscribe({
        next: (value) => {
          watcher.next(value);
          subscriber.next(value);
        },
        error: (error: unknown) => {
          ended = true;
          watcher.error(error);
          subscriber.error(error);
        },
        complete: () => {
          ended = true;
          watcher.complete();
          subscriber.complete();
        },
      }),
    );
    return () => {
      subscription.unsubscribe();
      if (!ended) watcher.cancel();
    };
  });
}
