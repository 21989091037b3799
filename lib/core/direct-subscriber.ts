import { Subscriber } from 'rxjs';

/** The callbacks of a {@link DirectSubscriber}. @internal */
export interface DirectObserver<T> {
  next(value: T): void;
  error(err: unknown): void;
  complete(): void;
}

/**
 * An observer as a `Subscriber` subclass, the one kind RxJS 7 subscribes with as it is:
 * a plain observer object gets wrapped (`SafeSubscriber`, `ConsumerObserver`: two calls and
 * a `try` more per value; `lib/otel/observe-stream.ts` measured ~10 ns against ~4). For
 * the hand-written subscribers every value of a long-running tool passes (each chunk of a
 * nested agent: docs/agents.md, "Cost per nested chunk"). Contract: `next` must not throw
 * (it catches what it calls and fails the stream itself); after `error` or `complete` the
 * subscriber is stopped and unsubscribed.
 * @internal
 * @example
 * ```ts
 * const run = chunks$.subscribe(new DirectSubscriber({ next, error, complete }));
 * ```
 */
export class DirectSubscriber<T> extends Subscriber<T> {
  /** @param observer What to call. */
  constructor(private readonly observer: DirectObserver<T>) {
    super();
  }

  // `next` itself rather than `_next`: one call less per value.
  override next(value: T): void {
    if (!this.isStopped) this.observer.next(value);
  }

  protected override _error(err: unknown): void {
    try {
      this.observer.error(err);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      this.observer.complete();
    } finally {
      this.unsubscribe();
    }
  }
}
