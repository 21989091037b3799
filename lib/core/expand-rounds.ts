import { Observable, Subscriber, type OperatorFunction } from 'rxjs';

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
      const run = new ExpandRun(subscriber, isStep, next);
      run.trampoline(() => run.subscribeRound(source));
    });
}

/** One subscription of `expandRounds`: its rounds, its steps, its end. */
class ExpandRun<V, S extends V> {
  /** Running rounds (the source included) plus steps waiting to start. */
  active = 1;
  /** Steps that arrived while a subscribe call was on the stack, started after it returns. */
  waiting: S[] | undefined = undefined;
  subscribing = false;

  constructor(
    readonly out: Subscriber<Exclude<V, S>>,
    readonly isStep: (value: V) => value is S,
    private readonly next: (step: S) => Observable<V>,
  ) {}

  subscribeRound(round$: Observable<V>): void {
    const round = new RoundSubscriber(this);
    round$.subscribe(round);
    // A synchronous round has finished already; keep only running ones for teardown.
    if (!round.done) this.out.add(round);
  }

  /** A round's step: the next round starts now, or after the subscribe call on the stack. */
  stepped(step: S): void {
    this.active++;
    if (this.subscribing) (this.waiting ??= []).push(step);
    else this.trampoline(() => this.start(step));
  }

  roundComplete(): void {
    if (--this.active === 0) this.out.complete();
  }

  /** Runs `first`, then every round it (or they) asked for, one after another. */
  trampoline(first: () => void): void {
    this.subscribing = true;
    try {
      first();
      const { out } = this;
      while (!out.closed && this.waiting !== undefined && this.waiting.length > 0) {
        this.start(this.waiting.shift() as S);
      }
    } finally {
      this.subscribing = false;
      this.waiting = undefined;
    }
  }

  private start(step: S): void {
    let round$: Observable<V>;
    try {
      round$ = this.next(step);
    } catch (err) {
      this.out.error(err);
      return;
    }
    this.subscribeRound(round$);
  }
}

/**
 * A round's subscriber: every chunk of every round passes its `next`, so it is a
 * `Subscriber` subclass RxJS subscribes with as it is (no observer object, no
 * `SafeSubscriber` between: one call per value; `lib/core/direct-subscriber.ts`). Its
 * `next` never throws.
 */
class RoundSubscriber<V, S extends V> extends Subscriber<V> {
  done = false;
  private step = false;

  constructor(private readonly run: ExpandRun<V, S>) {
    super();
  }

  override next(value: V): void {
    const { run } = this;
    const { out } = run;
    if (this.isStopped || out.closed) return;
    if (this.step) {
      out.error(new TypeError('expandRounds: a round emitted a value after its step.'));
      return;
    }
    let step: boolean;
    try {
      step = run.isStep(value);
    } catch (err) {
      out.error(err);
      return;
    }
    if (!step) {
      out.next(value as Exclude<V, S>);
      return;
    }
    this.step = true;
    run.stepped(value as S);
  }

  protected override _error(err: unknown): void {
    this.run.out.error(err);
    this.unsubscribe();
  }

  protected override _complete(): void {
    this.done = true;
    const { run } = this;
    run.out.remove(this);
    this.unsubscribe();
    run.roundComplete();
  }
}
