import { lastValueFrom, take, toArray } from 'rxjs';
import { sdkEventStream } from 'rx-advisors/provider-kit';

/** An SDK-like stream: yields the values, then throws `failure` if given, honouring the signal. */
async function* events(
  values: readonly number[],
  signal: AbortSignal,
  failure?: Error,
): AsyncIterable<number> {
  for (const value of values) {
    await Promise.resolve(); // a network read
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    yield value;
  }
  await Promise.resolve();
  if (failure !== undefined) throw failure;
}

const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('sdkEventStream', () => {
  it('emits the events of a promised stream, then completes', async () => {
    const events$ = sdkEventStream((signal) => Promise.resolve(events([1, 2, 3], signal)));
    await expect(lastValueFrom(events$.pipe(toArray()))).resolves.toEqual([1, 2, 3]);
  });

  it('accepts a stream returned directly (no promise)', async () => {
    const events$ = sdkEventStream((signal) => events([4], signal));
    await expect(lastValueFrom(events$.pipe(toArray()))).resolves.toEqual([4]);
  });

  it('completes with no value for an empty stream', async () => {
    const events$ = sdkEventStream((signal) => events([], signal));
    await expect(lastValueFrom(events$.pipe(toArray()))).resolves.toEqual([]);
  });

  it('passes the stream’s error through unchanged, after the events before it', async () => {
    const failure = new Error('terminated');
    const seen: number[] = [];
    const events$ = sdkEventStream((signal) => events([1], signal, failure));
    const error = await errorOf(
      new Promise<unknown>((resolve, reject) =>
        events$.subscribe({
          next: (v) => seen.push(v),
          error: reject,
          complete: () => resolve(undefined),
        }),
      ),
    );
    expect(error).toBe(failure);
    expect(seen).toEqual([1]);
  });

  it('passes an error thrown by open, or a rejected call, through unchanged', async () => {
    const failure = new Error('401');
    const thrown = sdkEventStream<number>(() => {
      throw failure;
    });
    const rejected = sdkEventStream<number>(() => Promise.reject(failure));
    await expect(errorOf(lastValueFrom(thrown))).resolves.toBe(failure);
    await expect(errorOf(lastValueFrom(rejected))).resolves.toBe(failure);
  });

  it('aborts the signal on early unsubscription', async () => {
    const signals: AbortSignal[] = [];
    const events$ = sdkEventStream((signal) => {
      signals.push(signal);
      return events([1, 2, 3], signal);
    });
    await expect(lastValueFrom(events$.pipe(take(1)))).resolves.toBe(1);
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(true);
  });

  it('opens one call per subscription, each with its own signal, and none before', async () => {
    const signals: AbortSignal[] = [];
    const events$ = sdkEventStream((signal) => {
      signals.push(signal);
      return events([1], signal);
    });
    expect(signals).toHaveLength(0);
    await lastValueFrom(events$);
    await lastValueFrom(events$);
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
  });
});
