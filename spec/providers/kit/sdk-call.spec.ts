import { lastValueFrom, toArray } from 'rxjs';
import { sdkCall } from 'rx-advisors/provider-kit';

describe('sdkCall', () => {
  it('makes one request per subscription and emits its one result', async () => {
    const signals: AbortSignal[] = [];
    const call$ = sdkCall((signal) => {
      signals.push(signal);
      return Promise.resolve(signals.length);
    });
    expect(signals).toHaveLength(0); // cold
    expect(await lastValueFrom(call$.pipe(toArray()))).toEqual([1]);
    expect(await lastValueFrom(call$)).toBe(2);
    expect(signals).toHaveLength(2);
  });

  it('passes the request error on unchanged', async () => {
    const failure = new Error('quota');
    await expect(lastValueFrom(sdkCall(() => Promise.reject(failure)))).rejects.toBe(failure);
  });

  it('aborts the request on unsubscribe, and emits nothing after', async () => {
    let signal: AbortSignal | undefined;
    let resolve: (value: string) => void = () => undefined;
    const seen: string[] = [];
    const subscription = sdkCall((given) => {
      signal = given;
      return new Promise<string>((done) => (resolve = done));
    }).subscribe((value) => seen.push(value));
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
    resolve('late');
    await Promise.resolve();
    expect(seen).toEqual([]);
  });

  it('fails the subscription when the request function throws', async () => {
    const boom = new Error('bad body');
    await expect(
      lastValueFrom(
        sdkCall(() => {
          throw boom;
        }),
      ),
    ).rejects.toBe(boom);
  });
});
