import { context, type Context } from '@opentelemetry/api';
import { Observable, Subscriber } from 'rxjs';

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
  /**
   * Values whose `type` is this are passed on without telling the watcher, except the
   * first value of the stream (the per-chunk path: `'text-delta'`, nearly every chunk).
   */
  readonly quietType?: string | undefined;
}

/**
 * The one subscriber layer of {@link observeStream}: tells the watcher, then passes on.
 * A `Subscriber` subclass, because it is the only layer RxJS 7 subscribes with as it is:
 * a plain observer gets wrapped (`SafeSubscriber` and its observer: ~10 ns per value in
 * W1, against ~4 here; `tap` and `map` cost the same ~10 ns), which put the telemetry
 * of two layers at ~40 % of W1 (docs/performance.md). RxJS 8 makes the constructor
 * internal; its `operate` is the replacement then.
 */
class WatchingSubscriber<T> extends Subscriber<T> {
  private ended = false;
  /** The watcher's `quietType` once the first value was told; undefined before. */
  private quiet: string | undefined;

  constructor(
    downstream: Subscriber<T>,
    private readonly watcher: StreamWatcher<T>,
  ) {
    super(downstream);
  }

  /** After the source is subscribed, so the source's teardown runs before the cancel. */
  watchCancel(): void {
    // Runs on every way out (at once when already closed); only an early one is a cancel.
    this.add(() => {
      if (!this.ended) this.watcher.cancel();
    });
  }

  // `next` itself rather than `_next`: one call less per value, and no part in the
  // megamorphic `this._next` call site that every RxJS subscriber shares.
  override next(value: T): void {
    if (this.isStopped) return;
    if (this.quiet === undefined || (value as { readonly type?: unknown }).type !== this.quiet) {
      this.quiet = this.watcher.quietType;
      this.watcher.next(value);
    }
    this.destination.next(value);
  }

  protected override _error(error: unknown): void {
    this.ended = true;
    this.watcher.error(error);
    super._error(error);
  }

  protected override _complete(): void {
    this.ended = true;
    this.watcher.complete();
    super._complete();
  }
}

/**
 * `source$` unchanged, subscribed with `active` as the active OpenTelemetry context (so
 * work a cold Observable starts when subscribed, and what it schedules from there with the
 * AsyncLocalStorage context manager, runs under that span), with a watcher per
 * subscription told of every value and of how the stream ended: completion, error, or an
 * unsubscribe before either. One subscriber layer of ~4 ns per value (Node 20, 10,000
 * chunks): `tap({ next, complete, error, unsubscribe })` or an observer object cost
 * ~10 ns, which is most of the per-chunk budget of telemetry (docs/performance.md).
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
    const watching = new WatchingSubscriber(subscriber, watch());
    context.with(active, () => source$.subscribe(watching));
    watching.watchCancel();
  });
}

/**
 * At subscribe time: `subscribe` runs with `active` as the active context and a
 * {@link observeStream} layer over `subscriber` that tells `watcher`; for a caller that
 * subscribes its source now (an advisor's `[ADVISE_INTO]`), with no Observable of its own.
 * @internal
 * @example
 * ```ts
 * watchInto(subscriber, new CallWatcher(call), span.context, (watching) => chain.runInto(request, watching));
 * ```
 * @param subscriber Where the values go.
 * @param watcher The watcher of this subscription.
 * @param active The context to subscribe in.
 * @param subscribe Subscribes the source with the layer it is given.
 */
export function watchInto<T>(
  subscriber: Subscriber<T>,
  watcher: StreamWatcher<T>,
  active: Context,
  subscribe: (watching: Subscriber<T>) => void,
): void {
  const watching = new WatchingSubscriber(subscriber, watcher);
  context.with(active, subscribe, undefined, watching);
  watching.watchCancel();
}
